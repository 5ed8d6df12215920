package dev.burnbox.server.smtp;

import java.util.Optional;

/**
 * Takes each fully received message from the SMTP intake and decides its final reply: the decode,
 * scan and store pipeline implements it.
 *
 * <p>Implementations must be thread-safe: every SMTP session calls {@link #accept} on its own
 * thread (virtual or platform), concurrently with the others.
 */
@FunctionalInterface
public interface MessageAcceptor {

  /**
   * Handles one message and returns the reply to its end of DATA. A positive (2xx) reply promises
   * the message is stored and retrievable; any other reply promises nothing was stored.
   *
   * @param envelope the session's envelope for this message
   * @param raw the message exactly as received (dot-unstuffed, CRLF line ends kept); owned by the
   *     callee from now on
   * @return the reply the SMTP session sends
   */
  SmtpReply accept(Envelope envelope, byte[] raw);

  /**
   * Checks one RCPT TO address at a served domain before the intake accepts it, e.g. that its local
   * part is a valid inbox name.
   *
   * @return empty to accept the recipient, or the refusal reply (e.g. 553 5.1.3)
   */
  default Optional<SmtpReply> checkRecipient(String address) {
    return Optional.empty();
  }
}
