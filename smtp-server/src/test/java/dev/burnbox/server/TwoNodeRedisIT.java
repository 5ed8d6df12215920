package dev.burnbox.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.burnbox.mailstore.RedisServerProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8's deployment in miniature: two Burnbox processes ({@code ./burnbox serve --store=redis},
 * as {@link ServeIT} starts one) on one real redis-server. Mail is delivered over SMTP to node A
 * and read over HTTP and live events from node B; a delete through B is seen by A; both exit 0 on
 * SIGTERM; each node posts the mail it took to the webhook once. Skipped, saying why, when
 * redis-server is not installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
@Timeout(120)
class TwoNodeRedisIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final String NODE_JVM = "-Xmx256m";

  /** Live events must reach node B within this time of node A answering 250. */
  private static final Duration LIVE_WITHIN = Duration.ofSeconds(3);

  private RedisServerProcess redis;
  private HttpServer hookReceiver;
  private final BlockingQueue<JsonNode> hookPosts = new LinkedBlockingQueue<>();
  private static final String TEAM_TOKEN = "team-token-0123456789ab";
  private Path tokens;
  private BurnboxProcess nodeA;
  private BurnboxProcess nodeB;

  @BeforeAll
  void startRedisAndTwoNodes(@TempDir Path logs) throws Exception {
    redis = RedisServerProcess.start();
    hookReceiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    hookReceiver.createContext(
        "/hook",
        exchange -> {
          hookPosts.add(JSON.readTree(exchange.getRequestBody().readAllBytes()));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    hookReceiver.start();
    // both at once (failsafe runs after package, so the launcher finds the jar fresh)
    tokens = logs.resolve("tokens");
    Files.writeString(tokens, TEAM_TOKEN + " team.test\n");
    nodeA = startNode(logs.resolve("node-a.log"));
    nodeB = startNode(logs.resolve("node-b.log"));
    nodeA.awaitListening();
    nodeB.awaitListening();
  }

  private BurnboxProcess startNode(Path log) throws Exception {
    return BurnboxProcess.start(
        log,
        NODE_JVM,
        "--store",
        "redis",
        "--redis-url",
        redis.url().toString(),
        "--domains",
        "burnbox.test,team.test",
        "--private-domains",
        "team.test",
        "--api-tokens-file",
        tokens.toString(),
        "--hostname",
        "burnbox.test",
        "--shutdown-grace",
        "5s",
        "--webhook",
        "hook-*@burnbox.test=http://127.0.0.1:" + hookReceiver.getAddress().getPort() + "/hook");
  }

  @AfterAll
  void stopEverything() throws Exception {
    for (BurnboxProcess node : new BurnboxProcess[] {nodeA, nodeB}) {
      if (node != null) {
        node.close();
      }
    }
    if (redis != null) {
      redis.stop();
    }
    if (hookReceiver != null) {
      hookReceiver.stop(0);
    }
  }

  @Test
  @Order(1)
  void mailDeliveredToNodeAIsListedAndReturnedByteForByteByNodeB() throws Exception {
    // 8-bit UTF-8, CRLF line ends and a dot-stuffed line: the raw source must survive all of it
    String raw =
        "From: Ann <ann@example.com>\r\n"
            + "To: ivy@burnbox.test\r\n"
            + "Subject: two nodes\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Transfer-Encoding: 8bit\r\n"
            + "\r\n"
            + "Gr\u00fc\u00dfe from node A.\r\n"
            + ".a line that starts with a dot\r\n";

    String id = deliver(nodeA, "ivy@burnbox.test", raw);

    JsonNode listing = json(get(nodeB, "/api/v1/inboxes/ivy"));
    assertThat(listing.get("messages")).hasSize(1);
    JsonNode entry = listing.get("messages").get(0);
    assertThat(entry.get("id").asText()).isEqualTo(id);
    assertThat(entry.get("subject").asText()).isEqualTo("two nodes");
    assertThat(entry.get("envelopeSender").asText()).isEqualTo("ann@example.com");
    JsonNode message = json(get(nodeB, "/api/v1/messages/" + id));
    assertThat(message.get("text").asText())
        .contains("Gr\u00fc\u00dfe from node A.")
        .contains(".a line that starts with a dot");
    HttpResponse<byte[]> source =
        HTTP.send(request(nodeB, "/api/v1/messages/" + id + "/raw").build(), ofBytes());
    assertThat(source.statusCode()).isEqualTo(200);
    // as sent, behind node A's trace field
    String stored = new String(source.body(), UTF_8);
    assertThat(stored).startsWith("Received: from ").endsWith(raw);
    assertThat(stored.substring(0, stored.length() - raw.length()))
        .contains("for <ivy@burnbox.test>");
  }

  @Test
  @Order(2)
  void nodeBsLiveStreamShowsMailDeliveredToNodeAAfterItOpened() throws Exception {
    HttpResponse<InputStream> stream =
        HTTP.send(
            request(nodeB, "/api/v1/inboxes/liv/events").build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertThat(stream.statusCode()).isEqualTo(200);
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = Thread.ofVirtual().start(() -> readLines(stream.body(), lines));
    try {
      String id = deliver(nodeA, "liv@burnbox.test", "Subject: live\r\n\r\nSee it on B.\r\n");
      long delivered = System.nanoTime();

      String data = awaitLine(lines, "data:", LIVE_WITHIN);
      Duration took = Duration.ofNanos(System.nanoTime() - delivered);
      JsonNode event = JSON.readTree(data.substring("data:".length()));
      assertThat(event.get("id").asText()).isEqualTo(id);
      assertThat(event.get("subject").asText()).isEqualTo("live");
      System.out.println("node B's event stream had the mail " + took.toMillis() + " ms after 250");
    } finally {
      stream.body().close();
      reader.join(Duration.ofSeconds(5));
    }
  }

  @Test
  @Order(2)
  void aWaitOnNodeBIsAnsweredByMailDeliveredToNodeA() throws Exception {
    var waiting =
        HTTP.sendAsync(
            request(nodeB, "/api/v1/inboxes/wai/next?timeout=8s").build(),
            HttpResponse.BodyHandlers.ofString());
    Thread.sleep(500); // the wait subscribes on node B
    String id = deliver(nodeA, "wai@burnbox.test", "Subject: awaited\r\n\r\nFrom node A.\r\n");
    long delivered = System.nanoTime();
    HttpResponse<String> answer = waiting.get(10, java.util.concurrent.TimeUnit.SECONDS);
    Duration took = Duration.ofNanos(System.nanoTime() - delivered);
    JsonNode message = json(answer);
    assertThat(message.get("id").asText()).isEqualTo(id);
    assertThat(message.get("subject").asText()).isEqualTo("awaited");
    assertThat(took).isLessThan(LIVE_WITHIN);
    System.out.println("node B's wait had the mail " + took.toMillis() + " ms after 250");
  }

  @Test
  @Order(2)
  void eachMessageIsPostedOnceByTheNodeThatTookItAndReadableOnTheOther() throws Exception {
    String idA =
        deliver(nodeA, "hook-a@burnbox.test", "Subject: via A\r\n\r\nhttps://a.example/x\r\n");
    String idB = deliver(nodeB, "hook-b@burnbox.test", "Subject: via B\r\n\r\nhi\r\n");

    Map<String, JsonNode> posts = new HashMap<>();
    for (int i = 0; i < 2; i++) {
      JsonNode post = hookPosts.poll(20, TimeUnit.SECONDS);
      assertThat(post).as("a webhook post within 20 s").isNotNull();
      posts.put(post.get("id").asText(), post);
    }
    assertThat(posts).containsOnlyKeys(idA, idB);
    assertThat(posts.get(idA).get("links").get(0).get("url").asText())
        .isEqualTo("https://a.example/x");
    assertThat(get(nodeB, "/api/v1/messages/" + idA).statusCode()).isEqualTo(200);
    Thread.sleep(500);
    assertThat(hookPosts).as("no node posts the other's mail").isEmpty();
  }

  @Test
  @Order(2)
  void aPrivateDomainsMailTakenByNodeAOpensOnNodeBOnlyWithItsToken() throws Exception {
    String id = deliver(nodeA, "ivy@team.test", "Subject: team only\r\n\r\nKey 4711.\r\n");

    assertThat(get(nodeB, "/api/v1/inboxes/ivy@team.test").statusCode()).isEqualTo(401);
    assertThat(get(nodeB, "/api/v1/messages/" + id).statusCode()).isEqualTo(401);
    HttpResponse<String> opened =
        HTTP.send(
            request(nodeB, "/api/v1/messages/" + id)
                .header("Authorization", "Bearer " + TEAM_TOKEN)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(opened.statusCode()).isEqualTo(200);
    assertThat(json(opened).get("text").asText()).contains("Key 4711.");
    assertThat(json(get(nodeB, "/api/v1/inboxes/ivy")).get("messages").findValuesAsText("subject"))
        .as("the shared inbox of the same name")
        .doesNotContain("team only");
  }

  @Test
  @Order(3)
  void aMessageDeletedThroughNodeBIsGoneOnNodeA() throws Exception {
    String id = deliver(nodeA, "del@burnbox.test", "Subject: doomed\r\n\r\nDelete me.\r\n");
    assertThat(get(nodeA, "/api/v1/messages/" + id).statusCode()).isEqualTo(200);

    HttpResponse<String> deleted =
        HTTP.send(
            request(nodeB, "/api/v1/messages/" + id).DELETE().build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(deleted.statusCode()).isEqualTo(204);
    assertThat(get(nodeA, "/api/v1/messages/" + id).statusCode()).isEqualTo(404);
    assertThat(json(get(nodeA, "/api/v1/inboxes/del")).get("messages")).isEmpty();
  }

  @Test
  @Order(4)
  void bothNodesExitZeroOnSigterm() throws Exception {
    int exitA = nodeA.terminate(Duration.ofSeconds(30));
    int exitB = nodeB.terminate(Duration.ofSeconds(30));

    assertThat(exitA).as(nodeA.log()).isZero();
    assertThat(exitB).as(nodeB.log()).isZero();
    assertThat(nodeA.log()).contains("stopped");
    assertThat(nodeB.log()).contains("stopped");
  }

  /**
   * One SMTP transaction on a raw socket, {@code raw} sent as DATA (dot-stuffed here).
   *
   * @return the message id from the 250 reply
   */
  private static String deliver(BurnboxProcess node, String recipient, String raw)
      throws IOException {
    try (Socket socket = new Socket("127.0.0.1", node.smtpPort())) {
      socket.setSoTimeout(10_000);
      var in = new BufferedReader(new InputStreamReader(socket.getInputStream(), UTF_8));
      OutputStream out = socket.getOutputStream();
      assertThat(in.readLine()).startsWith("220");
      say(out, "EHLO client.test");
      String line;
      do {
        line = in.readLine();
      } while (line.startsWith("250-"));
      say(out, "MAIL FROM:<ann@example.com> BODY=8BITMIME");
      assertThat(in.readLine()).startsWith("250");
      say(out, "RCPT TO:<" + recipient + ">");
      assertThat(in.readLine()).startsWith("250");
      say(out, "DATA");
      assertThat(in.readLine()).startsWith("354");
      out.write(raw.replace("\r\n.", "\r\n..").getBytes(UTF_8));
      say(out, ".");
      String stored = in.readLine();
      assertThat(stored).startsWith("250 ");
      say(out, "QUIT");
      assertThat(in.readLine()).startsWith("221");
      return idIn(stored);
    }
  }

  /** The message id in a reply such as {@code 250 2.0.0 Ok: queued as ID}: its last word. */
  private static String idIn(String reply) {
    String id = reply.substring(reply.lastIndexOf(' ') + 1);
    assertThat(id).as(reply).matches("[A-Za-z0-9_-]{22}");
    return id;
  }

  private static void say(OutputStream out, String line) throws IOException {
    out.write((line + "\r\n").getBytes(UTF_8));
    out.flush();
  }

  private static HttpRequest.Builder request(BurnboxProcess node, String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.httpPort() + path))
        .timeout(Duration.ofSeconds(10));
  }

  private static HttpResponse<String> get(BurnboxProcess node, String path) throws Exception {
    return HTTP.send(request(node, path).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse.BodyHandler<byte[]> ofBytes() {
    return HttpResponse.BodyHandlers.ofByteArray();
  }

  private static JsonNode json(HttpResponse<String> response) throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static void readLines(InputStream body, BlockingQueue<String> lines) {
    try (var reader = new BufferedReader(new InputStreamReader(body, UTF_8))) {
      for (String line; (line = reader.readLine()) != null; ) {
        lines.add(line);
      }
    } catch (IOException e) {
      // the stream closed: the test is over
    }
  }

  private static String awaitLine(BlockingQueue<String> lines, String prefix, Duration within)
      throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (line == null) {
        throw new AssertionError("no '" + prefix + "' line on the event stream within " + within);
      }
      if (line.startsWith(prefix)) {
        return line;
      }
    }
  }
}
