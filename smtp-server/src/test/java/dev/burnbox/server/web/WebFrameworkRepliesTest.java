package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.mailstore.DeliveryResult;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxPage;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.IncomingMessage;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.StoreStats;
import dev.burnbox.mailstore.StoredMessage;
import dev.burnbox.mailstore.Subscription;
import dev.burnbox.server.mime.MailDecoder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The replies that Jetty and Javalin write themselves, for requests no route answers: each carries
 * the same security headers as Burnbox's own pages and a generic body, and each refusal is counted
 * by reason. Sent as raw bytes through a real port.
 */
class WebFrameworkRepliesTest {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private WebServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private int start(InboxStore store) {
    server =
        new WebServer(
            "127.0.0.1",
            0,
            store,
            MailDecoder.withDefaults(),
            WebFixture.plainListScanner(),
            registry);
    server.start();
    return server.port();
  }

  private int start() {
    return start(InboxStore.memory().build());
  }

  private static void assertSecurityHeaders(RawHttp.Reply reply) {
    SecurityHeaders.STANDARD.forEach(
        (name, value) -> assertThat(reply.header(name)).as(name).isEqualTo(value));
  }

  private double refusals(String reason) {
    return registry
        .get("burnbox.refusals")
        .tag("stage", "web")
        .tag("reason", reason)
        .counter()
        .count();
  }

  @Test
  void anUnknownHttpVersionIs505WithTheSecurityHeaders() throws Exception {
    RawHttp.Reply reply = RawHttp.exchange(start(), "GET / HTTP/3.7\r\nHost: x\r\n\r\n");
    assertThat(reply.status()).isEqualTo(505);
    assertSecurityHeaders(reply);
    assertThat(reply.body()).isEqualTo("505 HTTP Version Not Supported\n");
    assertThat(refusals("http_version_not_supported")).isEqualTo(1);
  }

  @Test
  void aBadHeaderLineIs400WithTheSecurityHeadersAndABodyThatQuotesNothing() throws Exception {
    int port = start();
    for (String request :
        new String[] {
          "GET / HTTP/1.1\r\nHost: x\r\nBad <script>Header\r\n\r\n",
          "GET / HTTP/1.1\r\nHost: <script>\u0085\u001b[2J:x\r\n\r\n",
          "GET /<script> HTTP/1.1\r\nHost: x\r\n\r\n"
        }) {
      RawHttp.Reply reply = RawHttp.exchange(port, request);
      assertThat(reply.status()).as(request).isEqualTo(400);
      assertSecurityHeaders(reply);
      assertThat(reply.header("Content-Type")).startsWith("text/plain");
      assertThat(reply.body()).isEqualTo("400 Bad Request\n");
    }
    assertThat(refusals("bad_request")).isEqualTo(3);
  }

  @Test
  void aTooLongUriAndATooLargeHeadCarryTheSecurityHeaders() throws Exception {
    int port = start();
    RawHttp.Reply uri =
        RawHttp.exchange(port, "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
    RawHttp.Reply head =
        RawHttp.exchange(
            port, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(10_000) + "\r\n\r\n");
    assertThat(uri.status()).isEqualTo(414);
    assertThat(head.status()).isEqualTo(431);
    assertSecurityHeaders(uri);
    assertSecurityHeaders(head);
    assertThat(refusals("uri_too_long")).isEqualTo(1);
    assertThat(refusals("headers_too_large")).isEqualTo(1);
  }

  @Test
  void anHttp2PrefaceIs426WithTheSecurityHeaders() throws Exception {
    RawHttp.Reply reply = RawHttp.exchange(start(), "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    assertThat(reply.status()).isEqualTo(426);
    assertSecurityHeaders(reply);
  }

  @Test
  void anHttp10RequestWithTransferEncodingIs400AndItsConnectionCloses() throws Exception {
    try (RawHttp http = RawHttp.connect(start())) {
      http.send(
          "POST /message/AAAAAAAAAAAAAAAAAAAAAA/delete HTTP/1.0\r\nConnection: keep-alive\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n"
              + "30\r\nGET /healthz HTTP/1.1\r\nHost: smuggled\r\n\r\n\r\n0\r\n\r\n");
      RawHttp.Reply reply = http.reply();
      assertThat(reply.status()).isEqualTo(400);
      assertThat(reply.header("Connection")).isEqualTo("close");
      assertSecurityHeaders(reply);
      assertThat(http.closedByServer()).as("closed, nothing more answered").isTrue();
    }
    assertThat(refusals("bad_framing")).isEqualTo(1);
  }

  @Test
  void anHttp10RequestWithoutTransferEncodingIsServed() throws Exception {
    RawHttp.Reply reply = RawHttp.exchange(start(), "GET /healthz HTTP/1.0\r\n\r\n");
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body()).contains("ok");
    assertSecurityHeaders(reply);
  }

  @Test
  void anExceptionInARouteIs500WithTheSecurityHeadersAndNoDetail() throws Exception {
    int port = start(new FailingStore(() -> new IllegalStateException("secret store detail")));
    RawHttp.Reply reply =
        RawHttp.exchange(port, "GET /api/v1/inboxes/alice HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(reply.status()).isEqualTo(500);
    assertSecurityHeaders(reply);
    assertThat(reply.body()).doesNotContain("secret").doesNotContain("Exception");
  }

  @Test
  void anErrorThatEscapesTheRoutesIs500WithTheSecurityHeadersAndNoDetail() throws Exception {
    int port = start(new FailingStore(() -> new OutOfMemoryError("secret heap detail")));
    RawHttp.Reply reply = RawHttp.exchange(port, "GET /inbox/alice HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(reply.status()).isEqualTo(500);
    assertSecurityHeaders(reply);
    assertThat(reply.body()).doesNotContain("secret").doesNotContain("Error");
  }

  @Test
  void aRoutesOwnPolicyIsKept() throws Exception {
    WebFixture web = new WebFixture();
    try {
      MessageId id = web.deliver("alice", WebApiTest.MULTIPART);
      RawHttp.Reply reply =
          RawHttp.exchange(
              web.server.port(),
              "GET /message/" + id.value() + "/html HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(reply.header("Content-Security-Policy"))
          .isEqualTo(SecurityHeaders.mailViewPolicy(false, ""));
      assertThat(reply.header("X-Content-Type-Options")).isEqualTo("nosniff");
    } finally {
      web.close();
    }
  }

  /** A store whose every read throws what {@code failure} makes. */
  private record FailingStore(Supplier<Throwable> failure) implements InboxStore {
    private <T> T fail() {
      Throwable t = failure.get();
      if (t instanceof Error error) {
        throw error;
      }
      throw (RuntimeException) t;
    }

    @Override
    public DeliveryResult deliver(IncomingMessage message) {
      return fail();
    }

    @Override
    public InboxPage list(InboxName inbox, int limit, String cursor) {
      return fail();
    }

    @Override
    public List<MessageSummary> newest(int limit) {
      return fail();
    }

    @Override
    public Optional<StoredMessage> get(MessageId id) {
      return fail();
    }

    @Override
    public boolean delete(MessageId id) {
      return fail();
    }

    @Override
    public Subscription subscribe(InboxName inbox, Consumer<? super MessageSummary> listener) {
      return fail();
    }

    @Override
    public StoreStats stats() {
      return fail();
    }
  }
}
