package dev.burnbox.server.attack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Resource attacks on the whole service, run as its own JVM with a small heap: slowloris, a
 * connection flood, a mail bomb, many concurrent max-size messages, and ten times the store's
 * budget. Attackers come from untrusted loopback addresses (127.0.1.x; nothing on loopback is
 * trusted here), an honest client from 127.0.0.2-3 sends and reads mail throughout. After each
 * attack: the service is alive without an OutOfMemoryError, the honest client was served within
 * {@link Scale#honestBoundMillis}, refusals were 4xx, and once the attack stops every connection is
 * released and honest latency is back to normal.
 *
 * <p>CI runs {@link Scale#CI}; {@code scripts/attack.sh} runs {@link Scale#LONG} (system property
 * {@code burnbox.attack.scale=long}). Figures go to stdout and {@code target/attack-report.md}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ResourceAttackTest {

  /** Attack sizes and bounds. */
  enum Scale {
    CI("160m", 2000, 1500, 22, 24, 2, 24, 8, 30_000, 2_000),
    LONG("512m", 5000, 4500, 30, 100, 3, 100, 64, 30_000, 2_000);

    final String heap;
    final int maxConnections;
    final int slowlorisConnections;
    final int slowlorisSeconds;
    final int bombConnections;
    final int bombsPerConnection;
    final int bigMessageConnections;
    final int storeMiB;
    final long honestBoundMillis;
    final long recoveredP50Millis;

    Scale(
        String heap,
        int maxConnections,
        int slowlorisConnections,
        int slowlorisSeconds,
        int bombConnections,
        int bombsPerConnection,
        int bigMessageConnections,
        int storeMiB,
        long honestBoundMillis,
        long recoveredP50Millis) {
      this.heap = heap;
      this.maxConnections = maxConnections;
      this.slowlorisConnections = slowlorisConnections;
      this.slowlorisSeconds = slowlorisSeconds;
      this.bombConnections = bombConnections;
      this.bombsPerConnection = bombsPerConnection;
      this.bigMessageConnections = bigMessageConnections;
      this.storeMiB = storeMiB;
      this.honestBoundMillis = honestBoundMillis;
      this.recoveredP50Millis = recoveredP50Millis;
    }

    static Scale fromProperty() {
      return System.getProperty("burnbox.attack.scale", "ci").equalsIgnoreCase("long") ? LONG : CI;
    }
  }

  private static final Scale SCALE = Scale.fromProperty();
  private static final int MAX_MESSAGE_SIZE = 10 << 20;
  private static final int PER_IP = 50;
  private static final List<String> HONEST = List.of("127.0.0.2", "127.0.0.3");

  private static AttackedService service;
  private static HonestClient honest;
  private static HeapSampler heap;
  private static final List<String> report = new ArrayList<>();

  @BeforeAll
  static void startService() throws IOException {
    Path dir = Path.of("target", "attack");
    Files.createDirectories(dir);
    service =
        AttackedService.start(
            dir,
            SCALE.heap,
            List.of(
                "--trusted-networks=10.255.255.255/32", // no loopback address is trusted
                "--max-connections=" + SCALE.maxConnections,
                "--max-connections-per-ip=" + PER_IP,
                "--max-message-size=" + MAX_MESSAGE_SIZE,
                "--store-max-bytes=" + SCALE.storeMiB + "m",
                "--inbox-cap=1000",
                "--command-timeout=10s",
                "--data-timeout=15s"));
    honest = new HonestClient(service, HONEST);
    heap = new HeapSampler(service);
    report.add(
        "scale "
            + SCALE
            + ", -Xmx"
            + SCALE.heap
            + ", "
            + service
                .log()
                .lines()
                .filter(l -> l.contains("IntakeSettings"))
                .findFirst()
                .orElse(""));
  }

  @AfterAll
  static void stopService() throws Exception {
    if (service != null && service.alive()) {
      AttackedService.Metrics metrics = service.metrics();
      report.add(
          "refusals: %s; heap max over the run %d MiB; messages stored %.0f"
              .formatted(
                  metrics.samples().entrySet().stream()
                      .filter(e -> e.getKey().startsWith("burnbox_refusals_total"))
                      .filter(e -> e.getValue() > 0)
                      .map(
                          e ->
                              e.getKey().replaceAll(".*reason=\"([a-z_]+)\".*", "$1")
                                  + "="
                                  + e.getValue().longValue())
                      .toList(),
                  heap.overallMaxMiB(),
                  metrics.sum("burnbox_smtp_messages_total", "outcome=\"accepted\"")));
    }
    if (heap != null) {
      heap.close();
    }
    if (service != null) {
      service.close();
    }
    report.forEach(System.out::println);
    Files.write(Path.of("target", "attack-report.md"), report);
  }

  /** Runs {@code attack} while the honest client works; returns the honest samples. */
  private static HonestClient.Samples during(String name, AttackBody attack) throws Exception {
    HonestClient.Samples samples = new HonestClient.Samples();
    heap.startPhase();
    Thread client = honest.runUntilStopped(samples, 200);
    long start = System.nanoTime();
    String outcome;
    try {
      outcome = attack.run();
    } finally {
      honest.stop();
      client.join();
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    report.add(
        "%s (%d s): %s; honest during: %s; heap max %d MiB"
            .formatted(name, seconds, outcome, samples, heap.phaseMaxMiB()));
    return samples;
  }

  @FunctionalInterface
  private interface AttackBody {
    String run() throws Exception;
  }

  /** The service is alive, without an OutOfMemoryError, and every connection is released. */
  private static void assertRecovered(String name) throws Exception {
    assertThat(service.alive()).as("service alive after " + name).isTrue();
    assertThat(service.log()).doesNotContain("OutOfMemoryError");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    AttackedService.Metrics metrics = service.metrics();
    while ((metrics.sessionsActive() > 0 || metrics.inflightBytes() > 0)
        && System.nanoTime() < deadline) {
      Thread.sleep(200);
      metrics = service.metrics();
    }
    assertThat(metrics.sessionsActive()).as("sessions open after " + name).isZero();
    assertThat(metrics.inflightBytes()).as("in-flight bytes after " + name).isZero();
    HonestClient.Samples after = new HonestClient.Samples();
    for (int i = 0; i < 10; i++) {
      after.add(honest.once());
    }
    report.add("  after %s: honest %s".formatted(name, after));
    assertThat(after.failures()).as("honest failures after " + name).isEmpty();
    assertThat(after.quantileMillis(0.5)).isLessThanOrEqualTo(SCALE.recoveredP50Millis);
  }

  /**
   * Every attacker message got 250, a temporary refusal (452 in-flight budget or store, 421), or
   * its connection was cut (a 421 4.4.2 cut under overload reads as a reset while the client is
   * still writing): never a permanent refusal or a local error.
   */
  private static void assertOnlyAcceptedOrTemporary(Replies replies) {
    assertThat(replies.otherThan("250", "452", "421", "EOF", "SocketException"))
        .as("replies other than 250, 452 and 421: " + replies)
        .isZero();
  }

  private static void assertServed(String name, HonestClient.Samples samples) {
    assertThat(samples.count()).as("honest transactions during " + name).isPositive();
    assertThat(samples.failures()).as("honest failures during " + name).isEmpty();
    assertThat(samples.maxMillis())
        .as("slowest honest transaction during " + name)
        .isLessThanOrEqualTo(SCALE.honestBoundMillis);
  }

  @Test
  @Order(1)
  void slowlorisConnectionsDoNotStarveHonestClients() throws Exception {
    int addresses = (SCALE.slowlorisConnections + PER_IP - 1) / PER_IP;
    double[] openAtEnd = new double[1];
    int[] trickling = new int[1];
    HonestClient.Samples samples =
        during(
            "slowloris",
            () -> {
              try (var slowloris =
                  new Attacks.Slowloris(
                      service.smtpPort(),
                      SCALE.slowlorisConnections,
                      Attacks.attackerAddresses(addresses),
                      Duration.ofSeconds(3),
                      0.3)) {
                Thread.sleep(5000);
                double openEarly = service.metrics().sessionsActive();
                Thread.sleep(SCALE.slowlorisSeconds * 1000L - 5000);
                double open = service.metrics().sessionsActive();
                openAtEnd[0] = open;
                trickling[0] = slowloris.trickling();
                return ("%d connections from %d addresses, 1 byte per 1.5-3 s (30%% inside DATA):"
                        + " greetings %s, %d trickling, %.0f sessions open after 5 s, %.0f after"
                        + " %d s, %d cut by the server")
                    .formatted(
                        SCALE.slowlorisConnections,
                        addresses,
                        slowloris.greetings(),
                        slowloris.trickling(),
                        openEarly,
                        open,
                        SCALE.slowlorisSeconds,
                        slowloris.closedByServer());
              }
            });
    assertThat(trickling[0]).isEqualTo(SCALE.slowlorisConnections);
    // --command-timeout=10s, --data-timeout=15s: every trickler is cut before the attack ends
    assertThat(openAtEnd[0]).as("sessions still open as the attack ends").isLessThanOrEqualTo(2);
    assertServed("slowloris", samples);
    assertRecovered("slowloris");
  }

  @Test
  @Order(2)
  void aConnectionFloodIsAnswered421BeyondThePerIpLimit() throws Exception {
    List<String> few = Attacks.attackerAddresses(10);
    Replies[] greetings = new Replies[1];
    HonestClient.Samples samples =
        during(
            "connection flood",
            () -> {
              greetings[0] =
                  Attacks.connectionFlood(
                      service.smtpPort(), 10 * PER_IP * 3, few, Duration.ofSeconds(5));
              return "%d connections from %d addresses: greetings %s"
                  .formatted(10 * PER_IP * 3, few.size(), greetings[0]);
            });
    assertThat(greetings[0].get("220")).isEqualTo(10 * PER_IP);
    assertThat(greetings[0].get("421")).isEqualTo(10 * PER_IP * 2);
    assertServed("connection flood", samples);
    assertRecovered("connection flood");
  }

  @Test
  @Order(3)
  void aMailBombIsDecodedWithinBoundsOrRefusedWith4xx() throws Exception {
    List<byte[]> bombs =
        List.of(
            BombMail.manyParts(20_000),
            BombMail.deepNesting(100),
            BombMail.base64Bomb(MAX_MESSAGE_SIZE * 9 / 10, 8L << 30));
    Replies[] replies = new Replies[1];
    HonestClient.Samples samples =
        during(
            "mail bomb",
            () -> {
              replies[0] =
                  Attacks.mail(
                      service.smtpPort(),
                      SCALE.bombConnections,
                      SCALE.bombsPerConnection,
                      Attacks.attackerAddresses(SCALE.bombConnections),
                      n -> bombs.get(n % bombs.size()));
              return "%d connections x %d bombs (20,000 parts %d KiB; 100 levels; base64 %d KiB with a gzip of 8 GiB of zeros): replies %s"
                  .formatted(
                      SCALE.bombConnections,
                      SCALE.bombsPerConnection,
                      bombs.get(0).length >> 10,
                      bombs.get(2).length >> 10,
                      replies[0]);
            });
    assertThat(replies[0].get("250")).as("bombs stored").isPositive();
    assertOnlyAcceptedOrTemporary(replies[0]);
    assertServed("mail bomb", samples);
    assertRecovered("mail bomb");
  }

  @Test
  @Order(4)
  void concurrentMaxSizeMessagesAreHeldWithinTheInflightBudget() throws Exception {
    // compressible, so the store (smaller than one raw message) can hold it
    byte[] big = BombMail.compressible(MAX_MESSAGE_SIZE * 19 / 20, new Random(7));
    Replies[] replies = new Replies[1];
    HonestClient.Samples samples =
        during(
            "max-size messages",
            () -> {
              replies[0] =
                  Attacks.mail(
                      service.smtpPort(),
                      SCALE.bigMessageConnections,
                      1,
                      Attacks.attackerAddresses(SCALE.bigMessageConnections),
                      n -> big);
              return "%d connections x 1 message of %d KiB (%d MiB offered at once): replies %s"
                  .formatted(
                      SCALE.bigMessageConnections,
                      big.length >> 10,
                      (long) SCALE.bigMessageConnections * big.length >> 20,
                      replies[0]);
            });
    assertThat(replies[0].get("250")).as("max-size messages stored").isPositive();
    assertOnlyAcceptedOrTemporary(replies[0]);
    assertServed("max-size messages", samples);
    assertRecovered("max-size messages");
  }

  @Test
  @Order(5)
  void tenTimesTheStoreBudgetEvictsTheOldestAndKeepsTheNewest() throws Exception {
    int messageSize = 128 * 1024;
    long offered = 10L * (SCALE.storeMiB << 20);
    int messages = (int) (offered / messageSize);
    int connections = Math.max(40, messages / 64); // under the per-IP rate of 120 a minute
    Replies[] replies = new Replies[1];
    honest.mayBeEvicted(true); // under the flood, newer mail evicts the honest mail within seconds
    HonestClient.Samples samples =
        during(
            "store overload",
            () -> {
              replies[0] =
                  Attacks.mail(
                      service.smtpPort(),
                      connections,
                      messages / connections,
                      Attacks.attackerAddresses(connections),
                      n -> BombMail.incompressible(messageSize, "fill " + n, new Random(n)));
              JsonNode stats = service.stats();
              return "%d messages of %d KiB (%d MiB, 10x --store-max-bytes=%dm): replies %s; stats %s"
                  .formatted(
                      messages,
                      messageSize >> 10,
                      offered >> 20,
                      SCALE.storeMiB,
                      replies[0],
                      stats);
            });
    honest.mayBeEvicted(false);
    JsonNode stats = service.stats();
    assertThat(stats.get("storedBytes").asLong()).isLessThanOrEqualTo((long) SCALE.storeMiB << 20);
    assertThat(stats.get("evictions").get("memory_budget").asLong()).isPositive();
    assertThat(replies[0].get("250")).isEqualTo(messages);
    assertServed("store overload", samples); // each honest sample reads back its newest mail
    assertRecovered("store overload");
  }
}
