package dev.burnbox.matcher;

import org.ahocorasick.trie.PayloadEmit;
import org.ahocorasick.trie.PayloadTrie;

/**
 * The reference: an adapter around the {@code org.ahocorasick} library, made to honour our
 * contract.
 *
 * <p>Where the library's own rules differ, the adapter does not use them:
 *
 * <ul>
 *   <li>its {@code ignoreCase()} lower-cases with {@link Character#toLowerCase(char)}, which is not
 *       simple case folding (Turkish {@code ı} would match {@code i}), so the adapter folds the
 *       text itself into a same-length copy and feeds the library folded scan patterns;
 *   <li>its {@code onlyWholeWords()} uses {@link Character#isAlphabetic} and ignores digits, so the
 *       adapter filters boundaries itself;
 *   <li>it reports overlapping matches (we never call {@code ignoreOverlaps()}), with inclusive end
 *       offsets and in its own order, so the adapter converts ends and sorts.
 * </ul>
 *
 * <p>What it cannot honour: the library allocates on every scan (its emit objects and, for
 * case-insensitive sets, the folded copy), so this matcher is exempt from the no-allocation rule.
 *
 * <p>Thread-safe: the library's trie is not modified after construction.
 */
final class OrgAhoCorasickMatcher implements TermMatcher {
  private final TermSet terms;
  private final PayloadTrie<Integer> trie;

  OrgAhoCorasickMatcher(TermSet terms) {
    this.terms = terms;
    PayloadTrie.PayloadTrieBuilder<Integer> builder = PayloadTrie.builder();
    for (int p = 0; p < terms.patternCount(); p++) {
      builder.addKeyword(terms.pattern(p), p);
    }
    this.trie = builder.build();
  }

  @Override
  public MatcherKind kind() {
    return MatcherKind.ORG_AHOCORASICK;
  }

  @Override
  public TermSet terms() {
    return terms;
  }

  @Override
  public boolean containsAny(String text) {
    if (terms.isEmpty()) {
      return false;
    }
    String scanned = foldIfNeeded(text);
    if (!terms.options().wholeWords()) {
      return trie.containsMatch(scanned);
    }
    boolean[] found = {false};
    trie.parseText(
        scanned,
        emit -> {
          if (terms.acceptsBoundaries(text, emit.getStart(), emit.getEnd() + 1)) {
            found[0] = true;
          }
          return true;
        });
    return found[0];
  }

  @Override
  public void forEachMatch(String text, MatchSink sink) {
    if (terms.isEmpty()) {
      return;
    }
    MatchBuffer found = new MatchBuffer();
    for (PayloadEmit<Integer> emit : trie.parseText(foldIfNeeded(text))) {
      int start = emit.getStart();
      int end = emit.getEnd() + 1;
      if (terms.acceptsBoundaries(text, start, end)) {
        found.add(terms.termOfPattern(emit.getPayload()), start, end);
      }
    }
    found.emitSorted(sink);
  }

  private String foldIfNeeded(String text) {
    if (!terms.options().ignoreCase()) {
      return text;
    }
    char[] folded = new char[text.length()];
    for (int i = 0; i < folded.length; i++) {
      folded[i] = CaseFolding.foldChar(text.charAt(i));
    }
    return new String(folded);
  }
}
