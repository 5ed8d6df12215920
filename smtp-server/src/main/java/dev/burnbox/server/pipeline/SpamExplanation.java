package dev.burnbox.server.pipeline;

import java.util.List;

/**
 * Why a message got its verdict: every model term it hit and how much each moved the score.
 * Immutable. The score is the intercept plus the sum of the contributions.
 *
 * @param score the model's score; higher means spammier
 * @param probability the probability that the message is spam
 * @param threshold the probability from which a message is spam
 * @param spam whether the probability reached the threshold
 * @param intercept the score of a message without hits
 * @param terms every term hit, strongest contribution (either way) first
 */
public record SpamExplanation(
    double score,
    double probability,
    double threshold,
    boolean spam,
    double intercept,
    List<TermHit> terms) {

  public SpamExplanation {
    terms = List.copyOf(terms);
  }

  /**
   * One model term found in a message.
   *
   * @param term the term as the model writes it
   * @param part the part it counts in ({@code subject}, {@code body}, {@code markup}, {@code any})
   * @param count how often it occurred there
   * @param weight its weight in the model
   * @param contribution what it added to the score (negative: towards ham)
   * @param word the word of the message it stands for: for a character n-gram, the first word
   *     (letters and digits) of its part's normalised text that holds it, as the mail writes it
   *     ({@code word345} where the model read {@code wordeas}; format characters left out), as a
   *     stored verdict names it, or the n-gram if that word is too long; for a whole term, the term
   */
  public record TermHit(
      String term, String part, int count, double weight, double contribution, String word) {

    /** A whole term's hit: its word is the term. */
    public TermHit(String term, String part, int count, double weight, double contribution) {
      this(term, part, count, weight, contribution, term);
    }
  }
}
