package dev.burnbox.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RocMetricsTest {
  @Test
  void perfectSeparationHasAucOneAndFullRecallAtZeroFalsePositives() {
    RocMetrics roc =
        new RocMetrics(new double[] {0.1, 0.2, 0.9, 0.8}, new boolean[] {false, false, true, true});
    assertThat(roc.auc()).isEqualTo(1.0);
    assertThat(roc.recallAtFalsePositiveRate(0.0)).isEqualTo(1.0);
  }

  @Test
  void tiesCountHalfAndAucMatchesPairCounting() {
    Random random = new Random(3);
    double[] scores = new double[300];
    boolean[] spam = new boolean[300];
    for (int i = 0; i < scores.length; i++) {
      spam[i] = random.nextBoolean();
      scores[i] = random.nextInt(20) + (spam[i] ? 3 : 0);
    }
    double wins = 0;
    long pairs = 0;
    for (int i = 0; i < scores.length; i++) {
      for (int j = 0; j < scores.length; j++) {
        if (spam[i] && !spam[j]) {
          pairs++;
          wins += scores[i] > scores[j] ? 1 : scores[i] == scores[j] ? 0.5 : 0;
        }
      }
    }
    assertThat(new RocMetrics(scores, spam).auc()).isCloseTo(wins / pairs, within(1e-12));
  }

  @Test
  void recallAtAFalsePositiveRateNeverFlagsMoreHamThanAllowed() {
    // ham 1..100, spam 50.5..149.5: at 1% FP one ham (100) may be flagged
    double[] scores = new double[200];
    boolean[] spam = new boolean[200];
    for (int i = 0; i < 100; i++) {
      scores[i] = i + 1;
      scores[100 + i] = i + 50.5;
      spam[100 + i] = true;
    }
    RocMetrics roc = new RocMetrics(scores, spam);
    double threshold = roc.thresholdForFalsePositiveRate(0.01);
    assertThat(roc.falsePositiveRateAt(threshold)).isLessThanOrEqualTo(0.01);
    assertThat(roc.falsePositiveRateAt(Math.nextDown(threshold))).isGreaterThan(0.01);
    assertThat(roc.recallAtFalsePositiveRate(0.01)).isEqualTo(roc.recallAt(threshold));
    assertThat(roc.recallAt(threshold)).isEqualTo(0.51); // spam above 99: 99.5 .. 149.5
  }
}
