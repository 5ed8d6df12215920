package dev.burnbox.bench.smtp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The blast scenario against the whole service on each inbox store: {@code serve --store=memory}
 * and {@code serve --store=redis} on a redis-server the bench starts (see {@link
 * BenchRedisServer}), with the same generator, mail and connection counts in the same run. Rounds
 * alternate the stores, so that the load of a shared machine drifting during the run falls on both.
 * Each round starts fresh processes (and a fresh, empty redis-server); servers are always stopped,
 * even when a point fails. Writes {@link StoreBlastReport}.
 */
final class StoreBlastProfile {
  /** The stores compared, in report order; {@code memory} is the reference of the ratio. */
  static final List<String> STORES = List.of("memory", "redis");

  /**
   * Blast at 8 connections, unmeasured, before a process's first point: long enough for the JIT to
   * compile the mail path on a loaded 2-core machine.
   */
  static final Duration JIT_WARMUP = Duration.ofSeconds(5);

  /** The service's default store budget ({@code --store-max-bytes}), which Redis gets 1.5x of. */
  static final long STORE_BUDGET = 256L << 20;

  /**
   * One measured point.
   *
   * @param round 1, 2, ...
   * @param store {@code memory} or {@code redis}
   * @param result the blast's figures (service CPU over the measured window)
   * @param redisCpuPercent redis-server's CPU over the whole point (greeting, warm-up and measured
   *     window), in percent of one core; NaN for the memory store
   */
  record Point(int round, String store, LoadResult result, double redisCpuPercent) {}

  private final List<Integer> connections;
  private final int rounds;
  private final Duration warmup;
  private final Duration measure;
  private final Path out;
  private final Path docs;
  private final String command;
  private final LoadMessages messages = LoadMessages.ofSize(SmtpBenchProfile.MAIL_BYTES);
  private final List<Point> points = new ArrayList<>();
  private final List<String> redisNotes = new ArrayList<>();

  StoreBlastProfile(
      List<Integer> connections,
      int rounds,
      Duration warmup,
      Duration measure,
      Path out,
      Path docs,
      String command) {
    if (rounds < 1 || connections.isEmpty()) {
      throw new IllegalArgumentException("need at least one round and one connection count");
    }
    this.connections = List.copyOf(connections);
    this.rounds = rounds;
    this.warmup = warmup;
    this.measure = measure;
    this.out = out;
    this.docs = docs;
    this.command = command;
  }

  /** Runs every round and writes the report; returns when all servers are stopped. */
  void run() throws Exception {
    Files.createDirectories(out);
    Instant started = Instant.now();
    String loadBefore = StoreBlastReport.loadAverage();
    for (int round = 1; round <= rounds; round++) {
      for (String store : STORES) {
        if (store.equals("redis")) {
          blastRedis(round);
        } else {
          blast(round, store, null);
        }
      }
    }
    new StoreBlastReport(
            started,
            Duration.between(started, Instant.now()),
            command,
            loadBefore,
            StoreBlastReport.loadAverage(),
            warmup,
            measure,
            rounds,
            messages.description(),
            redisNotes,
            points)
        .write(out, docs);
  }

  private void blastRedis(int round) throws Exception {
    Path log = out.resolve("redis-server-" + round + ".log");
    try (BenchRedisServer redis = BenchRedisServer.start(STORE_BUDGET * 3 / 2, log)) {
      blast(round, "redis", redis);
      redisNotes.add(
          "round %d: redis-server %s, used_memory %s at the end"
              .formatted(round, redis.version(), redis.usedMemory()));
    }
  }

  private void blast(int round, String store, BenchRedisServer redis) throws Exception {
    List<String> options =
        new ArrayList<>(
            List.of(
                "--hostname=bench.test",
                "--threads=" + SmtpBenchProfile.DEFAULT_MODE,
                "--max-connections=" + SmtpBenchProfile.MAX_CONNECTIONS,
                "--store=" + store));
    if (redis != null) {
      options.add("--redis-url=" + redis.url());
    }
    Path log = out.resolve("service-" + store + "-" + round + ".log");
    System.err.println("round " + round + ": starting the service with --store=" + store);
    try (ServerProcess server =
        ServerProcess.burnbox(store, options, SmtpBenchProfile.SERVER_JVM, log)) {
      LoadScenarios scenarios = new LoadScenarios(server.target(), messages, 4);
      scenarios.blast(8, JIT_WARMUP.minusSeconds(1), Duration.ofSeconds(1));
      for (int c : connections) {
        ProcessProbe redisProbe = redis == null ? new ProcessProbe(-1) : redis.probe();
        double cpuBefore = redisProbe.cpuSeconds();
        long start = System.nanoTime();
        LoadResult result = scenarios.blast(c, warmup, measure);
        double seconds = (System.nanoTime() - start) / 1e9;
        double redisCpu = 100 * (redisProbe.cpuSeconds() - cpuBefore) / seconds;
        points.add(new Point(round, store, result, redisCpu));
      }
    }
  }
}
