package dev.burnbox.server.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SubjectFloodFilterTest {
  private final AtomicLong nanos = new AtomicLong(1);
  private final Ticker ticker = nanos::get;
  private final SubjectFloodFilter filter =
      new SubjectFloodFilter(
          PipelineSettings.of(
              "--subject-flood-count=3", "--subject-flood-window=10m", "--subject-flood-ban=1h"),
          ticker);

  private void advance(Duration d) {
    nanos.addAndGet(d.toNanos());
  }

  @Test
  void theCountthMessageWithinTheWindowTripsTheBan() {
    assertThat(filter.recordAndCheckBanned("Cheap watches")).isFalse();
    assertThat(filter.recordAndCheckBanned("Cheap watches")).isFalse();
    assertThat(filter.recordAndCheckBanned("Cheap watches")).isTrue();
    assertThat(filter.isBanned("Cheap watches")).isTrue();
    assertThat(filter.recordAndCheckBanned("Other subject")).isFalse();
  }

  @Test
  void subjectsCompareIgnoringCaseAndWhiteSpace() {
    filter.recordAndCheckBanned("Cheap  watches");
    filter.recordAndCheckBanned(" CHEAP watches ");
    assertThat(filter.recordAndCheckBanned("cheap\twatches")).isTrue();
  }

  @Test
  void messagesSpreadOverMoreThanTheWindowDoNotTripIt() {
    for (int i = 0; i < 10; i++) {
      assertThat(filter.recordAndCheckBanned("Weekly digest")).isFalse();
      advance(Duration.ofMinutes(6));
    }
  }

  @Test
  void theBanLiftsByItself() {
    for (int i = 0; i < 3; i++) {
      filter.recordAndCheckBanned("Flood");
    }
    advance(Duration.ofMinutes(59));
    assertThat(filter.isBanned("Flood")).isTrue();
    advance(Duration.ofMinutes(2));
    assertThat(filter.isBanned("Flood")).isFalse();
    assertThat(filter.recordAndCheckBanned("Flood")).isFalse();
  }

  @Test
  void emptySubjectsAreNeverCounted() {
    for (int i = 0; i < 10; i++) {
      assertThat(filter.recordAndCheckBanned("  ")).isFalse();
    }
  }

  @Test
  void settingsOutOfRangeAreRejected() {
    assertThatThrownBy(() -> PipelineSettings.of("--subject-flood-count=1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--subject-flood-count");
    assertThatThrownBy(() -> PipelineSettings.of("--subject-flood-window=0s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--subject-flood-window");
    assertThatThrownBy(() -> PipelineSettings.of("--subject-flood-ban=0s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--subject-flood-ban");
  }
}
