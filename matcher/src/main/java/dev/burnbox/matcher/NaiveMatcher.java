package dev.burnbox.matcher;

/**
 * The baseline Mailinator started from, and the oracle of the property tests: for each term, find
 * every occurrence with an {@code indexOf}-style search, then sort.
 *
 * <p>Deliberately independent of the other matchers' machinery: it compares whole code points
 * folded with {@link CaseFolding#foldCodePoint} against each term's folding, and does not use scan
 * patterns.
 *
 * <p>O(n * k) for n characters of text and k terms (O(n * total term length) worst case).
 * Thread-safe.
 */
final class NaiveMatcher implements TermMatcher {
  private final TermSet terms;

  NaiveMatcher(TermSet terms) {
    this.terms = terms;
  }

  @Override
  public MatcherKind kind() {
    return MatcherKind.NAIVE;
  }

  @Override
  public TermSet terms() {
    return terms;
  }

  @Override
  public boolean containsAny(String text) {
    for (int t = 0; t < terms.size(); t++) {
      String term = terms.folded(t);
      for (int at = indexOf(text, term, 0); at >= 0; at = indexOf(text, term, at + 1)) {
        if (terms.acceptsBoundaries(text, at, at + term.length())) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public void forEachMatch(String text, MatchSink sink) {
    MatchBuffer found = null;
    for (int t = 0; t < terms.size(); t++) {
      String term = terms.folded(t);
      for (int at = indexOf(text, term, 0); at >= 0; at = indexOf(text, term, at + 1)) {
        int end = at + term.length();
        if (terms.acceptsBoundaries(text, at, end)) {
          if (found == null) {
            found = new MatchBuffer();
          }
          found.add(t, at, end);
        }
      }
    }
    if (found != null) {
      found.emitSorted(sink);
    }
  }

  private int indexOf(String text, String foldedTerm, int from) {
    if (!terms.options().ignoreCase()) {
      return text.indexOf(foldedTerm, from);
    }
    for (int at = from; at + foldedTerm.length() <= text.length(); at++) {
      if (regionMatchesFolded(text, at, foldedTerm)) {
        return at;
      }
    }
    return -1;
  }

  private static boolean regionMatchesFolded(String text, int at, String foldedTerm) {
    int i = 0;
    while (i < foldedTerm.length()) {
      int want = foldedTerm.codePointAt(i);
      int have = text.codePointAt(at + i);
      if (CaseFolding.foldCodePoint(have) != want
          || Character.charCount(have) != Character.charCount(want)) {
        return false;
      }
      i += Character.charCount(want);
    }
    return true;
  }
}
