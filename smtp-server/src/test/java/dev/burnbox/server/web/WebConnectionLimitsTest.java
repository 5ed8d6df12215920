package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.burnbox.mailstore.DeliveryResult;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.IncomingMessage;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.smtp.NetworkList;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The web port's connection discipline through a real port, clients on loopback addresses (Linux
 * routes all of 127/8; nothing is trusted unless a test says so): the per-address cap closes one
 * connection too many, the total cap makes new clients wait, the request head deadline cuts a
 * trickle but not a prompt keep-alive client nor an open event stream.
 */
class WebConnectionLimitsTest {
  private static final NetworkList NOBODY = NetworkList.parse("10.255.255.255/32");
  private static final String REQUEST = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final List<RawHttp> clients = new ArrayList<>();
  private WebServer server;

  @AfterEach
  void stop() throws IOException {
    for (RawHttp client : clients) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private int start(WebLimits limits) {
    return start(limits, InboxStore.memory().build());
  }

  private int start(WebLimits limits, InboxStore store) {
    return start(limits, store, Duration.ofMillis(200));
  }

  /** A server whose idle event streams send a comment every {@code heartbeat}. */
  private int start(WebLimits limits, InboxStore store, Duration heartbeat) {
    server =
        new WebServer(
            "127.0.0.1",
            0,
            limits,
            MetricsEndpoint.webPort(),
            WebAccess.SAME_ORIGIN,
            List.of(),
            store,
            MailDecoder.withDefaults(),
            WebFixture.plainListScanner(),
            registry,
            heartbeat);
    server.start();
    return server.port();
  }

  private RawHttp client(String source, int port, int readTimeoutMillis) throws IOException {
    RawHttp client = RawHttp.connect(source, port, readTimeoutMillis);
    clients.add(client);
    return client;
  }

  private double refusals(String reason) {
    return registry
        .get("burnbox.refusals")
        .tag("stage", "web")
        .tag("reason", reason)
        .counter()
        .count();
  }

  /**
   * A connection past the cap is told why: its request is answered 429 with {@code Retry-After} and
   * the connection closed (it was closed unanswered as it opened, an empty reply to curl).
   */
  @Test
  void aConnectionPastThePerAddressCapIsAnswered429AndClosedAndItsSlotComesBack() throws Exception {
    int port = start(new WebLimits(100, 3, Duration.ofSeconds(30), NOBODY));
    List<RawHttp> held = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      held.add(client("127.0.1.1", port, 10_000));
    }
    await().until(() -> server.openConnections() == 3);
    RawHttp oneTooMany = client("127.0.1.1", port, 5_000);
    RawHttp.Reply refused = oneTooMany.send(REQUEST).reply();
    assertThat(refused.status()).isEqualTo(429);
    assertThat(refused.header("Retry-After")).isEqualTo("1");
    assertThat(refused.header("Connection")).isEqualTo("close");
    assertThat(refused.header("Content-Security-Policy")).as("security headers").isNotNull();
    assertThat(oneTooMany.closedByServer()).isTrue();
    assertThat(refusals("too_many_connections_per_ip")).isEqualTo(1);

    assertThat(client("127.0.1.2", port, 10_000).send(REQUEST).reply().status())
        .as("another address")
        .isEqualTo(200);
    assertThat(held.getFirst().send(REQUEST).reply().status()).as("one held").isEqualTo(200);
    held.getFirst().close();
    await().until(() -> server.openConnections() == 3);
    assertThat(client("127.0.1.1", port, 10_000).send(REQUEST).reply().status())
        .as("a freed slot")
        .isEqualTo(200);
  }

  /**
   * Connections past the cap wait for their request's 429 only a few at a time and briefly: one
   * address cannot hold many more connections than its cap by opening them and sending nothing.
   */
  @Test
  void onlyAFewConnectionsPastTheCapWaitBrieflyForTheir429TheRestAreClosedAtOnce()
      throws Exception {
    int port = start(new WebLimits(100, 2, Duration.ofSeconds(30), NOBODY));
    for (int i = 0; i < 2; i++) {
      client("127.0.1.11", port, 10_000);
    }
    // the two are admitted before any other opens: Jetty may open connections out of order
    await().until(() -> server.openConnections() == 2);
    List<RawHttp> waiting = new ArrayList<>();
    for (int i = 0; i < ConnectionGate.ANSWERED_PAST_CAP; i++) {
      waiting.add(client("127.0.1.11", port, 10_000));
    }
    await().until(() -> server.openConnections() == 2 + ConnectionGate.ANSWERED_PAST_CAP);
    assertThat(client("127.0.1.11", port, 5_000).closedByServer()).as("one more").isTrue();
    for (RawHttp silent : waiting) {
      assertThat(silent.closedByServer()).as("cut: no request head in time").isTrue();
    }
    await().until(() -> server.openConnections() == 2);
    assertThat(client("127.0.1.11", port, 10_000).send(REQUEST).reply().status())
        .as("answered again")
        .isEqualTo(429);
    assertThat(refusals("too_many_connections_per_ip"))
        .isEqualTo(ConnectionGate.ANSWERED_PAST_CAP + 2);
    assertThat(refusals("head_timeout")).as("counted once, as refused").isZero();
  }

