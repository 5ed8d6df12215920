package dev.burnbox.matcher;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable set of distinct terms plus the {@link MatchOptions} they are matched with: the input
 * of every {@link TermMatcher}.
 *
 * <p>Terms are deduplicated by their comparison form (the term itself, or its case folding when
 * ignoring case); the first spelling given is kept and later duplicates are dropped, so each
 * distinct term has exactly one index. Terms must be non-empty, well-formed UTF-16 (no unpaired
 * surrogates).
 *
 * <p>Thread-safe. Building costs O(total term length).
 */
public final class TermSet {
  private final MatchOptions options;
  private final String[] terms;
  private final String[] folded;
  // Patterns are what scanning loops look for in text whose BMP units they fold one by one: the
  // folded term, expanded into one literal variant per case form of its supplementary code points.
  private final String[] patterns;
  private final int[] patternTerm;
  private final int minPatternLength;
  private final int maxPatternLength;

  private TermSet(MatchOptions options, List<String> distinct) {
    this.options = options;
    this.terms = distinct.toArray(String[]::new);
    this.folded = new String[terms.length];
    List<String> pats = new ArrayList<>();
    List<Integer> owners = new ArrayList<>();
    for (int i = 0; i < terms.length; i++) {
      folded[i] = options.ignoreCase() ? CaseFolding.foldString(terms[i]) : terms[i];
      List<String> variants =
          options.ignoreCase() ? expandSupplementary(folded[i]) : List.of(terms[i]);
      for (String v : variants) {
        pats.add(v);
        owners.add(i);
      }
    }
    this.patterns = pats.toArray(String[]::new);
    this.patternTerm = owners.stream().mapToInt(Integer::intValue).toArray();
    this.minPatternLength = Arrays.stream(patterns).mapToInt(String::length).min().orElse(0);
    this.maxPatternLength = Arrays.stream(patterns).mapToInt(String::length).max().orElse(0);
  }

  /**
   * Builds a term set.
   *
   * @throws NullPointerException if {@code terms}, a term or {@code options} is null
   * @throws IllegalArgumentException if a term is empty or has an unpaired surrogate
   */
  public static TermSet of(Collection<String> terms, MatchOptions options) {
    Objects.requireNonNull(options, "options");
    Map<String, Boolean> seen = new HashMap<>();
    List<String> distinct = new ArrayList<>();
    for (String term : terms) {
      Objects.requireNonNull(term, "term");
      validate(term);
      String key = options.ignoreCase() ? CaseFolding.foldString(term) : term;
      if (seen.putIfAbsent(key, Boolean.TRUE) == null) {
        distinct.add(term);
      }
    }
    return new TermSet(options, distinct);
  }

  /** Builds a term set; see {@link #of(Collection, MatchOptions)}. */
  public static TermSet of(MatchOptions options, String... terms) {
    return of(Arrays.asList(terms), options);
  }

  private static void validate(String term) {
    if (term.isEmpty()) {
      throw new IllegalArgumentException("empty term");
    }
    for (int i = 0; i < term.length(); i++) {
      char c = term.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < term.length()
          && Character.isLowSurrogate(term.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            "term has an unpaired surrogate at index " + i + ": " + term);
      }
    }
  }

  private static List<String> expandSupplementary(String foldedTerm) {
    if (foldedTerm.codePoints().noneMatch(Character::isSupplementaryCodePoint)) {
      return List.of(foldedTerm);
    }
    List<StringBuilder> out = new ArrayList<>();
    out.add(new StringBuilder());
    for (int i = 0; i < foldedTerm.length(); ) {
      int cp = foldedTerm.codePointAt(i);
      i += Character.charCount(cp);
      int[] forms =
          Character.isSupplementaryCodePoint(cp) ? CaseFolding.caseVariants(cp) : new int[] {cp};
      List<StringBuilder> next = new ArrayList<>(out.size() * forms.length);
      for (StringBuilder prefix : out) {
        for (int form : forms) {
          next.add(new StringBuilder(prefix).appendCodePoint(form));
        }
      }
      out = next;
    }
    return out.stream().map(StringBuilder::toString).toList();
  }

  /** The options terms are matched with. */
  public MatchOptions options() {
    return options;
  }

  /** The number of distinct terms. */
  public int size() {
    return terms.length;
  }

  /** True if the set has no terms: every matcher over it finds nothing. */
  public boolean isEmpty() {
    return terms.length == 0;
  }

  /** The distinct term with index {@code i}, spelled as first given. */
  public String term(int i) {
    return terms[i];
  }

  /** The distinct terms in index order. */
  public List<String> terms() {
    return List.of(terms);
  }

  /** The comparison form of term {@code i}: its simple case folding when ignoring case. */
  String folded(int i) {
    return folded[i];
  }

  /**
   * The number of scan patterns (at least {@link #size()}): the literal strings every matcher looks
   * for, one per term and, when ignoring case, one per case variant of its supplementary
   * characters. Public so that a matcher outside this package (the benchmarks' peers) can be built
   * from exactly the same patterns.
   */
  public int patternCount() {
    return patterns.length;
  }

  /**
   * Scan pattern {@code p}: compare it with text whose BMP units are folded with {@link
   * CaseFolding#foldChar} when ignoring case, and whose surrogates are compared literally.
   */
  public String pattern(int p) {
    return patterns[p];
  }

  /** The distinct term that pattern {@code p} stands for. */
  public int termOfPattern(int p) {
    return patternTerm[p];
  }

  /** Length of the shortest pattern in {@code char}s, 0 if the set is empty. */
  int minPatternLength() {
    return minPatternLength;
  }

  /** Length of the longest pattern in {@code char}s, 0 if the set is empty. */
  int maxPatternLength() {
    return maxPatternLength;
  }

  /**
   * Whether an occurrence at {@code [start, end)} is acceptable under the whole-words option:
   * always true without it; with it, true if neither neighbouring code point is a letter or digit.
   */
  boolean acceptsBoundaries(String text, int start, int end) {
    if (!options.wholeWords()) {
      return true;
    }
    if (start > 0 && Character.isLetterOrDigit(Character.codePointBefore(text, start))) {
      return false;
    }
    return end >= text.length() || !Character.isLetterOrDigit(Character.codePointAt(text, end));
  }

  @Override
  public String toString() {
    return "TermSet" + Arrays.toString(terms) + " " + options;
  }
}
