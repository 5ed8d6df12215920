package dev.burnbox.server.smtp;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes held in memory against a capacity, published as a gauge: the intake's message content in
 * flight ({@link IntakeSettings#maxInflightBytes()}, {@code burnbox.smtp.inflight.bytes}) and the
 * web side's large messages being read ({@code burnbox.web.read.bytes}). A reservation either fits
 * whole or is refused; it never blocks, so the caller answers "try again" ({@code 452 4.3.1}, a
 * 503) instead of waiting. Thread-safe.
 */
public final class ByteBudget {
  private final long capacity;
  private final AtomicLong reserved = new AtomicLong();
  private final MeterRegistry registry;
  private final Gauge gauge;

  /** An empty budget of {@code capacity} bytes whose reserved bytes {@code gaugeName} shows. */
  public ByteBudget(long capacity, String gaugeName, String description, MeterRegistry registry) {
    this.capacity = capacity;
    this.registry = registry;
    this.gauge =
        Gauge.builder(gaugeName, reserved, AtomicLong::get)
            .description(description)
            .baseUnit("bytes")
            .strongReference(true)
            .register(registry);
  }

  /** Reserves {@code bytes} if they fit under the capacity; false (and nothing reserved) if not. */
  public boolean tryReserve(long bytes) {
    return tryReserve(bytes, false);
  }

  /**
   * Reserves {@code bytes} if they fit under the capacity or nothing is reserved now (so one
   * reservation larger than the capacity goes through alone); false (and nothing reserved) if not.
   */
  public boolean tryReserveOrAlone(long bytes) {
    return tryReserve(bytes, true);
  }

  private boolean tryReserve(long bytes, boolean aloneMayExceed) {
    long now;
    do {
      now = reserved.get();
      if (now + bytes > capacity && !(aloneMayExceed && now == 0)) {
        return false;
      }
    } while (!reserved.compareAndSet(now, now + bytes));
    return true;
  }

  /** Gives back bytes reserved earlier. */
  public void release(long bytes) {
    reserved.addAndGet(-bytes);
  }

  /** Bytes reserved now. */
  public long reserved() {
    return reserved.get();
  }

  /** Removes the gauge, so that a later owner on the same registry can publish its own. */
  public void unregister() {
    registry.remove(gauge);
  }
}
