package dev.burnbox.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogCaptureTest {
  private final LoggerContext context = new LoggerContext();
  private final Logger logger = context.getLogger("dev.burnbox.test");

  @Test
  void capturesWhatTheLoggerAndItsDescendantsReceiveWhileOpenAndKeepsItAfterClose() {
    logger.warn("before");
    LogCapture capture = LogCapture.of(logger);
    try (capture) {
      logger.warn("during {}", 1);
      context.getLogger("dev.burnbox.test.below").info("from below");
    }
    logger.warn("after");

    assertThat(capture.messages()).containsExactly("during 1", "from below");
    assertThat(logger.iteratorForAppenders().hasNext()).as("an appender left attached").isFalse();
  }

  @Test
  void eventsAreACopyThatLaterEventsLeaveAsItIs() {
    try (LogCapture capture = LogCapture.of(logger)) {
      logger.warn("first");
      List<ILoggingEvent> seen = capture.events();
      logger.warn("second");

      assertThat(seen).hasSize(1);
      assertThat(capture.events()).hasSize(2);
    }
  }
}
