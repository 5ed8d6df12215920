package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import dev.burnbox.server.logging.LogCapture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The throttle in a logback context of its own, on a test clock. */
class SubEthaLogThrottleTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final LoggerContext context = new LoggerContext();
  private LogCapture captured;

  @BeforeEach
  void setUp() {
    SubEthaLogThrottle throttle = new SubEthaLogThrottle(now::get);
    throttle.setContext(context);
    throttle.start();
    context.addTurboFilter(throttle);
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.DEBUG);
    captured = LogCapture.of(root); // in the test's own context: nothing outlives the test
  }

  private List<String> logged() {
    return captured.events().stream()
        .map(e -> e.getLevel() + " " + e.getLoggerName() + " " + e.getFormattedMessage())
        .toList();
  }

  private void advanceSeconds(long seconds) {
    now.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
  }

  @Test
  void letsOneSubEthaWarningPerWindowThroughAndCountsTheRest() {
    Logger session = context.getLogger("org.subethamail.smtp.server.Session");
    for (int i = 0; i < 5; i++) {
      session.warn("Exception during SMTP transaction", new java.io.IOException("x" + i));
    }
    advanceSeconds(SubEthaLogThrottle.WINDOW_SECONDS);
    session.warn("Exception during SMTP transaction");
    assertThat(logged())
        .containsExactly(
            "WARN org.subethamail.smtp.server.Session Exception during SMTP transaction",
            "WARN dev.burnbox.server.smtp.SubEthaLogThrottle 4 more WARN lines from SubEtha SMTP"
                + " were not logged",
            "WARN org.subethamail.smtp.server.Session Exception during SMTP transaction");
  }

  @Test
  void errorsHaveTheirOwnWindowSoAWarningFloodCannotHideThem() {
    Logger session = context.getLogger("org.subethamail.smtp.server.Session");
    session.warn("w1");
    session.warn("w2");
    session.error("e1");
    session.error("e2");
    assertThat(logged())
        .containsExactly(
            "WARN org.subethamail.smtp.server.Session w1",
            "ERROR org.subethamail.smtp.server.Session e1");
  }

  @Test
  void leavesOtherLoggersAndLowerLevelsAlone() {
    Logger ours = context.getLogger("dev.burnbox.server.smtp.Refusals");
    Logger subetha = context.getLogger("org.subethamail.smtp.server.Session");
    for (int i = 0; i < 3; i++) {
      ours.warn("ours {}", i);
      subetha.debug("Client: NOOP {}", i);
      subetha.info("info {}", i);
    }
    assertThat(logged()).hasSize(9);
  }
}
