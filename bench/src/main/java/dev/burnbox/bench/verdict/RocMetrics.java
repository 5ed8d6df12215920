package dev.burnbox.bench.verdict;

import java.util.Arrays;

/**
 * Ranking figures of a spam score against labels: ROC AUC and the recall reached while flagging at
 * most a given share of ham. Higher scores mean spammier. Immutable.
 */
final class RocMetrics {
  private final double[] spam; // ascending
  private final double[] ham; // ascending

  RocMetrics(double[] scores, boolean[] isSpam) {
    spam = select(scores, isSpam, true);
    ham = select(scores, isSpam, false);
  }

  private static double[] select(double[] scores, boolean[] isSpam, boolean which) {
    return java.util.stream.IntStream.range(0, scores.length)
        .filter(i -> isSpam[i] == which && !Double.isNaN(scores[i]))
        .mapToDouble(i -> scores[i])
        .sorted()
        .toArray();
  }

  /** The chance that a random spam scores above a random ham (ties count half). */
  double auc() {
    double wins = 0;
    int below = 0; // ham strictly below the current spam score
    int tied;
    for (double s : spam) {
      while (below < ham.length && ham[below] < s) {
        below++;
      }
      tied = 0;
      while (below + tied < ham.length && ham[below + tied] == s) {
        tied++;
      }
      wins += below + tied / 2.0;
    }
    return wins / ((double) spam.length * ham.length);
  }

  /**
   * The share of spam scored strictly above the ham score that leaves at most {@code rate} of ham
   * above it: the recall of the best threshold that flags at most that share of ham.
   */
  double recallAtFalsePositiveRate(double rate) {
    int allowed = (int) Math.floor(rate * ham.length);
    double cut = allowed >= ham.length ? Double.NEGATIVE_INFINITY : ham[ham.length - 1 - allowed];
    return share(spam, cut);
  }

  /** The share of spam scored at or above {@code threshold}. */
  double recallAt(double threshold) {
    return atOrAbove(spam, threshold) / (double) spam.length;
  }

  /** The share of ham scored at or above {@code threshold}. */
  double falsePositiveRateAt(double threshold) {
    return atOrAbove(ham, threshold) / (double) ham.length;
  }

  /** Of the mail scored at or above {@code threshold}, the share that is spam. */
  double precisionAt(double threshold) {
    int tp = atOrAbove(spam, threshold);
    int fp = atOrAbove(ham, threshold);
    return tp + fp == 0 ? 1 : tp / (double) (tp + fp);
  }

  /** The smallest threshold that flags at most {@code rate} of ham (strictly above that ham). */
  double thresholdForFalsePositiveRate(double rate) {
    int allowed = (int) Math.floor(rate * ham.length);
    return Math.nextUp(ham[ham.length - 1 - allowed]);
  }

  /** ROC points (false positive rate, recall) at every distinct score, from strict to lenient. */
  double[][] curve() {
    double[] all = new double[spam.length + ham.length];
    System.arraycopy(spam, 0, all, 0, spam.length);
    System.arraycopy(ham, 0, all, spam.length, ham.length);
    double[] cuts = Arrays.stream(all).distinct().sorted().toArray();
    double[][] points = new double[2][cuts.length];
    for (int i = 0; i < cuts.length; i++) {
      double cut = cuts[cuts.length - 1 - i];
      points[0][i] = falsePositiveRateAt(cut);
      points[1][i] = recallAt(cut);
    }
    return points;
  }

  int spamCount() {
    return spam.length;
  }

  int hamCount() {
    return ham.length;
  }

  private static double share(double[] sorted, double above) {
    return atOrAbove(sorted, Math.nextUp(above)) / (double) sorted.length;
  }

  private static int atOrAbove(double[] sorted, double threshold) {
    return sorted.length - firstAtLeast(sorted, threshold);
  }

  private static int firstAtLeast(double[] sorted, double value) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
