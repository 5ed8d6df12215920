package dev.burnbox.mailstore;

/**
 * Why a store refused a message, so that the SMTP layer can answer with the right reply. Every
 * refusal means nothing of the message was stored.
 */
public enum RefusalReason {
  /**
   * The message alone, stored and indexed, is larger than the store's whole byte budget: it can
   * never fit, however much is evicted. Permanent for this message ({@code 552 5.3.4}); a sender
   * should not retry it unchanged.
   */
  TOO_LARGE_FOR_STORE
}
