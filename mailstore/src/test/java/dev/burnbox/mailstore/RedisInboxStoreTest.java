package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The shared contract, run against {@link RedisInboxStore} on a real redis-server, with the store's
 * counters and reference counts checked against the keys after every test.
 */
class RedisInboxStoreTest extends InboxStoreContractTest {
  private static final AtomicInteger STORES = new AtomicInteger();
  private static RedisServerProcess redis;

  private final List<InboxStore> opened = new ArrayList<>();
  private final Map<InboxStore, String> prefixes = new HashMap<>();

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisServerProcess.start();
  }

  @AfterAll
  static void stopRedis() throws Exception {
    if (redis != null) {
      redis.stop();
    }
  }

  @Override
  InboxStore newStore(Limits limits, InstantSource clock) {
    String prefix = "t" + STORES.incrementAndGet();
    InboxStore store =
        InboxStore.redis(redis.url())
            .keyPrefix(prefix)
            .inboxCap(limits.inboxCap())
            .maxBytes(limits.maxBytes())
            .ttl(limits.ttl())
            .stripPlusTags(limits.stripPlusTags())
            .clock(clock)
            .build();
    opened.add(store);
    prefixes.put(store, prefix);
    return store;
  }

  @AfterEach
  void closeStores() {
    opened.forEach(InboxStore::close);
  }

  /**
   * Recounts the store from its keys: entries, inboxes, each piece's reference count, raw and
   * stored bytes must equal the counters the scripts keep.
   */
  @Override
  void checkInvariants(InboxStore store) {
    String p = prefixes.get(store);
    try (Jedis jedis = redis.connect()) {
      Map<String, Long> refs = new HashMap<>();
      long entryCost = 0;
      List<String> entries = scan(jedis, p + ":m:*");
      for (String key : entries) {
        Map<String, String> e = jedis.hgetAll(key);
        entryCost += Long.parseLong(e.get("c"));
        for (String sha : e.get("p").split(" ")) {
          refs.merge(sha, 1L, Long::sum);
        }
        String id = key.substring((p + ":m:").length());
        assertThat(jedis.zscore(p + ":{" + e.get("i") + "}", id)).as("listed " + id).isNotNull();
      }
      long raw = 0;
      long pieceCost = 0;
      List<String> pieces = scan(jedis, p + ":b:*");
      for (String key : pieces) {
        Map<String, String> b = jedis.hgetAll(key);
        String sha = key.substring((p + ":b:").length());
        assertThat(Long.parseLong(b.get("r"))).as("refs of " + sha).isEqualTo(refs.get(sha));
        raw += Long.parseLong(b.get("n"));
        pieceCost += Long.parseLong(b.get("c"));
      }
      assertThat(pieces).hasSameSizeAs(refs.keySet());
      Map<String, String> counters = jedis.hgetAll(p + ":s");
      assertThat(counter(counters, "messages")).isEqualTo(entries.size());
      assertThat(jedis.zcard(p + ":q")).isEqualTo(entries.size());
      assertThat(counter(counters, "inboxes")).isEqualTo(scan(jedis, p + ":{*}").size());
      assertThat(counter(counters, "raw")).isEqualTo(raw);
      assertThat(counter(counters, "stored")).isEqualTo(entryCost + pieceCost);
    }
  }

  private static long counter(Map<String, String> counters, String name) {
    return Long.parseLong(counters.getOrDefault(name, "0"));
  }

  private static List<String> scan(Jedis jedis, String pattern) {
    List<String> keys = new ArrayList<>();
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = jedis.scan(cursor, new ScanParams().match(pattern).count(1000));
      keys.addAll(page.getResult());
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return keys;
  }

  static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }
}
