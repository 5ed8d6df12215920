package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.mailstore.DeliveryResult;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.IncomingMessage;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.RedisServerProcess;
import dev.burnbox.mailstore.SpamVerdict;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    redisStore = InboxStore.redis(redis.url()).redisTimeout(TIMEOUT).inboxCap(1).build();
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

  @Test
  void theStoreCountersKeepTheirValueInAnOutageAndCountOnWhenRedisRestartsEmpty() throws Exception {
    deliver("a"); // the inbox holds one: each later delivery evicts one
    deliver("a");
    MessageId last = deliver("a");
    assertThat(store.delete(last)).isTrue();
    assertCounters(2, 1);

    redis.stop();
    assertCounters(2, 1); // not NaN

    redis.restart(); // without persistence: Redis's counts start again from 0
    MessageId again = deliver("b");
    deliver("b");
    assertThat(store.delete(again)).isFalse(); // evicted by the second
    assertCounters(2, 1); // one eviction in Redis now: the counter stays, not down to 1
    deliver("b");
    assertCounters(3, 1); // Redis counts 2 evictions now: 1 more than at the last read
    assertThat(store.delete(deliver("c"))).isTrue();
    assertCounters(3, 2); // Redis counts its first deletion: 1 more than at the last read
  }

  private MessageId deliver(String inbox) {
    InboxName name = InboxName.of(inbox);
    var message =
        new IncomingMessage(
            "Subject: counted\r\n\r\nbody\r\n".getBytes(StandardCharsets.UTF_8),
            "sender@example.net",
            List.of(name),
            Instant.now(),
            "sender@example.net",
            "counted",
            SpamVerdict.CLEAN);
    return ((DeliveryResult.Delivered) store.deliver(message)).ids().get(name);
  }

  /** Scrapes, past the reuse of the last stats read, and checks the store's counters. */
  private void assertCounters(double capEvictions, double deletions) throws InterruptedException {
    Thread.sleep(StoreMetrics.STATS_REUSE_MILLIS + 50);
    String scrape = registry.scrape();
    assertThat(sample(scrape, "burnbox_store_evictions_total{cause=\"inbox_cap\"}"))
        .as("inbox cap evictions")
        .isEqualTo(capEvictions);
    assertThat(sample(scrape, "burnbox_store_deletions_total"))
        .as("deletions")
        .isEqualTo(deletions);
  }

  private static double sample(String scrape, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
    assertThat(m.find()).as("%s in%n%s", series, scrape).isTrue();
    return Double.parseDouble(m.group(1));
  }
}
