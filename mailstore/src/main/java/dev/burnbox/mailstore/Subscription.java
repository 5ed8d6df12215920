package dev.burnbox.mailstore;

/** A listener's registration with {@link InboxStore#subscribe}; closing it unsubscribes. */
public interface Subscription extends AutoCloseable {
  /**
   * Stops events to this listener. Idempotent and thread-safe; an event already being delivered may
   * still arrive.
   */
  @Override
  void close();
}
