package dev.burnbox.mailstore;

import java.util.List;
import java.util.Objects;

/**
 * What the intake pipeline's spam scan concluded about a message, stored with it for listing.
 * Immutable.
 *
 * @param terms the distinct spam terms found, in the order the scanner reported them; copied
 * @param score the score the pipeline computed from them; finite and not negative
 */
public record SpamVerdict(List<String> terms, double score) {
  /** No terms, score 0. */
  public static final SpamVerdict CLEAN = new SpamVerdict(List.of(), 0);

  /**
   * @throws NullPointerException if {@code terms} or a term is null
   * @throws IllegalArgumentException if {@code score} is negative, NaN or infinite
   */
  public SpamVerdict {
    terms = List.copyOf(Objects.requireNonNull(terms, "terms"));
    if (!(score >= 0) || Double.isInfinite(score)) {
      throw new IllegalArgumentException("score must be finite and not negative: " + score);
    }
  }
}
