package dev.burnbox.server.pipeline;

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
   * @param ids by recipient address, in the envelope's order, the id of the inbox copy its mail
   *     became (addresses that led to one inbox share its id)
   */
  void delivered(Envelope envelope, Map<String, MessageId> ids);
}
