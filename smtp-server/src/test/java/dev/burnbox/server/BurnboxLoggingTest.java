package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import dev.burnbox.server.smtp.SubEthaLogThrottle;
import dev.burnbox.server.web.WebLogThrottle;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class BurnboxLoggingTest {
  @Test
  void theServiceLogsOneLinePerEventOnStandardErrorWithTheFrameworksThrottled() {
    LoggerContext context = new LoggerContext();
    BurnboxLogging.configureService(context);
    assertThat(context.getLogger("dev.burnbox").getLevel()).isEqualTo(Level.INFO);
    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.WARN);
    for (String framework : new String[] {"org.subethamail", "org.eclipse.jetty", "io.javalin"}) {
      assertThat(context.getLogger(framework).getLevel()).as(framework).isEqualTo(Level.WARN);
    }
    assertThat(context.getTurboFilterList())
        .hasExactlyElementsOfTypes(SubEthaLogThrottle.class, WebLogThrottle.class)
        .allMatch(filter -> filter.isStarted());
    var appender =
        (ConsoleAppender<?>) context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR");
    assertThat(appender.isStarted()).isTrue();
    assertThat(appender.getTarget()).isEqualTo("System.err");
    assertThat(((PatternLayoutEncoder) appender.getEncoder()).getPattern())
        .isEqualTo("%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n");
  }

  @Test
  void burnboxLogLevelSetsBurnboxsOwnLevel() {
    System.setProperty("BURNBOX_LOG_LEVEL", "debug");
    try {
      LoggerContext context = new LoggerContext();
      BurnboxLogging.configureService(context);
      assertThat(context.getLogger("dev.burnbox.server").getEffectiveLevel())
          .isEqualTo(Level.DEBUG);
      assertThat(context.getLogger("org.eclipse.jetty").getEffectiveLevel()).isEqualTo(Level.WARN);
    } finally {
      System.clearProperty("BURNBOX_LOG_LEVEL");
    }
  }

  @Test
  void aConfigurationOfOnesOwnWins() {
    // this class path holds logback-test.xml: logback's own search goes on and finds it
    LoggerContext context = new LoggerContext();
    BurnboxLogging logging = new BurnboxLogging();
    logging.setContext(context);
    assertThat(logging.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
    assertThat(context.getTurboFilterList()).isEmpty();
  }
}
