package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.burnbox.server.logging.LogCapture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The throttle in a logback context of its own, on a test clock. */
class WebLogThrottleTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final LoggerContext context = new LoggerContext();
  private LogCapture captured;

  @BeforeEach
  void setUp() {
    WebLogThrottle throttle = new WebLogThrottle(now::get);
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
  void aJettyWarningIsLoggedEscapedAndBoundedOncePerWindow() {
    Logger hostPort = context.getLogger("org.eclipse.jetty.util.HostPort");
    for (int i = 0; i < 500; i++) {
      hostPort.warn("Bad Authority: [{}]", "a\u0085\u001b[31m\r\n12:00:00.000 ERROR FORGED" + i);
    }
    advanceSeconds(WebLogThrottle.WINDOW_SECONDS);
    hostPort.warn("Bad Authority: [{}]", "x".repeat(10_000));
    assertThat(logged())
        .containsExactly(
            "WARN dev.burnbox.server.web.WebLogThrottle o.e.j.util.HostPort: Bad Authority:"
                + " [a\\u0085\\u001b[31m\\u000d\\u000a12:00:00.000 ERROR FORGED0]",
            "WARN dev.burnbox.server.web.WebLogThrottle o.e.j.util.HostPort: Bad Authority: ["
                + "x".repeat(104)
                + "... [499 more not logged]");
  }

  @Test
  void anExceptionKeepsItsStackTraceButNotItsRawMessage() {
    Logger channel = context.getLogger("org.eclipse.jetty.server.internal.HttpChannelState");
    IllegalStateException failure =
        new IllegalStateException("bad \u001b]0;pwned\u0007", new RuntimeException("\r\nFORGED"));
    channel.warn("failed {}", "request\u2028", failure);
    ILoggingEvent event = captured.events().getFirst();
    assertThat(event.getFormattedMessage())
        .isEqualTo("o.e.j.s.internal.HttpChannelState: failed request\\u2028");
    assertThat(event.getThrowableProxy().getMessage())
        .isEqualTo("java.lang.IllegalStateException: bad \\u001b]0;pwned\\u0007");
    assertThat(event.getThrowableProxy().getStackTraceElementProxyArray())
        .hasSameSizeAs(failure.getStackTrace());
    assertThat(event.getThrowableProxy().getCause().getMessage())
        .isEqualTo("java.lang.RuntimeException: \\u000d\\u000aFORGED");
  }

  @Test
  void errorsHaveTheirOwnWindowAndJavalinIsThrottledToo() {
    Logger javalin = context.getLogger("io.javalin.Javalin");
    javalin.warn("w1");
    javalin.warn("w2");
    javalin.error("e1");
    javalin.error("e2");
    assertThat(logged())
        .containsExactly(
            "WARN dev.burnbox.server.web.WebLogThrottle i.javalin.Javalin: w1",
            "ERROR dev.burnbox.server.web.WebLogThrottle i.javalin.Javalin: e1");
  }

  @Test
  void leavesOtherLoggersAndLowerLevelsAlone() {
    Logger ours = context.getLogger("dev.burnbox.server.web.WebRefusals");
    Logger jetty = context.getLogger("org.eclipse.jetty.server.Server");
    for (int i = 0; i < 3; i++) {
      ours.warn("ours {}", i);
      jetty.info("started {}", i);
    }
    assertThat(logged()).hasSize(6);
  }
}
