package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.RedisServerProcess;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store's meters on a real Redis store and a real redis-server, which the tests freeze and
 * restart: what a Prometheus scrape reads while Redis is frozen or gone.
 */
@Timeout(60)
class StoreMetricsTest {
  private static final Duration TIMEOUT = Duration.ofMillis(300);

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicInteger statsReads = new AtomicInteger();
  private RedisServerProcess redis;
  private InboxStore redisStore;
  private InboxStore store; // redisStore, counting its stats reads

  @BeforeEach
  void start() throws Exception {
    redis = RedisServerProcess.start();
    redisStore = InboxStore.redis(redis.url()).redisTimeout(TIMEOUT).build();
    store = countingStatsReads(redisStore);
    new StoreMetrics(store).bindTo(registry);
  }

  @AfterEach
  void stop() throws Exception {
    if (redisStore != null) {
      redisStore.close();
    }
    if (redis != null) {
      redis.stop();
    }
  }

  /** {@code target}, counting its {@link InboxStore#stats} calls in {@link #statsReads}. */
  private InboxStore countingStatsReads(InboxStore target) {
    return (InboxStore)
        Proxy.newProxyInstance(
            InboxStore.class.getClassLoader(),
            new Class<?>[] {InboxStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("stats")) {
                statsReads.incrementAndGet();
              }
              try {
                return method.invoke(target, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void aScrapeWhileRedisIsFrozenReadsTheStoreOnceForEveryStoreMeter() throws Exception {
    redis.pause();
    String scrape;
    try {
      scrape = registry.scrape();
    } finally {
      redis.resume();
    }
    // each read waits for the timeout, longer than the reuse; read again per meter, it was 12
    assertThat(statsReads).as("stats reads in one scrape").hasValue(1);
    assertThat(scrape).contains("burnbox_store_messages NaN").contains("burnbox_store_inboxes NaN");
  }
}
