package dev.burnbox.wordlists;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A spam model: weighted terms, each scored in one part of a mail, and how their hits become a
 * probability. Read from a model file by {@link SpamModelFile}; the shipped default is {@link
 * #defaults()}.
 *
 * <p>For a mail, let {@code n} be how often a term occurs in its part. The model's {@link Scoring}
 * turns each term's count into a value {@code x}, the score is {@code intercept + sum(weight * x)},
 * and the probability that the mail is spam is {@code 1 / (1 + exp(-score))}. A mail is spam when
 * its probability reaches the {@link #threshold}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param terms the weighted terms, in file order; at least one
 * @param scoring how a term's count becomes its value
 * @param intercept the score of a mail without hits
 * @param threshold the probability from which a mail is spam, in (0, 1)
 * @param match whether terms match anywhere or only as whole words
 * @param source where the model came from, for logs ("built-in model" or a file name)
 * @param smoothing for {@link Scoring#TFIDF_L2}: added to the squared length of a mail's vector
 *     before dividing by its square root, so that a mail with little evidence (a short one) scores
 *     near the intercept instead of as surely as a long one; 0 or more
 */
public record SpamModel(
    List<WeightedTerm> terms,
    Scoring scoring,
    double intercept,
    double threshold,
    Match match,
    String source,
    double smoothing) {

  /** Parts of a mail a term is counted in. */
  public enum Part {
    /** The decoded Subject. */
    SUBJECT,
    /** The text a reader sees: text parts and the visible text of HTML parts. */
    BODY,
    /**
     * What the HTML says that a reader does not see: tag and attribute names, style values,
     * colours, link and image hosts.
     */
    MARKUP,
    /** Every part above; a plain term list's terms count everywhere. */
    ANY;

    /** The name used in model files: {@code subject}, {@code body}, {@code markup}, {@code any}. */
    public String fileName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** True if a term of this part counts in {@code part} (one of the concrete parts). */
    public boolean covers(Part part) {
      return this == ANY || this == part;
    }
  }

  /** How a term's count {@code n} (at least 1) becomes its value {@code x}. */
  public enum Scoring {
    /**
     * {@code x = min(n, 3)}: every occurrence counts, at most three per term (the plain term list's
     * scoring).
     */
    CAPPED("capped"),
    /**
     * {@code x = idf * (1 + ln n) / sqrt(len² + smoothing)}, where {@code len} is the Euclidean
     * length of the vector of {@code idf * (1 + ln n)} over all the mail's hits: the mail's own
     * length does not count, only which terms it has and how much they dominate it (the smoothing
     * keeps a mail with a handful of hits from counting as much as a whole letter).
     */
    TFIDF_L2("tfidf-l2");

    private final String fileName;

    Scoring(String fileName) {
      this.fileName = fileName;
    }

    /** The name used in model files. */
    public String fileName() {
      return fileName;
    }
  }

  /** Where a term may match. */
  public enum Match {
    /** Only as a whole word: no letter or digit right before or after it. */
    WORDS,
    /** Anywhere, inside words too (character n-grams). */
    SUBSTRINGS;

    /** The name used in model files: {@code words}, {@code substrings}. */
    public String fileName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One term of a model.
   *
   * @param term the text to find, as written in the file (matching normalises it)
   * @param weight its weight; finite
   * @param part the part it is counted in
   * @param idf its inverse document frequency, used by {@link Scoring#TFIDF_L2}; positive
   */
  public record WeightedTerm(String term, double weight, Part part, double idf) {
    /**
     * @throws IllegalArgumentException if the term is empty or has a line break (a model file has a
     *     term per line, and a scanner may join parts with line feeds), the weight is not finite or
     *     the idf not positive and finite
     */
    public WeightedTerm {
      Objects.requireNonNull(term, "term");
      Objects.requireNonNull(part, "part");
      if (term.isEmpty()) {
        throw new IllegalArgumentException("empty term");
      }
      if (term.indexOf('\n') >= 0 || term.indexOf('\r') >= 0) {
        throw new IllegalArgumentException("a term cannot have a line break: " + term.strip());
      }
      if (!Double.isFinite(weight)) {
        throw new IllegalArgumentException("weight must be a finite number: " + weight);
      }
      if (!(idf > 0) || !Double.isFinite(idf)) {
        throw new IllegalArgumentException("idf must be a positive number: " + idf);
      }
    }
  }

  /** The intercept of a plain term list: a mail needs a score of 5 to reach probability 0.5. */
  public static final double PLAIN_LIST_INTERCEPT = -5;

  /** The threshold of a model file that names none. */
  public static final double DEFAULT_THRESHOLD = 0.5;

  /** A model without smoothing. */
  public SpamModel(
      List<WeightedTerm> terms,
      Scoring scoring,
      double intercept,
      double threshold,
      Match match,
      String source) {
    this(terms, scoring, intercept, threshold, match, source, 0);
  }

  /**
   * @throws IllegalArgumentException if there are no terms, the intercept is not finite, the
   *     threshold is not strictly between 0 and 1 or the smoothing is negative or not finite
   */
  public SpamModel {
    terms = List.copyOf(terms);
    Objects.requireNonNull(scoring, "scoring");
    Objects.requireNonNull(match, "match");
    Objects.requireNonNull(source, "source");
    if (terms.isEmpty()) {
      throw new IllegalArgumentException("a model needs at least one term");
    }
    if (!Double.isFinite(intercept)) {
      throw new IllegalArgumentException("intercept must be a finite number: " + intercept);
    }
    checkThreshold(threshold);
    if (!(smoothing >= 0) || Double.isInfinite(smoothing)) {
      throw new IllegalArgumentException("smoothing must be 0 or more: " + smoothing);
    }
  }

  /**
   * A model from a plain term list: every term weight 1 in every part, capped counts, whole words,
   * intercept {@value #PLAIN_LIST_INTERCEPT} and threshold 0.5, so that a mail is spam when its
   * capped hits add up to 5 (Burnbox's scoring before learned models).
   */
  public static SpamModel ofPlainTerms(List<String> terms, String source) {
    return new SpamModel(
        terms.stream().map(t -> new WeightedTerm(t, 1, Part.ANY, 1)).toList(),
        Scoring.CAPPED,
        PLAIN_LIST_INTERCEPT,
        DEFAULT_THRESHOLD,
        Match.WORDS,
        source);
  }

  /** This model with another threshold (a probability strictly between 0 and 1). */
  public SpamModel withThreshold(double probability) {
    return new SpamModel(terms, scoring, intercept, probability, match, source, smoothing);
  }

  /** The logistic function: the probability of a score. */
  public static double probability(double score) {
    return 1 / (1 + Math.exp(-score));
  }

  /**
   * @throws IllegalArgumentException if {@code threshold} is not strictly between 0 and 1
   */
  public static double checkThreshold(double threshold) {
    if (!(threshold > 0 && threshold < 1)) {
      throw new IllegalArgumentException(
          "spam threshold must be a probability between 0 and 1 (exclusive): " + threshold);
    }
    return threshold;
  }

  /** The shipped model ({@code spam-model.txt}), loaded once on first use. */
  public static SpamModel defaults() {
    return Holder.DEFAULTS;
  }

  private static final class Holder {
    static final SpamModel DEFAULTS =
        SpamModelFile.loadResource("spam-model.txt", "built-in model");
  }
}
