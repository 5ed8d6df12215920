package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The shared contract, run against {@link RedisInboxStore} on a real redis-server, with the store's
 * counters and reference counts checked against the keys of every partition after every test. The
 * stores have {@value #PARTITIONS} partitions: enough that deliveries span several, few enough that
 * the contract's small byte budgets (16 KiB) still hold a message in each share.
 */
class RedisInboxStoreTest extends InboxStoreContractTest {
  static final int PARTITIONS = 4;

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
            .redisPartitions(PARTITIONS)
            .build();
    opened.add(store);
    prefixes.put(store, prefix);
    return store;
  }

  @AfterEach
  void closeStores() {
    opened.forEach(InboxStore::close);
  }

  @Override
  int partitions() {
    return PARTITIONS;
  }

  @Override
  int partitionOf(InboxName inbox) {
    return RedisInboxStore.partitionOf(inbox, PARTITIONS);
  }

  @Override
  void checkInvariants(InboxStore store) {
    try (Jedis jedis = redis.connect()) {
      RedisStoreKeys.checkInvariants(List.of(jedis), prefixes.get(store));
    }
  }

  @Test
  void onlyPlainRedisUrlsAreAccepted() {
    for (String url :
        List.of(
            "redis://:secret@127.0.0.1:6379",
            "redis://127.0.0.1:6379/2",
            "rediss://127.0.0.1:6379",
            "http://127.0.0.1:6379",
            "redis://127.0.0.1:6379?timeout=1",
            "redis://127.0.0.1:6379,127.0.0.1:6380",
            "redis-cluster://127.0.0.1:6379,,127.0.0.1:6380",
            "redis-cluster://127.0.0.1:70000",
            "redis-cluster://:secret@127.0.0.1:6379")) {
      assertThatThrownBy(() -> InboxStore.redis(URI.create(url)).build())
          .as(url)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("redis://host:port");
    }
    InboxStore.redis(URI.create("redis://localhost")).build().close(); // port 6379, no connection
    InboxStore.redis(URI.create("redis-cluster://localhost,127.0.0.1:7001")).build().close();
  }

  @Test
  void aUrlIsRefusedWhenGivenWithItsPasswordHidden() {
    assertThatThrownBy(
            () ->
                InboxStore.builder().redisUrl(URI.create("redis://user:Hunter2pw@127.0.0.1:6390")))
        .as("refused by the builder, before any build")
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("got redis://user:(hidden)@127.0.0.1:6390")
        .hasMessageNotContaining("Hunter2pw");
    assertThatThrownBy(
            () ->
                InboxStore.redis(URI.create("redis-cluster://:s3cret@10.0.0.1:7000,10.0.0.2:7000")))
        .hasMessageEndingWith("got redis-cluster://:(hidden)@10.0.0.1:7000,10.0.0.2:7000");
    assertThatThrownBy(() -> InboxStore.redis(URI.create("redis://alice@127.0.0.1:6390")))
        .as("a user without a password is no secret")
        .hasMessageEndingWith("got redis://alice@127.0.0.1:6390");
  }

  @Test
  void onePartitionDeduplicatesStoreWideAndSeveralStoreABodyOncePerPartitionReached() {
    byte[] body = randomBytes(11, 20_000);
    String[] to = {"a", "b", "c", "d", "e", "f"};
    for (int partitions : new int[] {1, 16}) {
      String prefix = "dedup" + partitions;
      InboxStore store =
          InboxStore.redis(redis.url()).keyPrefix(prefix).redisPartitions(partitions).build();
      opened.add(store);
      assertThat(delivered(store.deliver(message(body, "s", to)))).hasSize(to.length);
      long reached =
          Arrays.stream(to)
              .mapToInt(n -> RedisInboxStore.partitionOf(inbox(n), partitions))
              .distinct()
              .count();
      assertThat(reached).isEqualTo(partitions == 1 ? 1 : 5); // fixed by the hash
      assertThat(store.stats().distinctBytes())
          .as("%d partitions", partitions)
          .isEqualTo(reached * 20_000);
      try (Jedis jedis = redis.connect()) {
        assertThat(RedisStoreKeys.checkInvariants(List.of(jedis), prefix)).hasSize((int) reached);
      }
    }
  }

  @Test
  void aMessageOverOnePartitionsShareIsRefusedBeforeAnyPartitionIsWritten() {
    // 64 KiB over 4 partitions: 16 KiB each, so 20 KB of random bytes never fits
    InboxStore store = store(Limits.defaults().withMaxBytes(64 * 1024));
    DeliveryResult result = store.deliver(message(randomBytes(12, 20_000), "big", "a", "b", "c"));
    assertThat(result).isInstanceOf(DeliveryResult.Refused.class);
    assertThat(((DeliveryResult.Refused) result).reason())
        .isEqualTo(RefusalReason.TOO_LARGE_FOR_STORE);
    assertThat(((DeliveryResult.Refused) result).detail())
        .contains("the budget of one partition, 16384 (the store's 65536 over 4 partitions)");
    assertThat(store.stats().messages()).isZero();
  }

  /** Mail-like text: words, lines, a unique header block; zstd shrinks it about 3 to 4 times. */
  private static IncomingMessage textMail(int i, Random random) {
    String[] words = {
      "hello", "prize", "meeting", "tomorrow", "invoice", "attached", "please", "review", "the",
      "offer", "limited", "time", "click", "here", "regards", "account", "update", "secure"
    };
    StringBuilder text =
        new StringBuilder(
            "From: a@b.test\r\nSubject: note " + i + "\r\nMessage-ID: <" + i + "@b>\r\n\r\n");
    while (text.length() < 5000) {
      text.append(words[random.nextInt(words.length)])
          .append(random.nextInt(15) == 0 ? "\r\n" : " ");
    }
    return message(text.toString().getBytes(UTF_8), "note " + i, "box" + (i % 200));
  }

  @Test
  void theByteBudgetEstimateCoversWhatRedisReallyUses() {
    // the budget counts an estimate of Redis memory; measured with used_memory it must not fall
    // short (Redis would then need more than the maxmemory the Javadoc recommends) nor be far over
    InboxStore store = store(Limits.defaults().withInboxCap(1000));
    long estimateBefore = store.stats().storedBytes();
    long usedBefore;
    try (Jedis jedis = redis.connect()) {
      usedBefore = usedMemory(jedis);
    }
    Random random = new Random(8);
    for (int i = 0; i < 2000; i++) {
      deliverOne(store, textMail(i, random));
    }
    long estimate = store.stats().storedBytes() - estimateBefore;
    long used;
    try (Jedis jedis = redis.connect()) {
      used = usedMemory(jedis) - usedBefore;
    }
    assertThat((double) estimate / used)
        .as("estimate %d, used %d", estimate, used)
        .isBetween(0.95, 1.6);
  }

  private static long usedMemory(Jedis jedis) {
    for (String line : jedis.info("memory").split("\r\n")) {
      if (line.startsWith("used_memory:")) {
        return Long.parseLong(line.substring("used_memory:".length()));
      }
    }
    throw new IllegalStateException("INFO memory has no used_memory");
  }
}
