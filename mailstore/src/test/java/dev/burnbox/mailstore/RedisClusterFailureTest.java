package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;

/**
 * What {@link RedisInboxStore} does on a Redis Cluster when one master dies (no replica takes
 * over): the inboxes in its partitions fail promptly ({@link RefusalReason#STORE_UNAVAILABLE},
 * {@link StoreUnavailableException}), the inboxes of the other masters keep working (the cluster
 * runs with {@code cluster-require-full-coverage no}), a delivery that spans both is refused whole,
 * live events keep coming through another node, and the store recovers by itself once the master is
 * back.
 */
@Timeout(90)
class RedisClusterFailureTest {
  private static final Duration TIMEOUT = Duration.ofMillis(300);

  /** The timeout (a cluster call may take it about twice) plus slack for a loaded CI machine. */
  private static final Duration PROMPT = Duration.ofSeconds(3);

  private RedisClusterProcess cluster;
  private InboxStore store;

  @BeforeEach
  void start() throws Exception {
    cluster = RedisClusterProcess.start();
    store = InboxStore.redis(cluster.url()).redisTimeout(TIMEOUT).build();
  }

  @AfterEach
  void stop() throws Exception {
    if (store != null) {
      store.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static IncomingMessage message(String subject, String... to) {
    return new IncomingMessage(
        ("Subject: " + subject + "\r\n\r\nbody of " + subject + "\r\n").getBytes(UTF_8),
        "sender@example.net",
        Arrays.stream(to).map(InboxName::of).toList(),
        Instant.now(),
        "sender@example.net",
        subject,
        SpamVerdict.CLEAN);
  }

  /** The first inbox {@code prefix + k} whose partition is held by {@code master} (or not). */
  private String inboxOn(RedisServerProcess master, boolean onIt, String prefix) {
    int partitions = InboxStore.Builder.DEFAULT_REDIS_PARTITIONS;
    for (int k = 0; ; k++) {
      InboxName name = InboxName.of(prefix + k);
      String tag =
          RedisInboxStore.hashTag(RedisInboxStore.partitionOf(name, partitions), partitions);
      if ((cluster.masterOf(tag) == master) == onIt) {
        return name.value();
      }
    }
  }

  private static Duration timed(Runnable action) {
    long start = System.nanoTime();
    action.run();
    return Duration.ofNanos(System.nanoTime() - start);
  }

  private static RefusalReason refusal(DeliveryResult result) {
    assertThat(result).isInstanceOf(DeliveryResult.Refused.class);
    return ((DeliveryResult.Refused) result).reason();
  }

  private List<String> subjects(String inbox) {
    return store.list(InboxName.of(inbox), 50, null).messages().stream()
        .map(MessageSummary::subject)
        .toList();
  }

  @Test
  void aStoppedMasterFailsOnlyItsPartitionsPromptlyAndTheStoreRecoversWhenItIsBack()
      throws Exception {
    RedisServerProcess victim = cluster.masters().get(0); // also the subscriber's first node
    String down = inboxOn(victim, true, "down");
    String up = inboxOn(victim, false, "up");
    MessageId downId =
        ((DeliveryResult.Delivered) store.deliver(message("before", down)))
            .ids().values().stream().findFirst().orElseThrow();
    assertThat(store.deliver(message("before", up)).isDelivered()).isTrue();
    List<MessageSummary> upEvents = new CopyOnWriteArrayList<>();
    store.subscribe(InboxName.of(up), upEvents::add);

    victim.stop();

    DeliveryResult[] result = new DeliveryResult[1];
    assertThat(timed(() -> result[0] = store.deliver(message("while down", down))))
        .isLessThan(PROMPT);
    assertThat(refusal(result[0])).isEqualTo(RefusalReason.STORE_UNAVAILABLE);
    assertThat(((DeliveryResult.Refused) result[0]).detail())
        .contains("Redis Cluster at", "unreachable or slow");
    for (Runnable read :
        List.<Runnable>of(
            () -> store.list(InboxName.of(down), 10, null),
            () -> store.get(downId),
            store::stats)) { // stats sums every partition, so it needs every master
      assertThat(
              timed(
                  () ->
                      assertThatThrownBy(read::run).isInstanceOf(StoreUnavailableException.class)))
          .isLessThan(PROMPT);
    }

    // the other masters' inboxes keep working, and their events come through another node
    assertThat(store.deliver(message("while down", up)).isDelivered()).isTrue();
    assertThat(subjects(up)).containsExactly("while down", "before");
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              store.deliver(message("event while down", up));
              return upEvents.stream().anyMatch(e -> e.subject().equals("event while down"));
            });

    // a delivery to both is refused whole: the entries already written in the other masters'
    // partitions are undone, several of one partition at once
    List<String> written = new ArrayList<>(List.of(up));
    int upPartition =
        RedisInboxStore.partitionOf(InboxName.of(up), InboxStore.Builder.DEFAULT_REDIS_PARTITIONS);
    for (int k = 0; written.size() < 4; k++) {
      InboxName name = InboxName.of("beside" + k);
      if (RedisInboxStore.partitionOf(name, InboxStore.Builder.DEFAULT_REDIS_PARTITIONS)
          == upPartition) {
        written.add(name.value());
      }
    }
    written.add(inboxOn(victim, false, "elsewhere"));
    List<String> spanning = new ArrayList<>(written);
    spanning.add(down);
    assertThat(refusal(store.deliver(message("spanning", spanning.toArray(String[]::new)))))
        .isEqualTo(RefusalReason.STORE_UNAVAILABLE);
    for (String inbox : written) {
      assertThat(subjects(inbox)).as(inbox).doesNotContain("spanning");
    }

    victim.restart(); // without persistence: its partitions come back empty
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> store.deliver(message("after", down)).isDelivered());
    assertThat(subjects(down)).containsExactly("after");
    assertThat(store.get(downId)).isEmpty();
    assertThat(store.stats().messages()).isEqualTo(1 + subjects(up).size());
    assertThat(store.stats().deletions()).as("the undoing of a refused delivery").isZero();
    List<Jedis> masters = cluster.connectAll();
    try {
      RedisStoreKeys.checkInvariants(masters, InboxStore.Builder.DEFAULT_KEY_PREFIX);
    } finally {
      masters.forEach(Jedis::close);
    }
  }

  /**
   * A delivery refused by one frozen master after another master took it for many inboxes, and that
   * other master freezes too before the entries are undone: the undoing waits about one timeout for
   * the partition, not one for each entry (which made the SMTP client wait 40 timeouts here, 80 s
   * at the default timeout for a mail to 40 inboxes).
   */
  @Test
  void undoingARefusedDeliveryOnAFrozenMasterWaitsOncePerPartitionNotOncePerEntry()
      throws Exception {
    int partitions = InboxStore.Builder.DEFAULT_REDIS_PARTITIONS;
    RedisServerProcess written = cluster.masters().get(0);
    RedisServerProcess refusing = cluster.masters().get(1);
    // many inboxes in one partition of the first master, then one inbox on the second
    String first = inboxOn(written, true, "many");
    int partition = RedisInboxStore.partitionOf(InboxName.of(first), partitions);
    List<String> many = new ArrayList<>();
    for (int k = 0; many.size() < 40; k++) {
      if (RedisInboxStore.partitionOf(InboxName.of("many" + k), partitions) == partition) {
        many.add("many" + k);
      }
    }
    String last = inboxOn(refusing, true, "last");
    List<String> recipients = new ArrayList<>(many);
    recipients.add(last);
    assertThat(store.deliver(message("before", first)).isDelivered()).isTrue();
    String counters =
        InboxStore.Builder.DEFAULT_KEY_PREFIX
            + ":{"
            + RedisInboxStore.hashTag(partition, partitions)
            + "}:s";

    // with two of its three masters frozen longer than the node timeout (2 s here), the third
    // declares the cluster down and calls fail at once; a longer node timeout (15 s by default)
    // or more masters keep them timing out, as here
    List<Jedis> nodes = cluster.connectAll();
    try {
      nodes.forEach(node -> node.configSet("cluster-node-timeout", "60000"));
    } finally {
      nodes.forEach(Jedis::close);
    }
    refusing.pause();
    try (Jedis watcher = written.connect()) {
      long start = System.nanoTime();
      CompletableFuture<DeliveryResult> delivery =
          CompletableFuture.supplyAsync(
              () -> store.deliver(message("spanning", recipients.toArray(String[]::new))));
      // the first master took its entries; freeze it while the second keeps the delivery waiting
      await()
          .atMost(PROMPT)
          .pollInterval(Duration.ofMillis(2))
          .until(() -> "41".equals(watcher.hget(counters, "messages")));
      written.pause();
      DeliveryResult result = delivery.get(60, TimeUnit.SECONDS);
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertThat(refusal(result)).isEqualTo(RefusalReason.STORE_UNAVAILABLE);
      // one timeout per entry would be 40 (12 s); one per partition a few, with room for load
      assertThat(took).isLessThan(TIMEOUT.multipliedBy(many.size() / 2));
    } finally {
      written.resume();
      refusing.resume();
    }

    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> store.deliver(message("after", last, first)).isDelivered());
    List<Jedis> masters = cluster.connectAll();
    try {
      RedisStoreKeys.checkInvariants(masters, InboxStore.Builder.DEFAULT_KEY_PREFIX);
    } finally {
      masters.forEach(Jedis::close);
    }
  }

  @Test
  void aFrozenMasterTimesOutItsPartitionsPromptlyAndServesAgainWhenItResumes() throws Exception {
    RedisServerProcess victim = cluster.masters().get(1);
    String down = inboxOn(victim, true, "frozen");
    String up = inboxOn(victim, false, "up");
    assertThat(store.deliver(message("before", down)).isDelivered()).isTrue();

    victim.pause();
    try {
      DeliveryResult[] result = new DeliveryResult[1];
      assertThat(timed(() -> result[0] = store.deliver(message("while frozen", down))))
          .isLessThan(PROMPT);
      assertThat(refusal(result[0])).isEqualTo(RefusalReason.STORE_UNAVAILABLE);
      assertThat(
              timed(
                  () ->
                      assertThatThrownBy(() -> store.list(InboxName.of(down), 10, null))
                          .isInstanceOf(StoreUnavailableException.class)))
          .isLessThan(PROMPT);
      assertThat(store.deliver(message("while frozen", up)).isDelivered()).isTrue();
    } finally {
      victim.resume();
    }

    // what the frozen master was sent runs when it wakes (a 451 may have been stored after all)
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> store.deliver(message("after", down)).isDelivered());
    assertThat(subjects(down).get(0)).isEqualTo("after");
    assertThat(store.stats().messages()).isEqualTo(subjects(down).size() + subjects(up).size());
  }
}
