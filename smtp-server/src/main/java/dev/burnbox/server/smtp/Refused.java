package dev.burnbox.server.smtp;

import java.util.Objects;

/**
 * One refusal as a {@link MessageAcceptor} answers it: why ({@link Refusal}, which fixes the reply
 * and the metric tag) and what was refused, for the log. Immutable.
 *
 * @param refusal why
 * @param detail what was refused (e.g. the spam terms, the store's reason); client text is escaped
 *     and shortened when logged; may be empty
 */
public record Refused(Refusal refusal, String detail) implements Answer {
  /**
   * @throws NullPointerException if an argument is null
   */
  public Refused {
    Objects.requireNonNull(refusal, "refusal");
    Objects.requireNonNull(detail, "detail");
  }

  /** The reply the client gets. */
  public SmtpReply reply() {
    return refusal.reply();
  }
}
