package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.server.smtp.NetworkList;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code GET /api/v1/inboxes/{name}/next} through real HTTP while mail arrives. */
class InboxWaitsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final WebFixture web = new WebFixture();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() {
    web.close();
    http.close();
  }

  private CompletableFuture<HttpResponse<String>> waitFor(String query) {
    return http.sendAsync(
        HttpRequest.newBuilder(URI.create(web.url("/api/v1/inboxes/alice/next" + query))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String subject(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).get("subject").asText();
  }

  /** Lets a wait that was just sent reach the server and subscribe. */
  private static void settle() throws InterruptedException {
    Thread.sleep(300);
  }

  @Test
  void aWaitIsAnsweredByTheNextMailAsSoonAsItArrives() throws Exception {
    web.deliver("alice", WebFixture.textMail("before the wait", "old"));
    CompletableFuture<HttpResponse<String>> waiting = waitFor("?timeout=20s");
    settle();
    assertThat(waiting).isNotDone();
    long start = System.nanoTime();
    MessageId id = web.deliver("alice", WebFixture.textMail("Your code", "Your code is 493027"));
    HttpResponse<String> response = waiting.get(10, TimeUnit.SECONDS);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(subject(response)).isEqualTo("Your code");
    assertThat(JSON.readTree(response.body()).get("text").asText()).contains("493027");
    assertThat(response.headers().firstValue("Location"))
        .hasValue("/api/v1/messages/" + id.value());
  }

  /**
   * Closing the server with a wait open ends the wait before Jetty recycles its request: a wait
   * that completed afterwards sent Javalin's error handling round in a loop on the wait thread.
   */
  @Test
  void closingTheServerEndsItsWaitsFirstWithA503ToTryAgain() throws Exception {
    CompletableFuture<HttpResponse<String>> waiting = waitFor("?timeout=30s");
    settle();
    assertThat(waiting).isNotDone();

    web.close();

    assertThat(web.server.waitsEnded()).as("every wait thread has ended").isTrue();
    assertThat(waiting)
        .as("the client is told to try again, not left hanging")
        .succeedsWithin(Duration.ofSeconds(5))
        .satisfies(
            r -> {
              assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
              assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
              assertThat(JSON.readTree(r.body()).get("error").asText()).contains("stopping");
            });
  }

  @Test
  void chainingAfterReadsEveryMessageOnceInOrderThenTimesOutWith204() throws Exception {
    MessageId first = web.deliver("alice", WebFixture.textMail("one", "1"));
    web.deliver("alice", WebFixture.textMail("two", "2"));
    web.deliver("alice", WebFixture.textMail("three", "3"));
    List<String> read = new ArrayList<>();
    String after = first.value();
    for (int i = 0; i < 2; i++) {
      HttpResponse<String> response = waitFor("?after=" + after + "&timeout=2s").get();
      read.add(subject(response));
      after = JSON.readTree(response.body()).get("id").asText();
    }
    assertThat(read).containsExactly("two", "three");
    HttpResponse<String> none = waitFor("?after=" + after + "&timeout=300ms").get();
    assertThat(none.statusCode()).isEqualTo(204);
  }

  /**
   * A reader that deletes what it read: {@code after} alone cannot place a message that is gone
   * (every message left used to count as newer, so old mail came back); with {@code since} beside
   * it, the chain goes on.
   */
  @Test
  void afterAMessageNoLongerInTheInboxIs404UnlessSinceIsGivenWithIt() throws Exception {
    MessageId first = web.deliver("alice", WebFixture.textMail("one", "1"));
    MessageId second = web.deliver("alice", WebFixture.textMail("two", "2"));
    web.deliver("alice", WebFixture.textMail("three", "3"));
    String receivedAt =
        JSON.readTree(waitFor("?after=" + first.value() + "&timeout=1s").get().body())
            .get("receivedAt")
            .asText();
    assertThat(web.store.delete(second)).isTrue();

    HttpResponse<String> gone = waitFor("?after=" + second.value() + "&timeout=300ms").get();
    assertThat(gone.statusCode()).isEqualTo(404);
    assertThat(JSON.readTree(gone.body()).get("error").asText())
        .contains("is not in this inbox")
        .contains("since=");

    HttpResponse<String> chained =
        waitFor("?after=" + second.value() + "&since=" + receivedAt + "&timeout=1s").get();
    assertThat(subject(chained)).isEqualTo("three");
  }

  @Test
  void afterAMessageOfAnotherInboxIs404SayingSoWithoutNamingIt() throws Exception {
    web.deliver("alice", WebFixture.textMail("alice's", "1"));
    MessageId bobs = web.deliver("bob", WebFixture.textMail("bob's", "2"));

    HttpResponse<String> other = waitFor("?after=" + bobs.value() + "&timeout=300ms").get();
    assertThat(other.statusCode()).isEqualTo(404);
    assertThat(JSON.readTree(other.body()).get("error").asText())
        .contains("a message of another inbox")
        .doesNotContain("bob")
        .doesNotContain("no longer");
  }

  @Test
  void sinceFindsMailThatArrivedBeforeTheWaitStarted() throws Exception {
    Instant before = Instant.now().minusSeconds(1);
    web.deliver("alice", WebFixture.textMail("already here", "x"));
    assertThat(subject(waitFor("?since=" + before + "&timeout=2s").get()))
        .isEqualTo("already here");
  }

  @Test
  void filtersSkipMailThatDoesNotMatch() throws Exception {
    CompletableFuture<HttpResponse<String>> waiting =
        waitFor("?subject=VERIFY&from=ann@example&timeout=20s");
    settle();
    web.deliver("alice", WebFixture.textMail("Weekly news", "not this one"));
    settle();
    assertThat(waiting).isNotDone();
    web.deliver("alice", WebFixture.textMail("Please verify your address", "this one"));
    assertThat(subject(waiting.get(10, TimeUnit.SECONDS))).isEqualTo("Please verify your address");
  }

  @Test
  void badParametersAre400() throws Exception {
    assertThat(waitFor("?timeout=forever").get().statusCode()).isEqualTo(400);
    assertThat(waitFor("?timeout=301s").get().statusCode()).isEqualTo(400);
    assertThat(waitFor("?after=not-an-id").get().statusCode()).isEqualTo(400);
    assertThat(waitFor("?since=yesterday").get().statusCode()).isEqualTo(400);
  }

  private String badParameterError(String query) throws Exception {
    HttpResponse<String> response = waitFor(query).get();
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    return JSON.readTree(response.body()).get("error").asText();
  }

  /**
   * A bad time or duration is echoed (quoted, escaped, cut short), with a hint when it has a space
   * where a + fits: a + that was not URL-encoded arrives as a space.
   */
  @Test
  void aBadTimeValueIsEchoedWithAHintWhenAPlusArrivedAsASpace() throws Exception {
    String hint = "(a + in a URL must be sent as %2B)";
    assertThat(badParameterError("?since=2026-11-28T05:00:00+00:00"))
        .startsWith("since must be an ISO-8601 instant")
        .endsWith("received \"2026-11-28T05:00:00 00:00\" " + hint);
    assertThat(badParameterError("?since=yesterday"))
        .endsWith("received \"yesterday\"")
        .doesNotContain(hint);
    assertThat(badParameterError("?timeout=for%20ever%1b")).endsWith("\"for ever\\u001b\"");
    assertThat(badParameterError("?since=" + "9".repeat(100)))
        .endsWith("received \"" + "9".repeat(QueryParameters.MAX_ECHOED) + "\"...");
  }

  /**
   * The README's URL template with every optional parameter left empty, as a script writes {@code
   * after=${LAST:-}} before it has read anything: an ordinary wait, not a 400.
   */
  @Test
  void emptyOptionalParametersAreAsIfNotGiven() throws Exception {
    HttpResponse<String> none = waitFor("?after=&since=&from=&subject=&timeout=300ms").get();
    assertThat(none.statusCode()).as(none.body()).isEqualTo(204);
    web.deliver("alice", WebFixture.textMail("here", "x"));
    HttpResponse<String> found =
        waitFor("?after=&since=1970-01-01T00:00:00Z&from=&subject=&timeout=").get();
    assertThat(subject(found)).isEqualTo("here");
  }

  @Test
  void oneUntrustedAddressMayHoldOnlySoManyWaits() throws Exception {
    // a server that trusts nobody on loopback
    WebServer server = WebFixture.startedServer(NetworkList.parse("10.9.9.9"), CorsPolicy.NONE);
    try {
      List<CompletableFuture<HttpResponse<String>>> waits = new ArrayList<>();
      for (int i = 0; i <= InboxWaits.MAX_WAITS_PER_ADDRESS; i++) {
        waits.add(
            http.sendAsync(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:"
                                + server.port()
                                + "/api/v1/inboxes/bob/next?timeout=3s"))
                    .build(),
                HttpResponse.BodyHandlers.ofString()));
      }
      List<Integer> statuses = new ArrayList<>();
      for (CompletableFuture<HttpResponse<String>> wait : waits) {
        statuses.add(wait.get(10, TimeUnit.SECONDS).statusCode());
      }
      assertThat(statuses).containsOnly(204, 429);
      assertThat(statuses.stream().filter(s -> s == 429).count()).isEqualTo(1);
      assertThat(get(server, "/metrics").body())
          .as("the 429 is a refusal, counted")
          .contains("burnbox_refusals_total{reason=\"too_many_waits\",stage=\"web\"} 1.0");
      HttpResponse<String> afterwards =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          "http://127.0.0.1:"
                              + server.port()
                              + "/api/v1/inboxes/bob/next?timeout=100ms"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(afterwards.statusCode())
          .as("finished waits give their places back")
          .isEqualTo(204);
    } finally {
      server.close();
    }
  }

  /**
   * Clients that give up on their waits (a {@code curl -m 1}) free their places at once: they held
   * them until the wait's timeout, 429 for every new wait from the address meanwhile.
   */
  @Test
  void waitsWhoseClientsWentGiveTheirPlacesBackAtOnce() throws Exception {
    WebServer server = WebFixture.startedServer(NetworkList.parse("10.9.9.9"), CorsPolicy.NONE);
    List<RawHttp> gone = new ArrayList<>();
    try {
      for (int i = 0; i < InboxWaits.MAX_WAITS_PER_ADDRESS; i++) {
        gone.add(
            RawHttp.connect("127.0.0.1", server.port(), 10_000)
                .send("GET /api/v1/inboxes/bob/next?timeout=60s HTTP/1.1\r\nHost: x\r\n\r\n"));
      }
      await()
          .alias("every place taken")
          .until(() -> get(server, "/api/v1/inboxes/bob/next?timeout=100ms").statusCode() == 429);
      for (RawHttp client : gone) {
        client.close();
      }
      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () ->
                  assertThat(get(server, "/api/v1/inboxes/bob/next?timeout=100ms").statusCode())
                      .as("a place is free again")
                      .isEqualTo(204));
    } finally {
      for (RawHttp client : gone) {
        client.close();
      }
      server.close();
    }
  }

  /** A wait whose client went lets go of its store subscription then, not at its timeout. */
  @Test
  void aWaitWhoseClientWentLetsGoOfItsSubscription() throws Exception {
    try (RawHttp client = RawHttp.connect(web.server.port())) {
      client.send("GET /api/v1/inboxes/alice/next?timeout=60s HTTP/1.1\r\nHost: x\r\n\r\n");
      await().until(() -> web.openSubscriptions.get() == 1);
    }
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(() -> assertThat(web.openSubscriptions.get()).isZero());
  }

  private HttpResponse<String> get(WebServer server, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
