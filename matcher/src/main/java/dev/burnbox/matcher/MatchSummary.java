package dev.burnbox.matcher;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The distinct terms found in one text, with how often each occurred.
 *
 * <p>Immutable and thread-safe once built.
 */
public final class MatchSummary {
  private final Map<String, Integer> counts;
  private final int totalMatches;

  private MatchSummary(Map<String, Integer> counts, int totalMatches) {
    this.counts = Collections.unmodifiableMap(counts);
    this.totalMatches = totalMatches;
  }

  static MatchSummary of(TermSet terms, int[] countsByTerm) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    int total = 0;
    for (int i = 0; i < countsByTerm.length; i++) {
      if (countsByTerm[i] > 0) {
        counts.put(terms.term(i), countsByTerm[i]);
        total += countsByTerm[i];
      }
    }
    return new MatchSummary(counts, total);
  }

  /** Occurrences per distinct term hit, in term-set order; terms not hit are absent. */
  public Map<String, Integer> counts() {
    return counts;
  }

  /** How many distinct terms occurred at least once. */
  public int distinctTerms() {
    return counts.size();
  }

  /** How many occurrences there were in all, overlapping ones included. */
  public int totalMatches() {
    return totalMatches;
  }

  /** True if no term occurred. */
  public boolean isEmpty() {
    return counts.isEmpty();
  }

  @Override
  public String toString() {
    return counts.toString();
  }
}
