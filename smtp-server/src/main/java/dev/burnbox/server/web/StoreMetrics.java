package dev.burnbox.server.web;

import dev.burnbox.mailstore.EvictionCause;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.StoreStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToDoubleFunction;

/**
 * Publishes an {@link InboxStore}'s {@link dev.burnbox.mailstore.StoreStats} as metrics: gauges
 * {@code burnbox.store.messages}, {@code .inboxes}, the byte counts {@code .logical.bytes}, {@code
 * .distinct.bytes}, {@code .message.bytes}, {@code .index.bytes}, {@code .codec.bytes} and {@code
 * .stored.bytes} (their documented sum), and the counters {@code burnbox.store.entries.delivered},
 * {@code burnbox.store.evictions} tagged by {@code cause} and {@code burnbox.store.deletions},
 * which add up: entries delivered less evictions and deletions are {@code burnbox.store.messages}.
 * Values are read from the store when the registry is scraped, once per scrape (a result or failure
 * is reused for {@value #STATS_REUSE_MILLIS} ms from the end of the read, so a scrape costs a Redis
 * store one stats read, and a frozen Redis one timeout, not one per meter); while the store is
 * unavailable the gauges read NaN.
 *
 * <p>The counters follow the store's counts, which a Redis store keeps in Redis: they grow as those
 * grow, keep their value while the store cannot be read, and count on from there when the counts
 * start again from 0 (Redis restarted without its data), so they never read NaN and never go down,
 * as a Prometheus counter must not. What was counted between their last read and such a restart is
 * missed, and the entries lost with Redis's data stay counted, so the counters then add up to more
 * than {@code burnbox.store.messages}. Likewise an entry that a delivery wrote and took back when
 * another partition refused it stays counted as delivered if a scrape saw it in between.
 * Thread-safe.
 *
 * <p>Micrometer holds a meter's object weakly unless told otherwise: the gauges hold this object
 * strongly, so the registry keeps it (and the eviction counters, which can only hold it weakly)
 * alive for as long as the registry lives; the owner keeps a reference too.
 */
public final class StoreMetrics implements MeterBinder {
  static final long STATS_REUSE_MILLIS = 200;

  private final InboxStore store;
  private final ReentrantLock statsLock = new ReentrantLock(); // not synchronized: never pins
  private long statsReadAt = Long.MIN_VALUE; // System.nanoTime() at the end of the last read
  private StoreStats lastStats; // guarded by statsLock; null if the last read failed
  private RuntimeException lastFailure; // guarded by statsLock

  /**
   * A counter's value that follows a count read from the store: it grows by what the count grew
   * since the last read and ignores a count that went down or could not be read. Guarded by {@link
   * #statsLock}.
   */
  private static final class RunningTotal {
    private double lastRead;
    private double value;

    double follow(double read) {
      if (!Double.isNaN(read)) {
        value += Math.max(0, read - lastRead);
        lastRead = read;
      }
      return value;
    }
  }

  /** Metrics of {@code store}. */
  public StoreMetrics(InboxStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * The store's stats, read again only {@link #STATS_REUSE_MILLIS} after the last read ended: a
   * read that took the whole timeout serves every meter of its scrape (counted from its start, each
   * meter read afresh and waited again).
   */
  private StoreStats stats() {
    statsLock.lock();
    try {
      if (statsReadAt == Long.MIN_VALUE
          || System.nanoTime() - statsReadAt > STATS_REUSE_MILLIS * 1_000_000) {
        try {
          lastStats = store.stats();
          lastFailure = null;
        } catch (RuntimeException e) {
          lastStats = null;
          lastFailure = e;
        }
        statsReadAt = System.nanoTime();
      }
      if (lastFailure != null) {
        throw lastFailure;
      }
      return lastStats;
    } finally {
      statsLock.unlock();
    }
  }

  /**
   * {@code figure} of the store's stats, or NaN while the store is unavailable: a failing meter
   * would fail the whole scrape, and the other metrics (refusals above all) matter most then.
   */
  private double read(ToDoubleFunction<StoreStats> figure) {
    try {
      return figure.applyAsDouble(stats());
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }

  /** {@code figure} of the store's stats as a counter's value: see the type's description. */
  private double count(RunningTotal total, ToDoubleFunction<StoreStats> figure) {
    double read = read(figure);
    statsLock.lock();
    try {
      return total.follow(read);
    } finally {
      statsLock.unlock();
    }
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    gauge(registry, "burnbox.store.messages", "inbox entries held", StoreStats::messages);
    gauge(registry, "burnbox.store.inboxes", "inboxes holding mail", StoreStats::inboxes);
    gauge(
        registry,
        "burnbox.store.logical.bytes",
        "raw size of every held copy, as received",
        StoreStats::logicalBytes);
    gauge(
        registry,
        "burnbox.store.distinct.bytes",
        "raw size of the distinct pieces held, each once",
        StoreStats::distinctBytes);
    gauge(
        registry,
        "burnbox.store.message.bytes",
        "stored (compressed) size of the distinct pieces",
        StoreStats::messageBytes);
    gauge(
        registry,
        "burnbox.store.index.bytes",
        "estimated bookkeeping: entries, deliveries, piece keys, inboxes",
        StoreStats::indexBytes);
    gauge(
        registry,
        "burnbox.store.cache.bytes",
        "decoded mail kept for reads and near-duplicates (bounded)",
        StoreStats::cacheBytes);
    gauge(
        registry,
        "burnbox.store.codec.bytes",
        "compression's own heap: dictionaries, sample reservoir",
        StoreStats::codecBytes);
    gauge(
        registry,
        "burnbox.store.stored.bytes",
        "what the byte budget counts: message + index + cache + codec bytes",
        StoreStats::storedBytes);
    counter(
            "burnbox.store.entries.delivered",
            "inbox entries delivered, one per inbox a message reached (a snapshot's restored"
                + " entries included); less evictions and deletions, burnbox_store_messages (the"
                + " store's count, like the evictions')",
            StoreStats::entriesDelivered)
        .register(registry);
    for (EvictionCause cause : EvictionCause.values()) {
      counter(
              "burnbox.store.evictions",
              "entries the store's limits evicted, by cause (the store's count, shared by every"
                  + " node on Redis; kept while it cannot be read, never decreasing)",
              s -> s.evictions().get(cause))
          .tag("cause", cause.name().toLowerCase(Locale.ROOT))
          .register(registry);
    }
    counter(
            "burnbox.store.deletions",
            "entries deleted through the API or the pages, not evictions (the store's count, like"
                + " the evictions')",
            StoreStats::deletions)
        .register(registry);
  }

  private FunctionCounter.Builder<StoreMetrics> counter(
      String name, String description, ToDoubleFunction<StoreStats> figure) {
    RunningTotal total = new RunningTotal();
    return FunctionCounter.builder(name, this, m -> m.count(total, figure))
        .description(description);
  }

  private void gauge(
      MeterRegistry registry, String name, String description, ToDoubleFunction<StoreStats> f) {
    Gauge.builder(name, this, m -> m.read(f))
        .description(description)
        .strongReference(true)
        .register(registry);
  }
}
