package dev.burnbox.mailstore;

import java.util.List;
import java.util.Objects;

/**
 * One delivery as a snapshot keeps it ({@link InboxStore#deliveries()}, {@link
 * InboxStore#restore}): its message, whose recipients are the inboxes of its live entries in
 * delivery order, the ids of those entries, and when it was stored. Immutable.
 *
 * @param message the message, with the raw bytes as received
 * @param ids each recipient inbox's entry id, in the order of {@code message.recipients()}
 * @param storedAtMillis when the store took it, in epoch milliseconds (expiry counts from here)
 */
public record StoredDelivery(IncomingMessage message, List<MessageId> ids, long storedAtMillis) {
  /**
   * @throws NullPointerException if the message or the ids are null
   */
  public StoredDelivery {
    Objects.requireNonNull(message, "message");
    ids = List.copyOf(ids);
  }
}
