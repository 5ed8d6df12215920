package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Connection;

/**
 * How {@link RedisConnections} shares a full pool of connections to one real redis-server: a call
 * that finds every connection in use fails as the store being unavailable, and a call waiting for
 * one gets the connection that replaces a broken one.
 */
@Timeout(60)
class RedisConnectionsTest {
  private static final RedisScripts.Script ECHO = RedisScripts.Script.of("echo", "return ARGV[1]");

  private RedisServerProcess redis;
  private RedisConnections connections;

  @BeforeEach
  void startRedis() throws Exception {
    redis = RedisServerProcess.start();
  }

  @AfterEach
  void stop() throws Exception {
    if (connections != null) {
      connections.close();
    }
    if (redis != null) {
      redis.stop();
    }
  }

  /** Runs a script that answers {@code text}, as the store runs its scripts. */
  private String echo(String text) {
    Object reply =
        connections.run(ECHO, "k".getBytes(UTF_8), List.of(text.getBytes(UTF_8)), "echo", () -> {});
    return new String((byte[]) reply, UTF_8);
  }

  @Test
  void aCallThatFindsEveryConnectionInUseFailsAsTheStoreUnavailable() {
    connections = RedisConnections.of(redis.url(), Duration.ofMillis(300), 1);
    try (Connection held = connections.borrowConnection()) {
      assertThatThrownBy(() -> echo("no room"))
          .isInstanceOf(StoreUnavailableException.class)
          .hasMessageContaining("Redis at 127.0.0.1:" + redis.port())
          .hasMessageContaining("no pooled connection came free");
    }
    assertThat(echo("room again")).isEqualTo("room again");
  }

  /**
   * The waiter's wait for a connection is long (the whole timeout, 20 s): it succeeds only if
   * giving back a broken connection wakes it; unwoken, it fails when that wait ends.
   */
  @Test
  void aCallWaitingForAConnectionGetsTheOneThatReplacesABrokenConnection() {
    connections = RedisConnections.of(redis.url(), Duration.ofSeconds(20), 1);
    Connection held = connections.borrowConnection();
    CompletableFuture<String> waiter = CompletableFuture.supplyAsync(() -> echo("woken"));
    await().until(() -> connections.callersWaitingForConnection() == 1);

    held.setBroken(); // as a call that lost its connection leaves it
    held.close();

    assertThat(waiter.join()).isEqualTo("woken");
  }
}
