package dev.burnbox.server.smtp;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A forgetting per-client-address message rate filter: each address gets a token bucket of {@code
 * perMinute} messages that refills continuously at {@code perMinute} per minute. An address not
 * seen for a minute has a full bucket again, so its entry is dropped from memory; at most {@value
 * #MAX_ADDRESSES} addresses are remembered (the least recently seen are forgotten first, which only
 * ever errs towards letting mail in). Thread-safe.
 */
final class MessageRateFilter {
  static final int MAX_ADDRESSES = 200_000;
  private static final long NANOS_PER_MINUTE = TimeUnit.MINUTES.toNanos(1);

  private final int perMinute;
  private final Ticker ticker;
  private final Cache<InetAddress, Bucket> buckets;

  /**
   * @param perMinute messages per minute per address; 0 lets everything through
   * @param ticker the clock (tests pass a fake one)
   */
  MessageRateFilter(int perMinute, Ticker ticker) {
    this.perMinute = perMinute;
    this.ticker = ticker;
    this.buckets =
        Caffeine.newBuilder()
            .ticker(ticker)
            .expireAfterAccess(Duration.ofMinutes(1))
            .maximumSize(MAX_ADDRESSES)
            .build();
  }

  /** Takes one message from {@code client}'s allowance; false if it has none left. */
  boolean tryAcquire(InetAddress client) {
    if (perMinute == 0) {
      return true;
    }
    return buckets.get(client, address -> new Bucket(perMinute, ticker.read())).take(ticker.read());
  }

  private final class Bucket {
    private double tokens;
    private long updatedNanos;

    Bucket(double tokens, long nowNanos) {
      this.tokens = tokens;
      this.updatedNanos = nowNanos;
    }

    synchronized boolean take(long nowNanos) {
      long elapsed = Math.max(0, nowNanos - updatedNanos);
      tokens = Math.min(perMinute, tokens + (double) elapsed * perMinute / NANOS_PER_MINUTE);
      updatedNanos = nowNanos;
      if (tokens < 1) {
        return false;
      }
      tokens -= 1;
      return true;
    }
  }
}
