package dev.burnbox.server.pipeline;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.server.smtp.Envelope;
import java.util.Map;

/**
 * Told of each message this node's pipeline delivered to the store, after the store said delivered
 * and before the 250 is sent. Runs on the SMTP session's thread: it must only hand the event on (to
 * a bounded queue) and never block or throw; the webhooks are one.
 */
@FunctionalInterface
public interface DeliveryListener {
  /** Does nothing. */
  DeliveryListener NONE = (envelope, ids) -> {};

  /**
   * @param envelope the SMTP envelope (its recipients are the addresses the mail was sent to)
   * @param ids the new entry's id in each recipient inbox, as {@code DeliveryResult.Delivered} has
   *     them
   */
  void delivered(Envelope envelope, Map<InboxName, MessageId> ids);
}
