package dev.burnbox.server.web;

import dev.burnbox.mailstore.EvictionCause;
import dev.burnbox.mailstore.InboxStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Publishes an {@link InboxStore}'s {@link dev.burnbox.mailstore.StoreStats} as metrics: gauges
 * {@code burnbox.store.messages}, {@code .inboxes}, {@code .raw.bytes}, {@code .stored.bytes} and
 * the counter {@code burnbox.store.evictions} tagged by {@code cause}. Values are read from the
 * store when the registry is scraped. Thread-safe.
 */
public final class StoreMetrics implements MeterBinder {
  private final InboxStore store;

  /** Metrics of {@code store}. */
  public StoreMetrics(InboxStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    gauge(registry, "burnbox.store.messages", "inbox entries held", s -> s.stats().messages());
    gauge(registry, "burnbox.store.inboxes", "inboxes holding mail", s -> s.stats().inboxes());
    gauge(
        registry,
        "burnbox.store.raw.bytes",
        "raw size of the distinct bodies held",
        s -> s.stats().rawBytes());
    gauge(
        registry,
        "burnbox.store.stored.bytes",
        "bytes the store's budget counts",
        s -> s.stats().storedBytes());
    for (EvictionCause cause : EvictionCause.values()) {
      FunctionCounter.builder(
              "burnbox.store.evictions", store, s -> s.stats().evictions().get(cause))
          .description("entries evicted, by cause")
          .tag("cause", cause.name().toLowerCase(Locale.ROOT))
          .register(registry);
    }
  }

  private void gauge(
      MeterRegistry registry, String name, String description, ToDoubleFunction<InboxStore> f) {
    Gauge.builder(name, store, f).description(description).register(registry);
  }
}
