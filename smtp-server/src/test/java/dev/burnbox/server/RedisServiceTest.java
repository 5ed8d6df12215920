package dev.burnbox.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.RedisServerProcess;
import dev.burnbox.server.logging.LogCapture;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The service on the Redis store ({@code --store=redis}), end to end on a real redis-server: mail
 * delivered over SMTP to one service is read over HTTP from it and from a second service on the
 * same Redis, whose live event stream shows it too; a Redis outage gives SMTP 451 and HTTP 503,
 * then heals by itself.
 */
@Timeout(60)
class RedisServiceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private RedisServerProcess redis;
  private BurnboxService nodeA;
  private BurnboxService nodeB;

  @BeforeEach
  void startRedisAndNodeA() throws Exception {
    redis = RedisServerProcess.start();
    nodeA = startNode();
  }

  private BurnboxService startNode(String... more) throws Exception {
    List<String> options =
        new ArrayList<>(
            List.of(
                "--smtp-port=0",
                "--hostname=burnbox.test",
                "--http-port=0",
                "--shutdown-grace=2s",
                "--store=redis",
                "--redis-url=" + redis.url()));
    options.addAll(List.of(more));
    return BurnboxService.start(ServiceSettings.of(options.toArray(String[]::new)));
  }

  @AfterEach
  void stopAll() throws Exception {
    for (BurnboxService node : new BurnboxService[] {nodeA, nodeB}) {
      if (node != null) {
        node.close();
      }
    }
    if (redis != null) {
      redis.stop();
    }
  }

  private static void send(BurnboxService node, String subject, String body, String... to)
      throws MessagingException {
    Properties props = new Properties();
    props.put("mail.smtp.host", "127.0.0.1");
    props.put("mail.smtp.port", Integer.toString(node.smtpPort()));
    props.put("mail.smtp.connectiontimeout", "5000");
    props.put("mail.smtp.timeout", "10000");
    MimeMessage message = new MimeMessage(Session.getInstance(props));
    message.setFrom(new InternetAddress("ann@example.com"));
    message.setRecipients(Message.RecipientType.TO, InternetAddress.parse(String.join(",", to)));
    message.setSubject(subject, "UTF-8");
    message.setText(body, "UTF-8");
    Transport.send(message);
  }

  private static HttpResponse<String> get(BurnboxService node, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.httpPort() + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  @Test
  void mailDeliveredOverSmtpToOneNodeIsReadOverHttpFromEveryNode() throws Exception {
    nodeB = startNode();
    // node B's live event stream for carol, open before node A receives the mail
    HttpResponse<InputStream> stream =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:" + nodeB.httpPort() + "/api/v1/inboxes/carol/events"))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertThat(stream.statusCode()).isEqualTo(200);
    List<String> liveOnB = new CopyOnWriteArrayList<>();
    Thread reader =
        Thread.ofVirtual()
            .start(
                () -> {
                  try (BufferedReader lines =
                      new BufferedReader(new InputStreamReader(stream.body(), UTF_8))) {
                    for (String line; (line = lines.readLine()) != null; ) {
                      liveOnB.add(line);
                    }
                  } catch (IOException e) {
                    // the stream closed: the test is over
                  }
                });

    send(nodeA, "Hello from A", "Shared through Redis.", "alice@any.test", "carol@any.test");

    for (BurnboxService node : List.of(nodeA, nodeB)) {
      JsonNode inbox = json(get(node, "/api/v1/inboxes/alice"));
      assertThat(inbox.get("messages")).hasSize(1);
      JsonNode entry = inbox.get("messages").get(0);
      assertThat(entry.get("subject").asText()).isEqualTo("Hello from A");
      String raw = get(node, "/api/v1/messages/" + entry.get("id").asText() + "/raw").body();
      assertThat(raw).contains("Subject: Hello from A").contains("Shared through Redis.");
      assertThat(json(get(node, "/api/v1/stats")).get("messages").asLong()).isEqualTo(2);
    }
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                liveOnB.stream()
                    .anyMatch(l -> l.startsWith("data:") && l.contains("Hello from A")));
    assertThat(liveOnB).contains("event: mail");
    stream.body().close();
    reader.join(Duration.ofSeconds(5));
  }

  @Test
  void aRedisOutageGivesSmtp451AndHttp503ThenHealsByItself() throws Exception {
    redis.stop();

    assertThatThrownBy(() -> send(nodeA, "during the outage", "x", "dave@any.test"))
        .isInstanceOfSatisfying(
            SMTPSendFailedException.class,
            e -> {
              assertThat(e.getReturnCode()).isEqualTo(451);
              assertThat(e.getMessage()).contains("4.3.0");
            });
    HttpResponse<String> down = get(nodeA, "/api/v1/inboxes/dave");
    assertThat(down.statusCode()).isEqualTo(503);
    assertThat(JSON.readTree(down.body()).get("error").asText()).contains("unavailable");
    assertThat(down.headers().firstValue("Retry-After")).hasValue("5");
    assertThat(Files.readString(Path.of("..", "README.md")).replaceAll("\\s+", " "))
        .as("the README names the Retry-After the node sends")
        .contains("with `Retry-After: 5` when the Redis store is unreachable");
    assertThat(get(nodeA, "/api/v1/stats").statusCode()).isEqualTo(503);
    HttpResponse<String> metrics = get(nodeA, "/metrics");
    assertThat(metrics.statusCode()).as("metrics stay up in an outage").isEqualTo(200);
    assertThat(metrics.body())
        .contains("burnbox_store_messages NaN")
        .containsPattern(
            "burnbox_refusals_total\\{reason=\"store_unavailable\",stage=\"store\"} 1\\.0");

    redis.restart();
    send(nodeA, "after the outage", "y", "dave@any.test");
    JsonNode dave = json(get(nodeA, "/api/v1/inboxes/dave"));
    assertThat(dave.get("messages")).hasSize(1);
    assertThat(dave.get("messages").get(0).get("subject").asText()).isEqualTo("after the outage");
  }

  @Test
  void aNodeOfAnotherPartitionCountRefusesToStartNamingBothCounts() {
    // node A, with the default 16, recorded its count as it started
    assertThatThrownBy(() -> nodeB = startNode("--redis-partitions=4"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("holds a store of 16 partitions")
        .hasMessageContaining("this node is set to 4 (--redis-partitions)");
  }

  @Test
  void aNodeStartedWhileRedisIsDownNeverTakesMailIfRedisRecordsAnotherCount() throws Exception {
    redis.stop();
    nodeB = startNode("--redis-partitions=4"); // starts: Redis cannot say yet
    redis.restart(); // empty, until node A delivers and so records its 16
    send(nodeA, "to A", "x", "erin@any.test");

    assertThatThrownBy(() -> send(nodeB, "to B", "y", "erin@any.test"))
        .isInstanceOfSatisfying(
            SMTPSendFailedException.class, e -> assertThat(e.getReturnCode()).isEqualTo(451));
    HttpResponse<String> refused = get(nodeB, "/api/v1/inboxes/erin");
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(json(get(nodeA, "/api/v1/inboxes/erin")).get("messages")).hasSize(1);
  }

  /**
   * The event subscriber's warnings go through the service's logging, one line each: one when the
   * subscription is lost, none for each retry (they come every 0.1 to 5 s), one when it is back.
   * (They came out in java.util.logging's two-line format, one pair per retry.)
   */
  @Test
  void aLostEventSubscriptionLogsOneLineAndOneWhenItIsBack() throws Exception {
    LogCapture lines = LogCapture.of("dev.burnbox.mailstore.RedisInboxStore");
    try (lines) {
      nodeA.store().subscribe(InboxName.of("frank"), summary -> {}).close(); // subscriber started
      redis.stop();
      Thread.sleep(3_000); // about five retries: 0.1, 0.2, 0.4, 0.8 and 1.6 s apart
      redis.restart();
      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> lines.events().stream().anyMatch(e -> e.getLevel() == Level.INFO));
    }
    assertThat(lines.events())
        .extracting(e -> e.getLevel() + " " + e.getFormattedMessage())
        .hasSize(2)
        .satisfiesExactly(
            lost -> assertThat(lost).startsWith("WARN Redis event subscription at 127.0.0.1:"),
            back -> assertThat(back).startsWith("INFO Redis event subscription back at 127.0.0.1:"))
        .allSatisfy(line -> assertThat(line).doesNotContain("\n"));
  }
}
