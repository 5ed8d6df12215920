package dev.burnbox.server.pipeline;

import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.MatchSummary;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.matcher.TermMatcher;
import dev.burnbox.matcher.TermSet;
import dev.burnbox.server.mime.DecodedMail;
import dev.burnbox.wordlists.SpamTerms;
import dev.burnbox.wordlists.TermList;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Scans a message's text for spam terms and turns what it finds into a {@link SpamVerdict}; the
 * term list can be replaced while mail flows.
 *
 * <p>Scoring: every occurrence of a term counts 1, at most {@value #MAX_POINTS_PER_TERM} per
 * distinct term, so one word repeated a hundred times cannot outweigh several different ones. A
 * message is spam when its score reaches the threshold.
 *
 * <p>Thread-safe. {@link #scan} runs lock-free on the compiled matcher current when it starts;
 * {@link #reload} compiles a new matcher first and then swaps it in atomically, so a scan sees
 * either the old list or the new one, never a mix, and a bad file leaves the old list in place.
 * Terms are matched case-insensitively and as whole words, in their {@link DecodedMail#scanForm}
 * (without the invisible characters a scan text never has).
 */
public final class SpamScanner {
  /** The most points one distinct term adds to a score. */
  public static final int MAX_POINTS_PER_TERM = 3;

  private static final MatchOptions OPTIONS = new MatchOptions(true, true);

  private final MatcherKind kind;
  private final double threshold;
  private final AtomicReference<Compiled> current;

  /** A compiled term list and where it came from. */
  private record Compiled(TermMatcher matcher, String source) {}

  private SpamScanner(MatcherKind kind, double threshold, Compiled initial) {
    if (!(threshold > 0) || Double.isInfinite(threshold)) {
      throw new IllegalArgumentException("spam threshold must be positive: " + threshold);
    }
    this.kind = kind;
    this.threshold = threshold;
    this.current = new AtomicReference<>(initial);
  }

  /**
   * A scanner over {@code terms}.
   *
   * @param kind the matcher algorithm, or null for {@link MatcherKind#bestFor}
   * @param threshold the score from which a message is spam; positive
   * @param terms the spam terms (see {@link TermSet#of} for what is accepted)
   * @param source where the terms came from, for logs
   * @throws IllegalArgumentException if a term or the threshold is invalid
   */
  public static SpamScanner of(
      MatcherKind kind, double threshold, List<String> terms, String source) {
    return new SpamScanner(kind, threshold, compile(kind, terms, source));
  }

  /** A scanner over the built-in spam list ({@link SpamTerms#defaults()}). */
  public static SpamScanner withDefaultTerms(MatcherKind kind, double threshold) {
    return of(kind, threshold, SpamTerms.defaults(), "built-in list");
  }

  /**
   * A scanner over the terms in {@code file} (see {@link TermList#read} for the format).
   *
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if a term is invalid
   */
  public static SpamScanner fromFile(MatcherKind kind, double threshold, Path file)
      throws IOException {
    return of(kind, threshold, TermList.read(file), file.toString());
  }

  /**
   * Replaces the term list with the one in {@code file}. On any error the current list stays in use
   * and the error is thrown for the caller to report.
   *
   * @return how many distinct terms the new list has
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if a term is invalid or the file holds no terms
   */
  public int reload(Path file) throws IOException {
    Compiled next = compile(kind, TermList.read(file), file.toString());
    if (next.matcher().terms().isEmpty()) {
      throw new IllegalArgumentException(file + " holds no terms");
    }
    current.set(next);
    return next.matcher().terms().size();
  }

  /** Scans {@code text}: the distinct terms hit, in term-list order, and the score. */
  public SpamVerdict scan(String text) {
    MatchSummary summary = current.get().matcher().summarize(text);
    if (summary.isEmpty()) {
      return SpamVerdict.CLEAN;
    }
    List<String> terms = new ArrayList<>(summary.distinctTerms());
    double score = 0;
    for (Map.Entry<String, Integer> hit : summary.counts().entrySet()) {
      terms.add(hit.getKey());
      score += Math.min(hit.getValue(), MAX_POINTS_PER_TERM);
    }
    return new SpamVerdict(terms, score);
  }

  /** True if {@code verdict}'s score reaches this scanner's threshold. */
  public boolean isSpam(SpamVerdict verdict) {
    return verdict.score() >= threshold;
  }

  /** The score from which a message is spam. */
  public double threshold() {
    return threshold;
  }

  /** The algorithm of the matcher in use (the chosen one when built with null). */
  public MatcherKind matcherKind() {
    return current.get().matcher().kind();
  }

  /** How many distinct terms the list in use has. */
  public int termCount() {
    return current.get().matcher().terms().size();
  }

  /** Where the list in use came from: a file path or "built-in list". */
  public String source() {
    return current.get().source();
  }

  private static Compiled compile(MatcherKind kind, List<String> terms, String source) {
    Objects.requireNonNull(source, "source");
    // the scan text has invisible characters removed (DecodedMail#scanText): a term that kept one
    // could never match, so terms get the same treatment, and one left empty by it is dropped
    List<String> scanForms = new ArrayList<>(terms.size());
    for (String term : terms) {
      String scanForm = DecodedMail.scanForm(Objects.requireNonNull(term, "term"));
      if (!scanForm.isEmpty()) {
        scanForms.add(scanForm);
      }
    }
    TermSet set = TermSet.of(scanForms, OPTIONS);
    TermMatcher matcher = kind == null ? TermMatcher.best(set) : kind.compile(set);
    return new Compiled(matcher, source);
  }
}
