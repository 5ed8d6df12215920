package dev.burnbox.server.smtp;

import java.util.Objects;

/**
 * One refusal as a {@link MessageAcceptor} answers it: why ({@link Refusal}, which fixes the
 * reply's code and enhanced status and the metric tag), what was refused, for the log, and the
 * reply's text. Immutable.
 *
 * @param refusal why
 * @param detail what was refused (e.g. the spam terms, the store's reason); client text is escaped
 *     and shortened when logged; may be empty
 * @param text the reply's text: the refusal's own, or one saying more precisely what was wrong (see
 *     {@link Refusal#badMailboxName})
 */
public record Refused(Refusal refusal, String detail, String text) implements Answer {
  /**
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the text spans lines
   */
  public Refused {
    Objects.requireNonNull(refusal, "refusal");
    Objects.requireNonNull(detail, "detail");
    new SmtpReply(refusal.reply().code(), refusal.reply().enhancedStatus(), text);
  }

  /** The refusal with its own reply text. */
  public Refused(Refusal refusal, String detail) {
    this(refusal, detail, refusal.reply().text());
  }

  /** The reply the client gets. */
  public SmtpReply reply() {
    return new SmtpReply(refusal.reply().code(), refusal.reply().enhancedStatus(), text);
  }
}
