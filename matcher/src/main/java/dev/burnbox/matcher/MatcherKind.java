package dev.burnbox.matcher;

import java.util.Locale;
import java.util.function.Function;

/**
 * The matching algorithms, each a separate implementation of the one {@link TermMatcher} contract.
 *
 * <p>{@link #cliName()} is the name used on the command line and in configuration.
 */
public enum MatcherKind {
  /** {@code indexOf} per term: the baseline and the test oracle. O(n * k). */
  NAIVE(NaiveMatcher::new),
  /** Set-Horspool: one skipping pass for all terms, trie of reversed terms; for a few terms. */
  BOYER_MOORE(SetHorspoolMatcher::new),
  /** Array-based trie walked from every offset: Mailinator's final approach. O(n * L). */
  TRIE(TrieMatcher::new),
  /** Aho-Corasick with precomputed transitions over character classes. O(n + occurrences). */
  AHO_CORASICK(AhoCorasickMatcher::new),
  /** Wu-Manber: skips on hashed blocks of 3-4 characters; for ~100 terms of 4+ characters. */
  WU_MANBER(WuManberMatcher::new),
  /** The {@code org.ahocorasick} library behind an adapter: the reference implementation. */
  ORG_AHOCORASICK(OrgAhoCorasickMatcher::new);

  private final Function<TermSet, TermMatcher> compiler;

  MatcherKind(Function<TermSet, TermMatcher> compiler) {
    this.compiler = compiler;
  }

  /** Compiles {@code terms} with this algorithm. */
  public TermMatcher compile(TermSet terms) {
    return compiler.apply(terms);
  }

  /** The lower-case, hyphenated name, e.g. {@code aho-corasick}. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The kind with the given {@link #cliName()}.
   *
   * @throws IllegalArgumentException if there is none
   */
  public static MatcherKind fromCliName(String name) {
    for (MatcherKind kind : values()) {
      if (kind.cliName().equals(name)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("unknown matcher: " + name);
  }

  /**
   * The algorithm expected to scan fastest for this term set's shape. A heuristic, decided from the
   * measurements in {@code docs/benchmarks.md}; every kind returns the same matches.
   *
   * <p>The rule: {@link #WU_MANBER} for up to {@value #WU_MANBER_MAX_PATTERNS} scan patterns whose
   * shortest is at least {@value #WU_MANBER_MIN_LENGTH} chars long (it skips, so it reads only part
   * of the text: 2.5 GB/s at 10 realistic terms, 5.6x Aho-Corasick; at 300 terms it ties on spam
   * phrases and loses on common words, and short terms cap its skips); {@link #AHO_CORASICK}
   * otherwise (one table step per character whatever the number of terms and hits).
   */
  public static MatcherKind bestFor(TermSet terms) {
    boolean fewLongTerms =
        terms.patternCount() <= WU_MANBER_MAX_PATTERNS
            && terms.minPatternLength() >= WU_MANBER_MIN_LENGTH;
    return fewLongTerms ? WU_MANBER : AHO_CORASICK;
  }

  private static final int WU_MANBER_MAX_PATTERNS = 200;
  private static final int WU_MANBER_MIN_LENGTH = 4;
}
