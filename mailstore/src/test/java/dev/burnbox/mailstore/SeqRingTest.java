package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link SeqRing} against a list doing the same. */
class SeqRingTest {

  /** A ring of sequence numbers themselves. */
  private static SeqRing<Long> ring() {
    return new SeqRing<>() {
      @Override
      long seqOf(Long item) {
        return item;
      }
    };
  }

  private static List<Long> contents(SeqRing<Long> ring) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < ring.size(); i++) {
      out.add(ring.get(i));
    }
    return out;
  }

  @Test
  void keepsOrderThroughWrapAroundGrowthAndRemovals() {
    SeqRing<Long> ring = ring();
    List<Long> model = new ArrayList<>();
    Random random = new Random(5);
    long next = 1;
    for (int step = 0; step < 20_000; step++) {
      int op = random.nextInt(10);
      if (op < 5 || model.isEmpty()) {
        ring.addNewest(next);
        model.add(next);
        next += 1 + random.nextInt(3);
      } else if (op < 8) {
        assertThat(ring.remove(model.get(0))).isTrue();
        model.remove(0);
      } else {
        Long victim = model.get(random.nextInt(model.size()));
        assertThat(ring.remove(victim)).isTrue();
        model.remove(victim);
      }
      assertThat(ring.size()).isEqualTo(model.size());
      if (step % 97 == 0) {
        assertThat(contents(ring)).isEqualTo(model);
        long probe = random.nextLong(next + 1);
        assertThat(ring.countBefore(probe))
            .isEqualTo((int) model.stream().filter(s -> s < probe).count());
        if (!model.isEmpty()) {
          long newest = model.get(model.size() - 1);
          assertThat(ring.countBefore(newest)).isEqualTo(model.size() - 1);
          assertThat(ring.countBefore(newest + 1)).isEqualTo(model.size());
        }
      }
    }
    assertThat(ring.remove(next + 10)).isFalse();
  }

  @Test
  void holdsItsOnlyItemWithoutAnArrayUntilASecondComes() {
    SeqRing<Long> ring = ring();
    ring.addNewest(1L);
    assertThat(ring.hasArray()).isFalse();
    assertThat(contents(ring)).containsExactly(1L);
    assertThat(ring.remove(1L)).isTrue();
    ring.addNewest(2L);
    assertThat(ring.hasArray()).isFalse();
    ring.addNewest(3L);
    assertThat(ring.hasArray()).isTrue();
    assertThat(contents(ring)).containsExactly(2L, 3L);
    assertThat(ring.remove(2L)).isTrue();
    assertThat(ring.remove(3L)).isTrue();
    ring.addNewest(4L);
    assertThat(ring.hasArray()).as("an array once taken is kept").isTrue();
    assertThat(contents(ring)).containsExactly(4L);
  }

  @Test
  void refusesAnItemOutOfOrder() {
    SeqRing<Long> ring = ring();
    ring.addNewest(5L);
    assertThatThrownBy(() -> ring.addNewest(5L)).isInstanceOf(IllegalArgumentException.class);
    assertThat(contents(ring)).containsExactly(5L);
  }
}
