package dev.burnbox.server.smtp;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.burnbox.server.logging.LogCapture;
import java.util.List;

/**
 * What SubEtha's session logger writes at WARN or above while this is open: the lines a client's
 * routine departure must not cause ("Exception during SMTP transaction" with a stack trace). Open
 * it with try-with-resources; not thread-safe to open twice at once for the same test.
 */
final class SubEthaWarnings implements AutoCloseable {
  private final LogCapture session = LogCapture.of("org.subethamail.smtp.server.Session");

  /** The messages logged at WARN or above so far. */
  List<String> messages() {
    return session.events().stream()
        .filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  @Override
  public void close() {
    session.close();
  }
}
