package dev.burnbox.matcher;

/**
 * Mailinator's final approach: an array-based trie of the scan patterns, walked from every offset
 * of the text.
 *
 * <p>The trie is a {@link PatternTrie} (breadth-first numbered nodes, sorted child ranges searched
 * by bisection) plus a direct first-level table from every {@code char} to the root's child, with
 * case folding folded into it, so the common case of a text character that starts no pattern costs
 * one array load.
 *
 * <p>Occurrences are found in start order; they are collected into a {@link MatchBuffer}, created
 * on the first accepted occurrence, and emitted sorted by end, then start. A scan without
 * occurrences allocates nothing.
 *
 * <p>Complexity: O(n * L) for n characters of text and patterns of at most L characters (each step
 * down the trie is a bisection over at most the alphabet's size). Memory: 256 KiB for the
 * first-level table plus 14 bytes a trie node (label, child range, term). Immutable and
 * thread-safe.
 */
final class TrieMatcher implements TermMatcher {
  private final TermSet terms;

  /** The fold table when ignoring case, null when case-sensitive. */
  private final char[] fold;

  /** For each text {@code char}, the root's child along its (folded) form, or 0 for none. */
  private final int[] rootChild;

  private final char[] label;
  private final int[] firstChild;
  private final int[] childCount;

  /** The distinct term whose pattern ends at each node, or -1. */
  private final int[] termAt;

  TrieMatcher(TermSet terms) {
    this.terms = terms;
    this.fold = terms.options().ignoreCase() ? CaseFolding.charFoldTable() : null;
    PatternTrie trie = new PatternTrie(terms);
    this.label = trie.label;
    this.firstChild = trie.firstChild;
    this.childCount = trie.childCount;
    this.termAt = new int[trie.nodeCount];
    for (int n = 0; n < trie.nodeCount; n++) {
      termAt[n] = trie.pattern[n] < 0 ? -1 : terms.termOfPattern(trie.pattern[n]);
    }
    this.rootChild = new int[Character.MAX_VALUE + 1];
    for (int c = 0; c <= Character.MAX_VALUE; c++) {
      char key = fold == null ? (char) c : fold[c];
      rootChild[c] = Math.max(0, trie.child(0, key));
    }
  }

  @Override
  public MatcherKind kind() {
    return MatcherKind.TRIE;
  }

  @Override
  public TermSet terms() {
    return terms;
  }

  @Override
  public boolean containsAny(String text) {
    return scan(text, null);
  }

  @Override
  public void forEachMatch(String text, MatchSink sink) {
    scan(text, sink);
  }

  /**
   * Walks the trie from every offset. With a null {@code sink}, stops at the first accepted
   * occurrence; otherwise buffers them all and emits them in the contract's order.
   *
   * @return whether an occurrence was accepted
   */
  private boolean scan(String text, MatchSink sink) {
    MatchBuffer found = null;
    int n = text.length();
    for (int start = 0; start < n; start++) {
      int node = rootChild[text.charAt(start)];
      int end = start + 1;
      while (node > 0) { // 0 is the root, never a child; -1 is no child
        int term = termAt[node];
        if (term >= 0 && terms.acceptsBoundaries(text, start, end)) {
          if (sink == null) {
            return true;
          }
          if (found == null) {
            found = new MatchBuffer();
          }
          found.add(term, start, end);
        }
        if (end == n || childCount[node] == 0) {
          break;
        }
        char c = text.charAt(end++);
        node = PatternTrie.child(label, firstChild, childCount, node, fold == null ? c : fold[c]);
      }
    }
    if (found == null) {
      return false;
    }
    found.emitSorted(sink);
    return true;
  }
}
