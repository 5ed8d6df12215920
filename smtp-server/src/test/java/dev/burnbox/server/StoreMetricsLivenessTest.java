package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.server.smtp.SmtpScript;
import java.lang.ref.WeakReference;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store's meters stay true after garbage collections: Micrometer holds a meter's object weakly
 * unless told otherwise, and these meters once read NaN after the first GC. Driven through SMTP and
 * HTTP, with evictions of every cause. And the store's counters add up: the entries delivered, less
 * those evicted and deleted, are the entries held.
 */
class StoreMetricsLivenessTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SAMPLE =
      Pattern.compile("^(burnbox_[a-z_]+)(\\{[^}]*\\})? (\\S+)$", Pattern.MULTILINE);

  private final HttpClient http = HttpClient.newHttpClient();
  private BurnboxService service;

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
  }

  @Test
  void everyStoreMeterStaysFiniteAfterGarbageCollectionAndAgreesWithTheStats() throws Exception {
    Duration ttl = Duration.ofSeconds(3);
    service =
        BurnboxService.start(
            ServiceSettings.of(
                "--smtp-port=0",
                "--hostname=burnbox.test",
                "--max-message-size=64k",
                "--no-filters",
                "--http-port=0",
                "--inbox-cap=2",
                "--store-max-bytes=2m",
                "--no-idle-recompression", // the byte counts stay put between the reads below
                "--ttl=" + ttl.toMillis() + "ms",
                "--shutdown-grace=2s"));
    collectGarbageUntilWeakReferencesClear();
    assertThat(metrics()).containsEntry("burnbox_store_messages", 0.0);

    Random random = new Random(21);
    int accepted = 0;
    // inbox cap: three mails to an inbox of two
    for (int i = 0; i < 3; i++) {
      accepted += send("capped", randomText(random, 500));
    }
    // TTL: everything above expires; the next delivery removes it
    Thread.sleep(ttl.toMillis() + 200);
    // memory budget: incompressible 40 KB mails to distinct inboxes until the oldest are evicted
    for (int i = 0; i < 80; i++) {
      accepted += send("inbox" + i, randomText(random, 40_000));
    }
    assertThat(delete("/api/v1/messages/" + firstIdOf("inbox79"))).isEqualTo(204);
    int deleted = 1;

    collectGarbageUntilWeakReferencesClear();
    // the latest mails may expire between two reads: compare meters with stats read on both sides
    Map<String, Double> meters;
    JsonNode stats;
    for (int attempt = 0; ; attempt++) {
      Thread.sleep(250); // past StoreMetrics' 200 ms reuse: the meters read the store afresh
      JsonNode before = JSON.readTree(get("/api/v1/stats"));
      meters = metrics();
      stats = JSON.readTree(get("/api/v1/stats"));
      if (before.equals(stats) || attempt == 20) {
        break;
      }
    }

    assertThat(meters).allSatisfy((name, value) -> assertThat(value).as(name).isFinite());
    assertThat(meters.get("burnbox_store_messages")).isEqualTo(stats.get("messages").asDouble());
    assertThat(meters.get("burnbox_store_inboxes")).isEqualTo(stats.get("inboxes").asDouble());
    for (String bytes :
        new String[] {"logical", "distinct", "message", "index", "cache", "codec", "stored"}) {
      assertThat(meters.get("burnbox_store_" + bytes + "_bytes"))
          .as(bytes)
          .isEqualTo(stats.get(bytes + "Bytes").asDouble());
    }
    assertThat(
            stats.get("messageBytes").asLong()
                + stats.get("indexBytes").asLong()
                + stats.get("cacheBytes").asLong()
                + stats.get("codecBytes").asLong())
        .as("the parts add up to what the budget counts")
        .isEqualTo(stats.get("storedBytes").asLong());
    long evicted = 0;
    for (String cause : new String[] {"inbox_cap", "memory_budget", "ttl"}) {
      long byCause = stats.get("evictions").get(cause).asLong();
      assertThat(byCause).as(cause).isPositive();
      assertThat(meters.get("burnbox_store_evictions_total{cause=\"" + cause + "\"}"))
          .as(cause)
          .isEqualTo((double) byCause);
      evicted += byCause;
    }
    assertThat(stats.get("deletions").asLong()).isEqualTo(deleted);
    assertThat(meters.get("burnbox_store_deletions_total")).isEqualTo((double) deleted);
    assertThat(meters.get("burnbox_messages_stored_total")).isEqualTo((double) accepted);
    assertThat(stats.get("messages").asLong() + evicted + deleted).isEqualTo(accepted);
  }

  /**
   * Messages and inbox entries are told apart, and the entry counters reconcile: three mails to
   * three inboxes each are 3 messages stored but 9 entries delivered; the cap of 2 evicts 3, a
   * deleted message and an emptied inbox delete 3, and 9 - 3 - 3 entries are held, in the metrics
   * as in {@code /api/v1/stats}.
   */
  @Test
  void entriesDeliveredLessEvictionsAndDeletionsAreTheEntriesHeld() throws Exception {
    service =
        BurnboxService.start(
            ServiceSettings.of(
                "--smtp-port=0",
                "--hostname=burnbox.test",
                "--no-filters",
                "--http-port=0",
                "--inbox-cap=2",
                "--shutdown-grace=2s"));
    for (int i = 0; i < 3; i++) {
      try (SmtpScript smtp = SmtpScript.ehlo(service.smtpPort(), "127.0.0.1")) {
        smtp.expectAfter("MAIL FROM:<meter@example.com>", "250");
        for (String inbox : new String[] {"r1", "r2", "r3"}) {
          smtp.expectAfter("RCPT TO:<" + inbox + "@any.test>", "250");
        }
        smtp.expectAfter("DATA", "354");
        smtp.expectAfter("Subject: mail " + i + "\r\n\r\nbody " + i + "\r\n.", "250");
      }
    }
    assertThat(delete("/api/v1/messages/" + firstIdOf("r1"))).isEqualTo(204);
    assertThat(delete("/api/v1/inboxes/r2")).isEqualTo(200);

    Map<String, Double> meters = metrics();
    assertThat(meters)
        .containsEntry("burnbox_messages_stored_total", 3.0)
        .containsEntry("burnbox_store_entries_delivered_total", 9.0)
        .containsEntry("burnbox_store_evictions_total{cause=\"inbox_cap\"}", 3.0)
        .containsEntry("burnbox_store_deletions_total", 3.0)
        .containsEntry("burnbox_store_messages", 3.0);
    double evicted =
        meters.entrySet().stream()
            .filter(m -> m.getKey().startsWith("burnbox_store_evictions_total{"))
            .mapToDouble(Map.Entry::getValue)
            .sum();
    assertThat(
            meters.get("burnbox_store_entries_delivered_total")
                - evicted
                - meters.get("burnbox_store_deletions_total"))
        .isEqualTo(meters.get("burnbox_store_messages"));

    JsonNode stats = JSON.readTree(get("/api/v1/stats"));
    assertThat(stats.get("entriesDelivered").asLong()).isEqualTo(9);
    long statsEvicted = 0;
    for (JsonNode byCause : stats.get("evictions")) {
      statsEvicted += byCause.asLong();
    }
    assertThat(
            stats.get("entriesDelivered").asLong() - statsEvicted - stats.get("deletions").asLong())
        .isEqualTo(stats.get("messages").asLong())
        .isEqualTo(3);
  }

  /** Runs the collector until an object only weakly reachable is gone: weak meters would be too. */
  private static void collectGarbageUntilWeakReferencesClear() throws InterruptedException {
    WeakReference<Object> sentinel = new WeakReference<>(new Object());
    for (int i = 0; sentinel.get() != null; i++) {
      assertThat(i).as("garbage collections before the sentinel cleared").isLessThan(100);
      System.gc();
      Thread.sleep(10);
    }
  }

  private static String randomText(Random random, int length) {
    StringBuilder text = new StringBuilder(length + length / 70 * 2);
    for (int i = 1; i <= length; i++) {
      text.append((char) ('a' + random.nextInt(26)));
      if (i % 70 == 0) {
        text.append("\r\n");
      }
    }
    return text.toString();
  }

  /** Sends one mail to {@code inbox}; 1 if it was answered 250. */
  private int send(String inbox, String body) throws Exception {
    try (SmtpScript smtp = SmtpScript.ehlo(service.smtpPort(), "127.0.0.1")) {
      smtp.expectAfter("MAIL FROM:<meter@example.com>", "250");
      smtp.expectAfter("RCPT TO:<" + inbox + "@any.test>", "250");
      smtp.expectAfter("DATA", "354");
      smtp.write("Subject: meters\r\n\r\n" + body + "\r\n");
      String reply = smtp.send(".");
      assertThat(reply).startsWith("250");
      return 1;
    }
  }

  private Map<String, Double> metrics() throws Exception {
    Map<String, Double> meters = new HashMap<>();
    Matcher sample = SAMPLE.matcher(get("/metrics"));
    while (sample.find()) {
      String labels = sample.group(2) == null ? "" : sample.group(2);
      meters.put(sample.group(1) + labels, Double.parseDouble(sample.group(3)));
    }
    return meters;
  }

  private String firstIdOf(String inbox) throws Exception {
    return JSON.readTree(get("/api/v1/inboxes/" + inbox)).get("messages").get(0).get("id").asText();
  }

  private String get(String path) throws Exception {
    return http.send(request(path).build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  private int delete(String path) throws Exception {
    return http.send(request(path).DELETE().build(), HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.httpPort() + path));
  }
}
