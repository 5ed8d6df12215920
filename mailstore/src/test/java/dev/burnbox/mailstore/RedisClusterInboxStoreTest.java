package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The shared contract, run against {@link RedisInboxStore} on a real {@value
 * RedisClusterProcess#MASTERS}-master Redis Cluster, with every partition recounted from its keys
 * on the master that holds it after every test; and the proof that the partitions really spread
 * over the masters.
 */
class RedisClusterInboxStoreTest extends InboxStoreContractTest {
  private static final AtomicInteger STORES = new AtomicInteger();
  private static RedisClusterProcess cluster;

  private final List<InboxStore> opened = new ArrayList<>();
  private final Map<InboxStore, String> prefixes = new HashMap<>();

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = RedisClusterProcess.start();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Override
  InboxStore newStore(Limits limits, InstantSource clock) {
    String prefix = "c" + STORES.incrementAndGet();
    InboxStore store =
        InboxStore.redis(cluster.url())
            .keyPrefix(prefix)
            .inboxCap(limits.inboxCap())
            .maxBytes(limits.maxBytes())
            .ttl(limits.ttl())
            .stripPlusTags(limits.stripPlusTags())
            .clock(clock)
            .redisPartitions(RedisInboxStoreTest.PARTITIONS)
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
    return RedisInboxStoreTest.PARTITIONS;
  }

  @Override
  int partitionOf(InboxName inbox) {
    return RedisInboxStore.partitionOf(inbox, RedisInboxStoreTest.PARTITIONS);
  }

  @Override
  void checkInvariants(InboxStore store) {
    Map<String, Integer> nodes = keysOnEveryMaster(prefixes.get(store));
    assertThat(nodes).isNotNull();
  }

  private static Map<String, Integer> keysOnEveryMaster(String prefix) {
    List<Jedis> masters = cluster.connectAll();
    try {
      return RedisStoreKeys.checkInvariants(masters, prefix);
    } finally {
      masters.forEach(Jedis::close);
    }
  }

  @Test
  void theDefaultPartitionsSpreadEvenlyOverTheMasters() {
    String prefix = "spread";
    try (InboxStore store = InboxStore.redis(cluster.url()).keyPrefix(prefix).build()) {
      List<MessageId> ids = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        ids.add(deliverOne(store, message("m" + i, "box" + i)));
      }
      // one delivery to many inboxes: one script per partition, every entry readable
      String[] many = new String[40];
      for (int i = 0; i < many.length; i++) {
        many[i] = "box" + i;
      }
      ids.addAll(delivered(store.deliver(message("bulk", many))).values());
      for (MessageId id : ids) {
        assertThat(store.get(id)).as("%s", id).isPresent();
      }
      assertThat(store.list(inbox("box7"), 10, null).messages())
          .extracting(MessageSummary::subject)
          .containsExactly("bulk", "m7");
      assertThat(store.stats().messages()).isEqualTo(240);

      Map<String, Integer> masterOfPartition = keysOnEveryMaster(prefix);
      assertThat(masterOfPartition).hasSize(InboxStore.Builder.DEFAULT_REDIS_PARTITIONS);
      int[] partitionsPerMaster = new int[RedisClusterProcess.MASTERS];
      masterOfPartition.values().forEach(m -> partitionsPerMaster[m]++);
      assertThat(partitionsPerMaster).containsOnly(5, 6); // 16 over 3 masters
      List<Jedis> masters = cluster.connectAll();
      try {
        for (Jedis master : masters) {
          assertThat(master.dbSize()).as("keys on a master").isPositive();
        }
      } finally {
        masters.forEach(Jedis::close);
      }
    }
  }

  @Test
  void aBulkCampaignStoresItsBodyOncePerPartitionAtMost() {
    // the cost of partitions, measured: the same body sent to 100 inboxes in 100 deliveries (a
    // campaign) is stored once per partition, not once per inbox
    String prefix = "campaign";
    try (InboxStore store = InboxStore.redis(cluster.url()).keyPrefix(prefix).build()) {
      byte[] body = randomBytes(7, 20_000);
      for (int i = 0; i < 100; i++) {
        deliverOne(store, message(body, "offer", "target" + i));
      }
      StoreStats stats = store.stats();
      assertThat(stats.messages()).isEqualTo(100);
      assertThat(stats.distinctBytes())
          .isEqualTo(InboxStore.Builder.DEFAULT_REDIS_PARTITIONS * 20_000L);
      assertThat(new HashSet<>(keysOnEveryMaster(prefix).values()))
          .hasSize(RedisClusterProcess.MASTERS);
    }
  }
}
