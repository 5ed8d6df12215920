package dev.burnbox.server.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The events a Logback logger (and, through additivity, its descendants) receives from the moment
 * this is made until it is closed: a list appender attached to the logger, detached by {@link
 * #close}. Open it with try-with-resources, or close it in an {@code @AfterEach}, so that it is
 * detached when the test fails too. Loggers on any thread may write to it while a test reads it;
 * what it captured stays readable after {@link #close}.
 */
public final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogCapture(Logger logger) {
    this.logger = logger;
    appender.setContext(logger.getLoggerContext());
    appender.start();
    logger.addAppender(appender);
  }

  /** Captures what {@code logger}, of any logger context (a test's own too), receives. */
  public static LogCapture of(Logger logger) {
    return new LogCapture(logger);
  }

  /** Captures what the service's logger named {@code name} receives. */
  public static LogCapture of(String name) {
    return of((Logger) LoggerFactory.getLogger(name));
  }

  /** Captures what the service's logger of {@code type} receives. */
  public static LogCapture of(Class<?> type) {
    return of((Logger) LoggerFactory.getLogger(type));
  }

  /** The events captured so far, oldest first: a copy, which later events leave as it is. */
  public List<ILoggingEvent> events() {
    synchronized (appender) { // the lock under which the appender adds an event
      return List.copyOf(appender.list);
    }
  }

  /** The formatted messages of the {@link #events}. */
  public List<String> messages() {
    return events().stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  /** Detaches the appender from the logger; what it captured stays readable. */
  @Override
  public void close() {
    logger.detachAppender(appender);
    appender.stop();
  }
}
