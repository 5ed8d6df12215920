package dev.burnbox.server;

import dev.burnbox.server.web.WebServer;
import java.util.Optional;

/**
 * What the configured limits let the service hold in the heap at worst, against the heap it has:
 * the store's budget, the SMTP in-flight byte budget, and every allowed connection's own buffers
 * and stack. The service cannot bound what a session costs SubEtha (its buffered reader and writer)
 * and the JVM (the virtual thread's stack), so {@code --max-connections} must fit the heap; {@link
 * #warning} says so at start when it does not. Immutable.
 *
 * @param storeBytes {@code --store-max-bytes} of the memory store; 0 for the Redis store, which
 *     keeps its mail in Redis, not in the heap
 * @param inflightBytes {@code --max-inflight-bytes}
 * @param maxConnections {@code --max-connections}
 * @param heapBytes the JVM's maximum heap
 */
record MemoryPlan(long storeBytes, long inflightBytes, int maxConnections, long heapBytes) {

  /**
   * Heap one open SMTP session holds before any message content, measured with a class histogram of
   * 1,500 idle sessions (SubEtha's 8 KiB-char writer and reader buffers, the input buffer, the
   * virtual thread's stack), rounded up.
   */
  static final long SESSION_BYTES = 48 * 1024;

  /**
   * What the rest of the service (web server, metrics, matcher, codec) needs besides, rounded, not
   * counting the web's budget of large messages being read ({@link #baseBytes}).
   */
  static final long OTHER_BYTES = 32L << 20;

  /**
   * What the service needs besides the store, the in-flight bytes and the sessions in a heap of
   * {@code heapBytes}: {@link #OTHER_BYTES} and the web's read budget ({@link
   * WebServer#readBudgetBytes}: 16 MiB in {@code -Xmx1g}, 32 MiB in {@code -Xmx2g}).
   */
  static long baseBytes(long heapBytes) {
    return OTHER_BYTES + WebServer.readBudgetBytes(heapBytes);
  }

  static MemoryPlan of(ServiceSettings settings) {
    return new MemoryPlan(
        settings.store().store() == StoreSettings.StoreKind.MEMORY
            ? settings.store().storeMaxBytes()
            : 0,
        settings.smtp().maxInflightBytes(),
        settings.smtp().maxConnections(),
        Runtime.getRuntime().maxMemory());
  }

  /** The least store budget {@link #storeBudget} gives, whatever the heap. */
  static final long MIN_STORE_BYTES = 32L << 20;

  /**
   * The memory store's budget when {@code --store-max-bytes} is {@code auto}: what leaves the worst
   * case of every limit ({@link #worstCaseBytes}: this budget, {@link #baseBytes}, the in-flight
   * budget, {@link #SESSION_BYTES} per allowed connection) at three quarters of the heap, at least
   * {@link #MIN_STORE_BYTES}. The last quarter is the collector's room beside live data (the
   * store's estimate errs on the large side besides): 866 MiB in {@code -Xmx2g} with the default
   * limits (a quarter of the heap in flight), room for 1,000,000 mails of the store bench's
   * workload (docs/benchmarks.md, "Inbox store").
   */
  static long storeBudget(long inflightBytes, int maxConnections, long heapBytes) {
    long rest = baseBytes(heapBytes) + inflightBytes + maxConnections * SESSION_BYTES;
    return Math.max(MIN_STORE_BYTES, heapBytes / 4 * 3 - rest);
  }

  /** The worst case the limits allow. */
  long worstCaseBytes() {
    return baseBytes(heapBytes) + storeBytes + inflightBytes + maxConnections * SESSION_BYTES;
  }

  /** A line for the log if the worst case does not fit the heap. */
  Optional<String> warning() {
    if (worstCaseBytes() <= heapBytes) {
      return Optional.empty();
    }
    long mib = 1 << 20;
    return Optional.of(
        ("the limits allow more than the heap holds: store %d MiB + in flight %d MiB + %d"
                + " connections x %d KiB + %d MiB for the rest = %d MiB > heap %d MiB; lower"
                + " --max-connections, --store-max-bytes or --max-inflight-bytes, or raise -Xmx")
            .formatted(
                storeBytes / mib,
                inflightBytes / mib,
                maxConnections,
                SESSION_BYTES / 1024,
                baseBytes(heapBytes) / mib,
                worstCaseBytes() / mib,
                heapBytes / mib));
  }
}
