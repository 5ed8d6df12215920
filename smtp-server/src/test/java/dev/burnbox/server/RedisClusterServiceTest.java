package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.mailstore.RedisClusterProcess;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The service on a real 3-master Redis Cluster, configured as an operator would ({@code
 * --store=redis --redis-url=redis-cluster://...}): a message to recipients whose inboxes lie in
 * different partitions, sent over SMTP to one node, is listed and read over HTTP on another.
 */
@Timeout(60)
class RedisClusterServiceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private RedisClusterProcess cluster;
  private BurnboxService nodeA;
  private BurnboxService nodeB;

  @AfterEach
  void stopAll() throws Exception {
    for (BurnboxService node : new BurnboxService[] {nodeA, nodeB}) {
      if (node != null) {
        node.close();
      }
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A node configured through the command line, as an operator would start it. */
  private BurnboxService startNode() throws Exception {
    ServeCommand command = new ServeCommand(Map.of());
    command
        .commandLine()
        .parseArgs(
            "--smtp-port=0",
            "--http-port=0",
            "--shutdown-grace=2s",
            "--store=redis",
            "--redis-url=" + cluster.url());
    return BurnboxService.start(command.settings());
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
  void mailToInboxesOfSeveralPartitionsSentToOneNodeIsReadOnAnother() throws Exception {
    cluster = RedisClusterProcess.start();
    nodeA = startNode();
    nodeB = startNode();
    List<String> recipients = List.of("ann", "bob", "cyd", "dan", "eve", "fay");

    Properties props = new Properties();
    props.put("mail.smtp.host", "127.0.0.1");
    props.put("mail.smtp.port", Integer.toString(nodeA.smtpPort()));
    props.put("mail.smtp.connectiontimeout", "5000");
    props.put("mail.smtp.timeout", "10000");
    MimeMessage message = new MimeMessage(Session.getInstance(props));
    message.setFrom(new InternetAddress("zed@example.com"));
    for (String r : recipients) {
      message.addRecipient(Message.RecipientType.TO, new InternetAddress(r + "@any.test"));
    }
    message.setSubject("Hello cluster", "UTF-8");
    message.setText("Shared through Redis Cluster.", "UTF-8");
    Transport.send(message);

    for (String r : recipients) {
      JsonNode inbox = json(get(nodeB, "/api/v1/inboxes/" + r));
      assertThat(inbox.get("messages")).as(r).hasSize(1);
      String id = inbox.get("messages").get(0).get("id").asText();
      assertThat(get(nodeB, "/api/v1/messages/" + id + "/raw").body())
          .contains("Subject: Hello cluster", "Shared through Redis Cluster.");
    }
    assertThat(json(get(nodeB, "/api/v1/stats")).get("messages").asLong())
        .isEqualTo(recipients.size());
  }
}
