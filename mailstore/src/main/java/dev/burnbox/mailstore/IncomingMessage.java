package dev.burnbox.mailstore;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One message as the intake pipeline hands it to {@link InboxStore#deliver}: the raw bytes exactly
 * as received plus the envelope and the listing metadata the pipeline computed.
 *
 * <p>The raw bytes are copied on construction and {@link #raw()} returns a copy, so an instance is
 * immutable and thread-safe. Equality compares the bytes' contents.
 *
 * @param raw the message exactly as received after DATA (headers and body)
 * @param envelopeSender the MAIL FROM address; empty for the null sender {@code <>}
 * @param recipients the inboxes to list it in; at least one (duplicates are delivered once)
 * @param receivedAt when the SMTP layer received it
 * @param from the decoded {@code From} header for display; empty if absent
 * @param subject the decoded {@code Subject} header for display; empty if absent
 * @param verdict the spam scan's verdict
 */
public record IncomingMessage(
    byte[] raw,
    String envelopeSender,
    List<InboxName> recipients,
    Instant receivedAt,
    String from,
    String subject,
    SpamVerdict verdict) {

  /**
   * @throws NullPointerException if any argument or recipient is null
   * @throws IllegalArgumentException if {@code recipients} is empty
   */
  public IncomingMessage {
    raw = Objects.requireNonNull(raw, "raw").clone();
    Objects.requireNonNull(envelopeSender, "envelopeSender");
    recipients = List.copyOf(Objects.requireNonNull(recipients, "recipients"));
    if (recipients.isEmpty()) {
      throw new IllegalArgumentException("a message needs at least one recipient");
    }
    Objects.requireNonNull(receivedAt, "receivedAt");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(verdict, "verdict");
  }

  /** A copy of the raw bytes. */
  @Override
  public byte[] raw() {
    return raw.clone();
  }

  /** The length of the raw bytes, without copying them. */
  public int rawLength() {
    return raw.length;
  }

  /** The raw bytes themselves, for the store: never modified, never handed out. */
  byte[] rawView() {
    return raw;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IncomingMessage m
        && Arrays.equals(raw, m.raw)
        && envelopeSender.equals(m.envelopeSender)
        && recipients.equals(m.recipients)
        && receivedAt.equals(m.receivedAt)
        && from.equals(m.from)
        && subject.equals(m.subject)
        && verdict.equals(m.verdict);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        Arrays.hashCode(raw), envelopeSender, recipients, receivedAt, from, subject, verdict);
  }

  /** A summary without the raw bytes, which may be large and hostile. */
  @Override
  public String toString() {
    return "IncomingMessage[" + raw.length + " bytes, to " + recipients + "]";
  }
}
