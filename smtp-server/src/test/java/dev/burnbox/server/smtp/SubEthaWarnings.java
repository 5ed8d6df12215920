package dev.burnbox.server.smtp;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * What SubEtha's session logger writes at WARN or above while this is open: the lines a client's
 * routine departure must not cause ("Exception during SMTP transaction" with a stack trace). Open
 * it with try-with-resources; not thread-safe to open twice at once for the same test.
 */
final class SubEthaWarnings implements AutoCloseable {
  private final Logger session =
      (Logger) LoggerFactory.getLogger("org.subethamail.smtp.server.Session");
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  SubEthaWarnings() {
    logged.start();
    session.addAppender(logged);
  }

  /** The messages logged at WARN or above so far. */
  List<String> messages() {
    return logged.list.stream()
        .filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  @Override
  public void close() {
    session.detachAppender(logged);
  }
}
