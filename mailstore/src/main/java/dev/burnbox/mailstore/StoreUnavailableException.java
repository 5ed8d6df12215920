package dev.burnbox.mailstore;

/**
 * A store that keeps its data elsewhere (Redis) could not reach it in time: the operation had no
 * effect that the caller can rely on, and trying again later may succeed. The web layer answers it
 * with 503; {@link InboxStore#deliver} never throws it but answers {@link
 * RefusalReason#STORE_UNAVAILABLE} instead.
 */
public final class StoreUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An exception with a message safe to show to users and log. */
  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
