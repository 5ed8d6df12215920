package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Connection;

/**
 * How {@link RedisConnections} shares a full pool of connections to one real redis-server: a call
 * that finds every connection in use fails as the store being unavailable.
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
}
