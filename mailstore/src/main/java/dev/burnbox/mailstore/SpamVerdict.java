package dev.burnbox.mailstore;

import java.util.List;
import java.util.Objects;

/**
 * What the intake pipeline's spam scan concluded about a message, stored with it for listing.
 * Immutable.
 *
 * @param terms the terms that pushed the message most towards spam, strongest first (a few, for a
 *     badge; the full explanation is recomputed when a message is read); copied
 * @param score the model's score: higher means spammier; finite, may be negative
 * @param probability the probability that the message is spam, from the score; in [0, 1]
 * @param spam true if the probability reached the spam threshold when the message arrived
 */
public record SpamVerdict(List<String> terms, double score, double probability, boolean spam) {
  /** No terms, score 0, probability 0, not spam: for mail that was never scanned. */
  public static final SpamVerdict CLEAN = new SpamVerdict(List.of(), 0, 0, false);

  /**
   * @throws NullPointerException if {@code terms} or a term is null
   * @throws IllegalArgumentException if {@code score} is not finite or {@code probability} not in
   *     [0, 1]
   */
  public SpamVerdict {
    terms = List.copyOf(Objects.requireNonNull(terms, "terms"));
    if (!Double.isFinite(score)) {
      throw new IllegalArgumentException("score must be finite: " + score);
    }
    if (!(probability >= 0 && probability <= 1)) {
      throw new IllegalArgumentException("probability must be in [0, 1]: " + probability);
    }
  }

  /** A verdict whose probability is the logistic function of {@code score}; spam at 0.5. */
  public static SpamVerdict ofScore(List<String> terms, double score) {
    double probability = 1 / (1 + Math.exp(-score));
    return new SpamVerdict(terms, score, probability, probability >= 0.5);
  }
}
