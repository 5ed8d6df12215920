package dev.burnbox.server;

import dev.burnbox.mailstore.InboxStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-encodes stored mail in its codec's compact form at rest ({@link InboxStore#settle}) on one
 * daemon thread, only while the rest of the service leaves the CPU idle: mail is compressed quickly
 * on its way in, and 99% of it is never read, so the slow, smaller form is made afterwards, when it
 * costs no one anything, and the same budget then holds more mail.
 *
 * <p>Policy: every {@link #PERIOD} it compares the process's CPU time with its own. If the rest of
 * the process used less than {@link #BUSY_SHARE} of the machine's cores over the last period, it
 * settles messages one at a time for at most half the next period; otherwise it waits. So it takes
 * at most a third of one core, and none while the intake is busy. With nothing left to settle it
 * costs one store call per period. The store's lock is held only to pick a message and to swap in
 * its new form; the encoding runs outside it. {@code burnbox_store_settled_messages_total} counts
 * the messages it has looked at.
 *
 * <p>Thread-safe: {@link #start} and {@link #close} from the service's thread.
 */
final class StoreSettler implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StoreSettler.class);

  /** How often the CPU is looked at, and twice the longest run of work. */
  static final Duration PERIOD = Duration.ofMillis(250);

  /** The share of the machine's cores the rest of the process may use for settling to go on. */
  static final double BUSY_SHARE = 0.25;

  // one message per call, so that the clock is read after each (the store re-encodes none that
  // takes more than about a tenth of a second)
  private static final int BATCH = 1;

  private final InboxStore store;
  private final Counter looked;
  private final Thread thread;
  private volatile boolean running = true;

  StoreSettler(InboxStore store, MeterRegistry registry) {
    this.store = store;
    this.looked =
        Counter.builder("burnbox.store.settled.messages")
            .description("Stored messages looked at to be re-encoded in the form at rest")
            .register(registry);
    this.thread = Thread.ofPlatform().daemon().name("burnbox-store-settler").unstarted(this::run);
    thread.setPriority(Thread.MIN_PRIORITY);
  }

  void start() {
    thread.start();
  }

  private void run() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    int cores = Runtime.getRuntime().availableProcessors();
    long lastProcess = os.getProcessCpuTime();
    long lastOwn = threads.getCurrentThreadCpuTime();
    long lastWall = System.nanoTime();
    long settled = 0;
    try {
      while (running) {
        Thread.sleep(PERIOD);
        long process = os.getProcessCpuTime();
        long own = threads.getCurrentThreadCpuTime();
        long wall = System.nanoTime();
        double othersCores =
            ((process - lastProcess) - (own - lastOwn)) / (double) (wall - lastWall);
        lastProcess = process;
        lastOwn = own;
        lastWall = wall;
        if (othersCores > BUSY_SHARE * cores) {
          continue;
        }
        long until = wall + PERIOD.toNanos() / 2;
        try {
          while (running && System.nanoTime() < until) {
            int n = store.settle(BATCH);
            looked.increment(n);
            settled += n;
            if (n < BATCH) {
              if (settled > 0) {
                log.debug("settled {} messages; nothing left for now", settled);
                settled = 0;
              }
              break;
            }
          }
        } catch (RuntimeException e) { // a store bug: say so, and go on with the next messages
          log.error("settling stored mail failed", e);
        }
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  /**
   * Stops the thread, waiting for the message in hand (a few milliseconds). Idempotent; does
   * nothing if never started (a service whose start failed closes what it built).
   */
  @Override
  public void close() {
    running = false;
    if (thread.getState() == Thread.State.NEW) {
      return;
    }
    thread.interrupt();
    try {
      thread.join(Duration.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
