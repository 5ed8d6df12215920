package dev.burnbox.matcher;

/**
 * Receives occurrences from {@link TermMatcher#forEachMatch}, one call per occurrence, in the
 * contract's order: by end offset, then by start offset.
 *
 * <p>Called on the scanning thread. Implementations should be cheap: the matcher does not buffer
 * occurrences unless its algorithm needs to reorder them.
 */
@FunctionalInterface
public interface MatchSink {

  /**
   * One occurrence.
   *
   * @param term index of the distinct term in {@link TermSet#term(int)}
   * @param start first {@code char} index of the occurrence in the text (inclusive)
   * @param end index just past its last {@code char} (exclusive)
   */
  void onMatch(int term, int start, int end);
}
