package dev.burnbox.mailstore;

import java.util.Objects;

/**
 * One message read back from a store: its listing metadata plus the raw bytes exactly as received.
 *
 * <p>Immutable and thread-safe: {@link #raw()} returns a fresh copy on every call.
 */
public final class StoredMessage {
  private final MessageSummary summary;
  private final byte[] raw;

  /** Takes ownership of {@code raw}: the caller must not keep or modify it. */
  StoredMessage(MessageSummary summary, byte[] raw) {
    this.summary = Objects.requireNonNull(summary, "summary");
    this.raw = Objects.requireNonNull(raw, "raw");
  }

  /** The listing metadata. */
  public MessageSummary summary() {
    return summary;
  }

  /** This entry's id. */
  public MessageId id() {
    return summary.id();
  }

  /** A copy of the raw bytes, exactly as received. */
  public byte[] raw() {
    return raw.clone();
  }

  /** The raw size in bytes. */
  public int size() {
    return raw.length;
  }

  @Override
  public String toString() {
    return "StoredMessage[" + summary.id() + ", " + raw.length + " bytes]";
  }
}
