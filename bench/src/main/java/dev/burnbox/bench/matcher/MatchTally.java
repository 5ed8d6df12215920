package dev.burnbox.bench.matcher;

import dev.burnbox.matcher.MatchSink;

/**
 * A {@link MatchSink} that consumes every occurrence: it counts them and folds each {@code (term,
 * start, end)} into an order-independent checksum, so that two implementations agree on the tally
 * only if they very likely report the same occurrences. Benchmarks return the tally's {@link
 * #digest()} to JMH, which keeps the work from being optimised away.
 *
 * <p>Not thread-safe: one per benchmark thread.
 */
final class MatchTally implements MatchSink {
  private long count;
  private long checksum;

  @Override
  public void onMatch(int term, int start, int end) {
    count++;
    long h = ((long) term * 0x9E3779B97F4A7C15L) ^ ((long) start << 32 | end);
    checksum += h ^ (h >>> 29);
  }

  /** Adds a value that is not an occurrence (the calibration loop's final state). */
  void absorb(long value) {
    checksum += value;
  }

  void reset() {
    count = 0;
    checksum = 0;
  }

  long count() {
    return count;
  }

  long checksum() {
    return checksum;
  }

  /** Count and checksum in one value, for JMH to consume. */
  long digest() {
    return count * 31 + checksum;
  }
}
