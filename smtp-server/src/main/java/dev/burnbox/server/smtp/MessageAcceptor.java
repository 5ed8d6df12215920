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
   * Handles one message and returns the answer to its end of DATA. A positive (2xx) reply promises
   * the message is stored and retrievable; any other answer promises nothing was stored. A refusal
   * should be a {@link Refused}, which the intake counts and logs with its own refusals; a
   * non-positive {@link SmtpReply} is sent as it is, uncounted.
   *
   * @param envelope the session's envelope for this message
   * @param raw the message exactly as received (dot-unstuffed, CRLF line ends kept); owned by the
   *     callee from now on
   * @return what the SMTP session answers
   */
  Answer accept(Envelope envelope, byte[] raw);

  /**
   * Checks one RCPT TO address at a served domain before the intake accepts it, e.g. that its local
   * part is a valid inbox name.
   *
   * @return empty to accept the recipient, or the refusal (e.g. {@link Refusal#BAD_MAILBOX_NAME}),
   *     which the intake sends, counts and logs
   */
  default Optional<Refused> checkRecipient(String address) {
    return Optional.empty();
  }
}
