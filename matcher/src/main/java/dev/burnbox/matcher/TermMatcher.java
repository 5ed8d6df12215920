package dev.burnbox.matcher;

import java.util.ArrayList;
import java.util.List;

/**
 * A compiled term set that scans text for every occurrence of its terms.
 *
 * <p>The contract every implementation honours (checked by one shared test table and by property
 * tests against {@link MatcherKind#NAIVE}):
 *
 * <ul>
 *   <li>Occurrences are reported as {@code (term, start, end)} with {@code String} indices;
 *       overlapping occurrences are all reported, including terms that are prefixes, suffixes or
 *       infixes of others.
 *   <li>They come in order of end offset, then start offset. A given span matches at most one
 *       distinct term (see {@link TermSet}), so the order is total.
 *   <li>{@link MatchOptions} decide case and word boundaries.
 *   <li>When the text has no occurrence, {@link #containsAny} and {@link #forEachMatch} allocate
 *       nothing (except {@link MatcherKind#ORG_AHOCORASICK}, which wraps a library that does).
 * </ul>
 *
 * <p>Instances are immutable and thread-safe: compile once, scan from any number of threads.
 */
public interface TermMatcher {

  /** Compiles {@code terms} with the algorithm {@code kind}. */
  static TermMatcher compile(MatcherKind kind, TermSet terms) {
    return kind.compile(terms);
  }

  /** Compiles {@code terms} with the algorithm {@link MatcherKind#bestFor} picks for them. */
  static TermMatcher best(TermSet terms) {
    return compile(MatcherKind.bestFor(terms), terms);
  }

  /** The algorithm behind this matcher. */
  MatcherKind kind();

  /** The terms and options this matcher was compiled from. */
  TermSet terms();

  /** True if at least one term occurs in {@code text}; may stop at the first occurrence. */
  boolean containsAny(String text);

  /** Reports every occurrence in {@code text} to {@code sink}, in the contract's order. */
  void forEachMatch(String text, MatchSink sink);

  /** Every occurrence in {@code text}, in the contract's order. */
  default List<Match> findAll(String text) {
    List<Match> out = new ArrayList<>();
    TermSet set = terms();
    forEachMatch(text, (term, start, end) -> out.add(new Match(set.term(term), term, start, end)));
    return out;
  }

  /**
   * Adds every occurrence in {@code text} to {@code counts}: the same occurrences {@link
   * #forEachMatch} reports, in an unspecified order, so a matcher may scan parts of the text side
   * by side. Allocates nothing.
   *
   * @throws IllegalArgumentException if {@code counts} has room for fewer term ids than {@link
   *     #terms()} has terms
   */
  default void count(String text, TermCounts counts) {
    counts.checkRoomFor(terms());
    forEachMatch(text, (term, start, end) -> counts.add(term));
  }

  /** The distinct terms that occur in {@code text}, with their counts. */
  default MatchSummary summarize(String text) {
    int[] counts = new int[terms().size()];
    forEachMatch(text, (term, start, end) -> counts[term]++);
    return MatchSummary.of(terms(), counts);
  }
}
