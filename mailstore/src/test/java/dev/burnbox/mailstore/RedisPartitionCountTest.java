package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;

/**
 * Stores of different partition counts on one Redis would split the mail: each lists only the
 * inboxes its own partitions hold. The first store records its count in Redis; a store of another
 * count refuses to start ({@link InboxStore#checkSharedSettings}) and every operation, also when it
 * first reaches Redis later, or reaches a Redis that restarted empty after another node recorded
 * its count there. Each test has its own redis-server, which it stops and restarts.
 */
@Timeout(60)
class RedisPartitionCountTest {
  private static final Duration TIMEOUT = Duration.ofMillis(300);

  private RedisServerProcess redis;
  private final List<InboxStore> opened = new ArrayList<>();

  @BeforeEach
  void startRedis() throws Exception {
    redis = RedisServerProcess.start();
  }

  @AfterEach
  void stop() throws Exception {
    opened.forEach(InboxStore::close);
    if (redis != null) {
      redis.stop();
    }
  }

  private InboxStore store(int partitions) {
    InboxStore store =
        InboxStore.redis(redis.url()).redisTimeout(TIMEOUT).redisPartitions(partitions).build();
    opened.add(store);
    return store;
  }

  private static IncomingMessage message(String to) {
    return new IncomingMessage(
        "Subject: counted\r\n\r\nbody\r\n".getBytes(UTF_8),
        "sender@example.net",
        List.of(InboxName.of(to)),
        Instant.now(),
        "sender@example.net",
        "counted",
        SpamVerdict.CLEAN);
  }

  /** The explanation {@code store} refuses a delivery with, or fails if it takes it. */
  private static String refusal(InboxStore store) {
    DeliveryResult result = store.deliver(message("alice"));
    assertThat(result).isInstanceOf(DeliveryResult.Refused.class);
    DeliveryResult.Refused refused = (DeliveryResult.Refused) result;
    assertThat(refused.reason()).isEqualTo(RefusalReason.STORE_UNAVAILABLE);
    return refused.detail();
  }

  private static void assertNamesBothCounts(String explanation, int recorded, int own) {
    assertThat(explanation)
        .contains("holds a store of " + recorded + " partitions")
        .contains("this node is set to " + own + " (--redis-partitions)")
        .contains("FLUSHALL")
        .doesNotContain("\n");
  }

  @Test
  void aStoreOfAnotherPartitionCountRefusesToStartAndEveryOperation() {
    InboxStore sixteen = store(16);
    sixteen.checkSharedSettings();
    assertThat(sixteen.deliver(message("alice")).isDelivered()).isTrue();
    try (Jedis jedis = redis.connect()) {
      assertThat(jedis.get("bb:partitions")).isEqualTo("16");
    }

    InboxStore four = store(4);
    assertThatThrownBy(four::checkSharedSettings)
        .isInstanceOf(IllegalStateException.class)
        .satisfies(e -> assertNamesBothCounts(e.getMessage(), 16, 4));
    assertNamesBothCounts(refusal(four), 16, 4);
    assertThatThrownBy(() -> four.list(InboxName.of("alice"), 10, null))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("16 partitions");
    assertThatThrownBy(four::stats).isInstanceOf(StoreUnavailableException.class);

    assertThat(sixteen.list(InboxName.of("alice"), 10, null).messages()).hasSize(1);
  }

  @Test
  void aStoreStartedWhileRedisIsDownChecksTheCountOnceRedisAnswers() throws Exception {
    redis.stop();
    InboxStore four = store(4);
    assertThatThrownBy(four::checkSharedSettings).isInstanceOf(StoreUnavailableException.class);
    assertThat(refusal(four)).contains("unreachable");

    redis.restart();
    InboxStore sixteen = store(16);
    assertThat(sixteen.deliver(message("alice")).isDelivered()).isTrue();

    assertNamesBothCounts(refusal(four), 16, 4);
    assertThatThrownBy(() -> four.get(MessageId.random(0)))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("16 partitions");
  }

  @Test
  void afterRedisRestartsEmptyAStoreChecksAgainBeforeItsFirstDelivery() throws Exception {
    InboxStore sixteen = store(16);
    assertThat(sixteen.deliver(message("alice")).isDelivered()).isTrue();

    redis.stop();
    redis.restart(); // without persistence: the recorded count is gone with the mail
    InboxStore four = store(4);
    four.checkSharedSettings(); // the first to ask records its count
    assertThat(four.deliver(message("alice")).isDelivered()).isTrue();

    // sixteen's pooled connection died with the old Redis: it reconnects, and checks again
    assertNamesBothCounts(refusal(sixteen), 4, 16);
  }
}