  /** Delivers {@code raw} to {@code inbox} and returns its id. */
  private static String deliver(InboxStore store, String inbox, String raw) {
    byte[] bytes = raw.getBytes(StandardCharsets.US_ASCII);
    DeliveryResult.Delivered delivered =
        (DeliveryResult.Delivered)
            store.deliver(
                new IncomingMessage(
                    bytes,
                    "s@example.test",
                    List.of(InboxName.of(inbox)),
                    Instant.now(),
                    "s@example.test",
                    inbox,
                    SpamVerdict.CLEAN));
    return delivered.ids().values().iterator().next().value();
  }

  /** A mail of about {@code size} bytes of text lines. */
  private static String mailOf(int size) {
    StringBuilder raw = new StringBuilder("Subject: big\r\n\r\n");
    String line = "x".repeat(998) + "\r\n";
    while (raw.length() < size) {
      raw.append(line);
    }
    return raw.toString();
  }

  /**
   * Opens {@code count} connections that ask for {@code path} and never read (a 4 KiB receive
   * buffer), each request's thread then blocked in a write.
   */
  private List<Socket> stalledReaders(int port, String path, int count) throws IOException {
    return stalledReaders(port, path, count, 1);
  }

  /** As above, from {@code addresses} loopback addresses in turn (127.0.2.1, 127.0.2.2, ...). */
  private List<Socket> stalledReaders(int port, String path, int count, int addresses)
      throws IOException {
    List<Socket> readers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Socket socket = new Socket();
      socket.setReceiveBufferSize(4096);
      if (addresses > 1) {
        socket.bind(new InetSocketAddress("127.0.2." + (1 + i % addresses), 0));
      }
      socket.connect(new InetSocketAddress("127.0.0.1", port));
      socket
          .getOutputStream()
          .write(
              ("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      readers.add(socket);
    }
    return readers;
  }

  /**
   * Requests run on platform threads (so that an SMTP blast does not hold pages up); a client that
   * asks for a large raw message and never reads it blocks its request's thread in a write. With
   * more such clients than any small fixed pool has threads, another client is still answered at
   * once, long before the stalled writes time out.
   */
  @Test
  void clientsThatStopReadingLargeResponsesHoldNoOneElsesRequest() throws Exception {
    InboxStore store = InboxStore.memory().build();
    String id = deliver(store, "big", mailOf(4 << 20));
    int port = start(new WebLimits(400, 200, Duration.ofSeconds(30), NOBODY), store);
    int stalled = 80; // more than a pool of 64 threads, the first size tried
    List<Socket> readers = stalledReaders(port, "/api/v1/messages/" + id + "/raw", stalled);
    try {
      await().until(() -> server.openConnections() >= stalled);
      RawHttp other = client("127.0.1.9", port, 5_000);
      assertThat(other.send(REQUEST).reply().status()).as("answered within 5 s").isEqualTo(200);
    } finally {
      for (Socket socket : readers) {
        socket.close();
      }
    }
  }

  /**
   * Stalled downloads of a large message from several addresses hold at most the read budget (they
   * ran the heap out of memory before it): further reads of large messages answer 503 with {@code
   * Retry-After} (a page headed so) while they hold it, small mail stays readable, and once they go
   * the large message reads again.
   */
  @Test
  void stalledLargeDownloadsHoldTheReadBudgetAndSmallMailStaysReadable() throws Exception {
    InboxStore store = InboxStore.memory().build();
    String big = deliver(store, "big", mailOf(4 << 20));
    String small = deliver(store, "small", mailOf(2_000));
    int port = start(new WebLimits(400, 200, Duration.ofSeconds(30), NOBODY, 16 << 20), store);
    List<Socket> readers = stalledReaders(port, "/api/v1/messages/" + big + "/raw", 40, 4);
    try {
      await().until(() -> server.openConnections() >= 40);
      await().until(() -> refusals("read_budget_full") >= 30);
      RawHttp.Reply refused =
          client("127.0.1.9", port, 10_000)
              .send("GET /api/v1/messages/" + big + "/raw HTTP/1.1\r\nHost: x\r\n\r\n")
              .reply();
      assertThat(refused.status()).isEqualTo(503);
      assertThat(refused.header("Retry-After")).isEqualTo("1");
      RawHttp.Reply refusedPage =
          client("127.0.1.9", port, 10_000)
              .send("GET /message/" + big + " HTTP/1.1\r\nHost: x\r\n\r\n")
              .reply();
      assertThat(refusedPage.status()).isEqualTo(503);
      assertThat(refusedPage.body())
          .as("the page says what the status says")
          .contains("<h1>Service unavailable</h1>")
          .contains("the server is sending other large messages");
      RawHttp.Reply smallMail =
          client("127.0.1.9", port, 10_000)
              .send("GET /api/v1/messages/" + small + "/raw HTTP/1.1\r\nHost: x\r\n\r\n")
              .reply();
      assertThat(smallMail.status()).isEqualTo(200);
      assertThat(smallMail.body()).startsWith("Subject: big");
    } finally {
      for (Socket socket : readers) {
        socket.close();
      }
    }
    await()
        .atMost(Duration.ofSeconds(40))
        .until(
            () ->
                RawHttp.exchange(
                            port,
                            "GET /api/v1/messages/"
                                + big
                                + "/raw HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                        .status()
                    == 200);
  }

  /**
   * One address that stalls downloads of large messages (or reads them slowly) holds at most half
   * the read budget, so a reader elsewhere still gets a large message, where it got 503 before.
   */
  @Test
  void oneAddressStallingLargeDownloadsHoldsAtMostHalfTheReadBudget() throws Exception {
    InboxStore store = InboxStore.memory().build();
    String big = deliver(store, "big", mailOf(4 << 20)); // 8 MiB held while it is read
    int port = start(new WebLimits(400, 200, Duration.ofSeconds(30), NOBODY, 32 << 20), store);
    List<Socket> readers = stalledReaders(port, "/api/v1/messages/" + big + "/raw", 10);
    try {
      await().until(() -> server.openConnections() >= 10);
      await().until(() -> refusals("read_budget_full") >= 8);
      RawHttp.Reply elsewhere =
          client("127.0.1.9", port, 10_000)
              .send("GET /api/v1/messages/" + big + "/raw HTTP/1.1\r\nHost: x\r\n\r\n")
              .reply();
      assertThat(elsewhere.status()).isEqualTo(200);
      assertThat(elsewhere.body()).startsWith("Subject: big");
    } finally {
      for (Socket socket : readers) {
        socket.close();
      }
    }
  }

  @Test
  void trustedAddressesAreExemptFromThePerAddressCap() throws Exception {
    int port = start(new WebLimits(100, 2, Duration.ofSeconds(30), NetworkList.parse("127.0.1.7")));
    for (int i = 0; i < 5; i++) {
      client("127.0.1.7", port, 10_000);
    }
    for (RawHttp client : clients) {
      assertThat(client.send(REQUEST).reply().status()).isEqualTo(200);
    }
    assertThat(refusals("too_many_connections_per_ip")).isZero();
  }

  @Test
  void aRequestHeadTrickledByteByByteIsCutAtTheDeadline() throws Exception {
    int port = start(new WebLimits(100, 50, Duration.ofSeconds(1), NOBODY));
    RawHttp slow = client("127.0.1.3", port, 20_000);
    slow.send("GET /healthz HTTP/1.1\r\n");
    long started = System.nanoTime();
    boolean cut = false;
    for (int i = 0; i < 100 && !cut; i++) { // a header line every 100 ms for up to 10 s
      Thread.sleep(100);
      try {
        slow.send("X-Slow-" + i + ": b\r\n");
      } catch (IOException closed) {
        cut = true;
      }
    }
    assertThat(cut || slow.closedByServer()).as("cut").isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    assertThat(refusals("head_timeout")).isEqualTo(1);
    await().until(() -> server.openConnections() == 0);
  }

  @Test
  void aPromptKeepAliveClientIsServedLongerThanTheDeadline() throws Exception {
    int port = start(new WebLimits(100, 50, Duration.ofSeconds(1), NOBODY));
    RawHttp client = client("127.0.1.4", port, 10_000);
    for (int i = 0; i < 6; i++) { // 6 x 300 ms: the deadline holds each head, not the connection
      assertThat(client.send(REQUEST).reply().status()).isEqualTo(200);
      Thread.sleep(300);
    }
    assertThat(refusals("head_timeout")).isZero();
  }

  @Test
  void anOpenEventStreamOutlivesTheDeadlineAndCountsAgainstTheCap() throws Exception {
    int port = start(new WebLimits(100, 2, Duration.ofMillis(500), NOBODY));
    RawHttp stream = client("127.0.1.5", port, 10_000);
    stream.send("GET /api/v1/inboxes/alice/events HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(stream.replyHead().status()).isEqualTo(200);
    RawHttp second = client("127.0.1.5", port, 10_000);
    second.send("GET /api/v1/inboxes/bob/events HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(second.replyHead().status()).isEqualTo(200);
    Thread.sleep(1500); // three deadlines
    assertThat(stream.readsWithin()).as("heartbeats still arrive").isTrue();
    assertThat(second.readsWithin()).as("heartbeats still arrive").isTrue();
    assertThat(client("127.0.1.5", port, 5_000).send(REQUEST).reply().status())
        .as("a third")
        .isEqualTo(429);
    assertThat(refusals("head_timeout")).isZero();
    assertThat(refusals("too_many_connections_per_ip")).isEqualTo(1);
  }

  /**
   * Event streams that their client closed stop counting against the per-address cap at once: they
   * counted until a heartbeat failed to be written, the address locked out of the port meanwhile.
   * The heartbeat here is an hour, so only noticing the client going frees them.
   */
  @Test
  void closedEventStreamsStopCountingAgainstTheCapAtOnce() throws Exception {
    int port =
        start(
            new WebLimits(100, 3, Duration.ofSeconds(30), NOBODY),
            InboxStore.memory().build(),
            Duration.ofHours(1));
    for (int i = 0; i < 3; i++) {
      RawHttp stream = client("127.0.1.10", port, 10_000);
      stream.send("GET /api/v1/inboxes/alice/events HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(stream.replyHead().status()).isEqualTo(200);
      stream.close();
    }
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () -> {
              assertThat(server.openEventStreams()).as("streams").isZero();
              assertThat(server.openConnections()).as("connections").isZero();
            });
    assertThat(client("127.0.1.10", port, 10_000).send(REQUEST).reply().status())
        .as("the address is served again")
        .isEqualTo(200);
    assertThat(refusals("too_many_connections_per_ip")).isZero();
  }

  @Test
  void aBrowsersHandfulOfConnectionsNeverMeetsTheDefaultCaps() throws Exception {
    int port = start(WebLimits.defaults(NOBODY));
    List<RawHttp> streams = new ArrayList<>();
    for (int tab = 0; tab < 3; tab++) { // three tabs, each with its live inbox stream
      RawHttp stream = client("127.0.1.6", port, 10_000);
      stream.send("GET /api/v1/inboxes/tab" + tab + "/events HTTP/1.1\r\nHost: x\r\n\r\n");
      streams.add(stream);
    }
    for (int i = 0; i < 6; i++) { // and a browser's six parallel connections per host
      assertThat(client("127.0.1.6", port, 10_000).send(REQUEST).reply().status()).isEqualTo(200);
    }
    for (RawHttp stream : streams) {
      assertThat(stream.replyHead().status()).isEqualTo(200);
    }
    assertThat(refusals("too_many_connections_per_ip")).isZero();
  }

  @Test
  void atTheTotalCapANewClientWaitsUntilAConnectionCloses() throws Exception {
    int port = start(new WebLimits(3, 50, Duration.ofSeconds(30), NOBODY));
    List<RawHttp> held = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      held.add(client("127.0.1.8", port, 10_000));
    }
    await().until(() -> server.openConnections() == 3);
    RawHttp waiting = client("127.0.1.9", port, 1_000).send(REQUEST);
    assertThat(waiting.readsWithin()).as("not served while the port is full").isFalse();
    assertThat(refusals("too_many_connections")).isGreaterThanOrEqualTo(1);
    held.getFirst().close();
    waiting.readTimeout(10_000);
    assertThat(waiting.reply().status()).isEqualTo(200);
  }
}
