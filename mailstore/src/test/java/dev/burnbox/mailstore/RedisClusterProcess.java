package dev.burnbox.mailstore;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A real Redis Cluster for tests: {@value #MASTERS} {@code redis-server} masters without replicas
 * or persistence on free loopback ports, each holding an equal range of the 16384 hash slots (as
 * {@code redis-cli --cluster create} would split them), formed with {@code CLUSTER ADDSLOTSRANGE}
 * and {@code CLUSTER MEET} so no {@code redis-cli} is needed; ready in about 2 seconds (a fresh
 * master waits that long before it reports {@code cluster_state:ok}). Each node's cluster bus gets
 * its own free port ({@code cluster-port}), as the default, port + 10000, may be taken or invalid.
 * The nodes run with {@code cluster-require-full-coverage no} (what Burnbox's deployment notes
 * recommend: the masters that are up keep serving their slots when one is down) and a node timeout
 * of {@value #NODE_TIMEOUT_MILLIS} ms. Tests that need it are skipped, saying why, when {@code
 * redis-server} is not installed. Not thread-safe: one test class drives it. Shared with
 * smtp-server's tests through this module's test jar.
 */
public final class RedisClusterProcess implements AutoCloseable {
  /** Masters in the cluster. */
  public static final int MASTERS = 3;

  static final int NODE_TIMEOUT_MILLIS = 2000;
  private static final Duration FORM_TIMEOUT = Duration.ofSeconds(15);

  private final Path dir;
  private final List<RedisServerProcess> masters;

  private RedisClusterProcess(Path dir, List<RedisServerProcess> masters) {
    this.dir = dir;
    this.masters = masters;
  }

  /**
   * Starts the masters, forms the cluster and waits until every node reports {@code
   * cluster_state:ok}; aborts the calling test if there is no redis-server.
   */
  public static RedisClusterProcess start() throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("burnbox-redis-cluster");
    List<RedisServerProcess> masters = new ArrayList<>();
    List<Integer> busPorts = new ArrayList<>();
    RedisClusterProcess cluster = new RedisClusterProcess(dir, masters);
    try {
      for (int i = 0; i < MASTERS; i++) {
        // the cluster bus port defaults to port + 10000, which may be taken or above 65535
        int busPort = RedisServerProcess.freePort();
        busPorts.add(busPort);
        masters.add(
            RedisServerProcess.start(
                port ->
                    List.of(
                        "--cluster-enabled",
                        "yes",
                        "--cluster-port",
                        Integer.toString(busPort),
                        "--cluster-config-file",
                        dir.resolve("nodes-" + port + ".conf").toString(),
                        "--cluster-node-timeout",
                        Integer.toString(NODE_TIMEOUT_MILLIS),
                        "--cluster-require-full-coverage",
                        "no",
                        "--dir",
                        dir.toString())));
      }
      for (int i = 0; i < MASTERS; i++) {
        try (Jedis jedis = masters.get(i).connect()) {
          jedis.clusterAddSlotsRange(firstSlot(i), firstSlot(i + 1) - 1);
          jedis.clusterSetConfigEpoch(i + 1);
        }
      }
      try (Jedis first = masters.get(0).connect()) {
        for (int i = 1; i < MASTERS; i++) {
          first.sendCommand(
              Protocol.Command.CLUSTER,
              "MEET",
              "127.0.0.1",
              Integer.toString(masters.get(i).port()),
              Integer.toString(busPorts.get(i)));
        }
      }
      cluster.awaitHealthy();
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  private static int firstSlot(int master) {
    return master * RedisInboxStore.SLOTS / MASTERS;
  }

  /** {@code redis-cluster://127.0.0.1:P1,127.0.0.1:P2,...}: every master as a seed node. */
  public URI url() {
    return URI.create(
        "redis-cluster://"
            + masters.stream().map(m -> "127.0.0.1:" + m.port()).collect(Collectors.joining(",")));
  }

  /** The masters, in the order of the slot ranges they hold. */
  public List<RedisServerProcess> masters() {
    return List.copyOf(masters);
  }

  /** The master that holds {@code key}'s hash slot. */
  public RedisServerProcess masterOf(String key) {
    int slot = JedisClusterCRC16.getSlot(key);
    int master = 0;
    while (master + 1 < MASTERS && firstSlot(master + 1) <= slot) {
      master++;
    }
    return masters.get(master);
  }

  /** A new connection to each master, in {@link #masters()} order, for tests that look at keys. */
  public List<Jedis> connectAll() {
    return masters.stream().map(RedisServerProcess::connect).toList();
  }

  /**
   * Waits until every master knows all {@value #MASTERS} nodes and reports {@code cluster_state:ok}
   * (after a start, or after a stopped master was started again).
   */
  public void awaitHealthy() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + FORM_TIMEOUT.toNanos();
    for (RedisServerProcess master : masters) {
      while (!healthy(master)) {
        if (System.nanoTime() > deadline) {
          throw new IOException("the Redis Cluster in " + dir + " did not become healthy");
        }
        Thread.sleep(20);
      }
    }
  }

  private static boolean healthy(RedisServerProcess master) {
    try (Jedis jedis = master.connect()) {
      String info = jedis.clusterInfo();
      return info.contains("cluster_state:ok")
          && info.contains("cluster_known_nodes:" + MASTERS)
          && info.contains("cluster_slots_ok:" + RedisInboxStore.SLOTS);
    } catch (JedisException e) {
      return false;
    }
  }

  /** Stops every master and deletes the cluster's files. */
  @Override
  public void close() throws InterruptedException, IOException {
    for (RedisServerProcess master : masters) {
      master.stop();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }
}
