package dev.burnbox.mailstore;

/**
 * Why a store refused a message, so that the SMTP layer can answer with the right reply. Every
 * refusal means nothing of the message was stored, except as {@link #STORE_UNAVAILABLE} says.
 */
public enum RefusalReason {
  /**
   * The message alone, stored and indexed, is larger than the store's whole byte budget: it can
   * never fit, however much is evicted. Permanent for this message ({@code 552 5.3.4}); a sender
   * should not retry it unchanged.
   */
  TOO_LARGE_FOR_STORE,

  /**
   * The store's backing service (Redis) did not answer in time. Temporary ({@code 451 4.3.0}): the
   * sender keeps the message and retries. The one refusal after which the message may have been
   * stored after all (Redis ran the delivery but its answer timed out; or, on a Redis store in
   * several partitions, one partition took it, another failed, and undoing the first failed too),
   * so a retry can list it twice; SMTP senders already expect that of a 4xx.
   */
  STORE_UNAVAILABLE
}
