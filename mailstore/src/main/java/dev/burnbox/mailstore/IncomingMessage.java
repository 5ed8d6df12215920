package dev.burnbox.mailstore;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One message as the intake pipeline hands it to {@link InboxStore#deliver}: the raw bytes exactly
 * as received plus the envelope and the listing metadata the pipeline computed.
 *
 * <p>The constructor copies the raw bytes and {@link #raw()} returns a copy, so an instance is
 * immutable and thread-safe; {@link #handingOver} takes them without a copy from a caller that
 * drops its reference. Equality compares the bytes' contents and every other field.
 */
public final class IncomingMessage {
  private final byte[] raw;
  private final String envelopeSender;
  private final List<InboxName> recipients;
  private final Instant receivedAt;
  private final String from;
  private final String subject;
  private final SpamVerdict verdict;

  /**
   * @param raw the message exactly as received after DATA (headers and body); copied
   * @param envelopeSender the MAIL FROM address; empty for the null sender {@code <>}
   * @param recipients the inboxes to list it in; at least one (duplicates are delivered once)
   * @param receivedAt when the SMTP layer received it
   * @param from the decoded {@code From} header for display; empty if absent
   * @param subject the decoded {@code Subject} header for display; empty if absent
   * @param verdict the spam scan's verdict
   * @throws NullPointerException if any argument or recipient is null
   * @throws IllegalArgumentException if {@code recipients} is empty
   */
  public IncomingMessage(
      byte[] raw,
      String envelopeSender,
      List<InboxName> recipients,
      Instant receivedAt,
      String from,
      String subject,
      SpamVerdict verdict) {
    this(
        envelopeSender,
        recipients,
        receivedAt,
        from,
        subject,
        verdict,
        Objects.requireNonNull(raw, "raw").clone());
  }

  /** The fields as given, {@code owned} taken without a copy. */
  private IncomingMessage(
      String envelopeSender,
      List<InboxName> recipients,
      Instant receivedAt,
      String from,
      String subject,
      SpamVerdict verdict,
      byte[] owned) {
    this.raw = Objects.requireNonNull(owned, "raw");
    this.envelopeSender = Objects.requireNonNull(envelopeSender, "envelopeSender");
    this.recipients = List.copyOf(Objects.requireNonNull(recipients, "recipients"));
    if (this.recipients.isEmpty()) {
      throw new IllegalArgumentException("a message needs at least one recipient");
    }
    this.receivedAt = Objects.requireNonNull(receivedAt, "receivedAt");
    this.from = Objects.requireNonNull(from, "from");
    this.subject = Objects.requireNonNull(subject, "subject");
    this.verdict = Objects.requireNonNull(verdict, "verdict");
  }

  /**
   * As the constructor, but {@code raw} is taken as it is, without a copy: the caller hands it over
   * and must neither change it nor give it to anyone else afterwards. For the intake, which joins
   * each message into an array of its own (a copy of a 2 KB mail was about a tenth of what the
   * intake allocated for it).
   *
   * @throws NullPointerException if any argument or recipient is null
   * @throws IllegalArgumentException if {@code recipients} is empty
   */
  public static IncomingMessage handingOver(
      byte[] raw,
      String envelopeSender,
      List<InboxName> recipients,
      Instant receivedAt,
      String from,
      String subject,
      SpamVerdict verdict) {
    return new IncomingMessage(envelopeSender, recipients, receivedAt, from, subject, verdict, raw);
  }

  /** A copy of the raw bytes. */
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

  /** The MAIL FROM address; empty for the null sender {@code <>}. */
  public String envelopeSender() {
    return envelopeSender;
  }

  /** The inboxes to list it in, at least one; unmodifiable. */
  public List<InboxName> recipients() {
    return recipients;
  }

  /** When the SMTP layer received it. */
  public Instant receivedAt() {
    return receivedAt;
  }

  /** The decoded {@code From} header for display; empty if absent. */
  public String from() {
    return from;
  }

  /** The decoded {@code Subject} header for display; empty if absent. */
  public String subject() {
    return subject;
  }

  /** The spam scan's verdict. */
  public SpamVerdict verdict() {
    return verdict;
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
