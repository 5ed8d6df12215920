package dev.burnbox.server.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
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
  void subjectsAreTrimmedAndTheirWhiteSpaceRunsCollapsedAsBefore() {
    for (String subject :
        List.of(
            "Cheap watches",
            "  Cheap \t\r\n watches  ",
            "\u2003Cheap\u2003watches\u2003",
            " a\u000Bb\fc ",
            "",
            " \t ")) {
      assertThat(SubjectFloodFilter.normalize(subject))
          .as(subject)
          .isEqualTo(subject.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT));
    }
  }

  @Test
  void aSubjectAsLongAsAMessageIsKeptByItsFirstChars() {
    String head = "Win ".repeat(100); // 400 chars, over the key's 256
    String longOne = head + "x".repeat(1 << 20);
    assertThat(SubjectFloodFilter.normalize(longOne)) // its 256th char a space, stripped
        .isEqualTo(
            head.toLowerCase(Locale.ROOT).substring(0, SubjectFloodFilter.KEY_CHARS).strip());
    filter.recordAndCheckBanned(longOne);
    filter.recordAndCheckBanned(head + "y".repeat(1 << 20));
    assertThat(filter.recordAndCheckBanned(head + "   z")).as("the same first chars").isTrue();
    // white space collapsed before the cut, not after
    String spaced = "a" + " ".repeat(1000) + "b".repeat(300);
    assertThat(SubjectFloodFilter.normalize(spaced))
        .isEqualTo(("a " + "b".repeat(300)).substring(0, SubjectFloodFilter.KEY_CHARS));
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
