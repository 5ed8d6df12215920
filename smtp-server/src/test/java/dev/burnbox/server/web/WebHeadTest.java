package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.mailstore.MessageId;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code HEAD} answers what {@code GET} answers, headers and all, without the body: sent as raw
 * requests through a real port, each HEAD followed on the same connection by another request, so
 * that a body sent after the HEAD's headers would show up as garbage in front of the next reply.
 */
class WebHeadTest {
  private static final String UNKNOWN_ID = "AAAAAAAAAAAAAAAAAAAAAA";

  private final WebFixture web = new WebFixture();

  @AfterEach
  void stop() {
    web.close();
  }

  /** The GET reply of {@code path}, read whole. */
  private RawHttp.Reply get(String path) throws Exception {
    return RawHttp.exchange(web.server.port(), "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
  }

  /**
   * The HEAD reply of {@code path} (status and headers), after checking that nothing but its head
   * came back: the next request on the connection gets its own reply at once.
   */
  private RawHttp.Reply head(String path) throws Exception {
    try (RawHttp http = RawHttp.connect(web.server.port())) {
      RawHttp.Reply head = http.send("HEAD " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").replyHead();
      RawHttp.Reply next =
          http.send("GET /api/v1/stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").reply();
      assertThat(next.status()).as("the reply after HEAD " + path).isEqualTo(200);
      assertThat(next.body()).startsWith("{\"messages\"");
      return head;
    }
  }

  /** Every header but {@code Date}, which may tick between the two replies. */
  private static Map<String, String> headers(RawHttp.Reply reply) {
    Map<String, String> headers = new LinkedHashMap<>(reply.headers());
    headers.remove("date");
    return headers;
  }

  private void assertHeadIsGetWithoutTheBody(String path, int status) throws Exception {
    RawHttp.Reply get = get(path);
    RawHttp.Reply head = head(path);
    assertThat(get.status()).as("GET " + path).isEqualTo(status);
    assertThat(head.status()).as("HEAD " + path).isEqualTo(status);
    assertThat(headers(head)).as("HEAD " + path).isEqualTo(headers(get));
  }

  @Test
  void headAnswersWhatGetAnswersForEveryKindOfRoute() throws Exception {
    MessageId id = web.deliver("bob", WebApiTest.MULTIPART);
    String message = "/api/v1/messages/" + id;
    assertHeadIsGetWithoutTheBody("/healthz", 200);
    assertHeadIsGetWithoutTheBody("/inbox/bob", 200);
    assertHeadIsGetWithoutTheBody("/message/" + id, 200);
    assertHeadIsGetWithoutTheBody("/message/" + id + "/html", 200);
    assertHeadIsGetWithoutTheBody(message, 200);
    assertHeadIsGetWithoutTheBody(message + "/raw", 200);
    assertHeadIsGetWithoutTheBody(message + "/attachments/0", 200);
    assertHeadIsGetWithoutTheBody("/api/v1/inboxes/bob", 200);
    assertHeadIsGetWithoutTheBody("/static/burnbox.css", 200);
    assertHeadIsGetWithoutTheBody("/api/openapi.json", 200);
    assertHeadIsGetWithoutTheBody("/api/v1/messages/" + UNKNOWN_ID, 404);
    assertHeadIsGetWithoutTheBody("/message/" + UNKNOWN_ID, 404);
    assertHeadIsGetWithoutTheBody("/api/v1/messages/bad", 400);
    assertHeadIsGetWithoutTheBody("/inbox/%3Cx%3E", 400);
    assertHeadIsGetWithoutTheBody("/static/nope.css", 404);
    assertHeadIsGetWithoutTheBody("/no/such/thing", 404);
    assertHeadIsGetWithoutTheBody("/message/" + UNKNOWN_ID + "/delete", 405);
    assertHeadIsGetWithoutTheBody("/inbox/bob@" + WebFixture.PRIVATE_DOMAIN, 401);
    assertHeadIsGetWithoutTheBody("/api/v1/inboxes/bob@" + WebFixture.PRIVATE_DOMAIN, 401);
  }

  @Test
  void headCarriesTheTypeAndLengthOfTheBodyGetSends() throws Exception {
    RawHttp.Reply get = get("/inbox/bob");
    RawHttp.Reply head = head("/inbox/bob");
    assertThat(head.header("Content-Type")).startsWith("text/html");
    assertThat(head.header("Content-Length"))
        .isEqualTo(Integer.toString(get.body().getBytes(StandardCharsets.UTF_8).length));
  }

  @Test
  void aStoppingNodeAnswersAHeadHealthCheckWith503() throws Exception {
    web.server.health(WebServer.Health.STOPPING);
    assertHeadIsGetWithoutTheBody("/healthz", 503);
  }

  @Test
  void headOnAnEventStreamAnswersItsHeadersAndOpensNoStream() throws Exception {
    RawHttp.Reply head = head("/api/v1/inboxes/bob/events");
    assertThat(head.status()).isEqualTo(200);
    assertThat(head.header("Content-Type")).startsWith("text/event-stream");
    assertThat(head.header("Content-Length")).as("a stream has no length").isNull();
    assertThat(web.server.openEventStreams()).isZero();
    assertThat(web.openSubscriptions).hasValue(0);
  }
}
