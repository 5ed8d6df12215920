package dev.burnbox.matcher;

import java.util.Arrays;

/**
 * Collects occurrences found out of the contract's order and hands them on sorted by end, then
 * start.
 *
 * <p>Not thread-safe: make one per scan, and only once the first occurrence is found, so that scans
 * without occurrences allocate nothing.
 */
final class MatchBuffer {
  private long[] spans = new long[16];
  private int[] terms = new int[16];
  private int size;

  void add(int term, int start, int end) {
    if (size == spans.length) {
      spans = Arrays.copyOf(spans, size * 2);
      terms = Arrays.copyOf(terms, size * 2);
    }
    spans[size] = ((long) end << 32) | start;
    terms[size] = term;
    size++;
  }

  /** Emits everything collected, sorted; a span is unique per occurrence, so the order is total. */
  void emitSorted(MatchSink sink) {
    long[] sorted = Arrays.copyOf(spans, size);
    Arrays.sort(sorted);
    int[] sortedTerms = new int[size];
    for (int i = 0; i < size; i++) {
      sortedTerms[Arrays.binarySearch(sorted, spans[i])] = terms[i];
    }
    for (int i = 0; i < size; i++) {
      sink.onMatch(sortedTerms[i], (int) sorted[i], (int) (sorted[i] >>> 32));
    }
  }
}
