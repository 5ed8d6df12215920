package dev.burnbox.server.smtp;

import java.util.concurrent.TimeUnit;

/**
 * A log budget of one line per window, for messages a hostile client can trigger at will
 * (refusals): {@link #admit} says whether to log now and how many lines were left out since the
 * last one. Thread-safe.
 */
public final class LogWindow {
  private final long windowNanos;
  private long lastLoggedNanos;
  private boolean loggedBefore;
  private long suppressed;

  /** A budget of one line per {@code seconds}. */
  public LogWindow(long seconds) {
    this.windowNanos = TimeUnit.SECONDS.toNanos(seconds);
  }

  /**
   * Asks to log one line at {@code nowNanos} ({@link System#nanoTime()} or a test clock).
   *
   * @return the number of lines suppressed since the last one logged if this one may be logged,
   *     else -1 (and this line is counted as suppressed)
   */
  public synchronized long admit(long nowNanos) {
    if (loggedBefore && nowNanos - lastLoggedNanos < windowNanos) {
      suppressed++;
      return -1;
    }
    long count = suppressed;
    suppressed = 0;
    loggedBefore = true;
    lastLoggedNanos = nowNanos;
    return count;
  }
}
