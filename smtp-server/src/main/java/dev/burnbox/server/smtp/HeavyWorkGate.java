package dev.burnbox.server.smtp;

import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Lets at most {@code permits} large messages through the acceptor (decode, scan, store) at once;
 * small ones pass at once. Virtual threads are not preempted: with as many CPU-bound large messages
 * as the scheduler has carrier threads, every other session and every web request would wait for
 * one to finish. With one carrier fewer than that kept out of heavy work, honest small mail and the
 * web inbox stay responsive during a mail bomb. Waiters are served in arrival order. Thread-safe.
 */
final class HeavyWorkGate {
  /** Messages from this size up count as large. */
  static final int LARGE_MESSAGE_BYTES = 64 * 1024;

  private final Semaphore permits;

  HeavyWorkGate(int permits) {
    this.permits = new Semaphore(permits, true);
  }

  /** One fewer than the carrier threads of the virtual-thread scheduler, at least one. */
  static HeavyWorkGate forThisMachine() {
    int carriers =
        Integer.getInteger(
            "jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
    return new HeavyWorkGate(Math.max(1, carriers - 1));
  }

  /** Permits free now. */
  int permits() {
    return permits.availablePermits();
  }

  /**
   * Runs {@code work} for a message of {@code size} bytes, waiting for a permit first if it is
   * large.
   *
   * @throws InterruptedException if interrupted while waiting (the work did not run)
   */
  <T> T run(int size, Supplier<T> work) throws InterruptedException {
    if (size < LARGE_MESSAGE_BYTES) {
      return work.get();
    }
    permits.acquire();
    try {
      return work.get();
    } finally {
      permits.release();
    }
  }
}
