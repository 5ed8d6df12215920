package dev.burnbox.server.smtp;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of message content all SMTP sessions together may hold in memory while messages arrive
 * and are handed on ({@link IntakeSettings#maxInflightBytes()}). A reservation either fits whole or
 * is refused; it never blocks, so a session that cannot reserve answers {@code 452 4.3.1} instead
 * of waiting. Publishes {@code burnbox.smtp.inflight.bytes}. Thread-safe.
 */
final class InflightBudget {
  private final long capacity;
  private final AtomicLong reserved = new AtomicLong();
  private final MeterRegistry registry;
  private final Gauge gauge;

  InflightBudget(long capacity, MeterRegistry registry) {
    this.capacity = capacity;
    this.registry = registry;
    this.gauge =
        Gauge.builder("burnbox.smtp.inflight.bytes", reserved, AtomicLong::get)
            .description("message content bytes held in memory by SMTP sessions now")
            .baseUnit("bytes")
            .strongReference(true)
            .register(registry);
  }

  /** Reserves {@code bytes} if they fit under the capacity; false (and nothing reserved) if not. */
  boolean tryReserve(long bytes) {
    long now;
    do {
      now = reserved.get();
      if (now + bytes > capacity) {
        return false;
      }
    } while (!reserved.compareAndSet(now, now + bytes));
    return true;
  }

  /** Gives back bytes reserved earlier. */
  void release(long bytes) {
    reserved.addAndGet(-bytes);
  }

  /** Bytes reserved now. */
  long reserved() {
    return reserved.get();
  }

  /** Removes the gauge, so that a later intake on the same registry can publish its own. */
  void unregister() {
    registry.remove(gauge);
  }
}
