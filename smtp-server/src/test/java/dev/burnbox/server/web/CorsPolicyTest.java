package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.IncomingMessage;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.server.pipeline.PrivateDomains;
import dev.burnbox.server.smtp.NetworkList;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * CORS on the JSON API through real HTTP requests, as a browser sends them (its Origin header and
 * its preflight): allowed origins may read, writes need {@code --cors-writes}, pages never.
 */
class CorsPolicyTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String DASHBOARD = "http://dash.example:3000";
  private WebServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private int start(CorsPolicy cors) {
    server = WebFixture.startedServer(NetworkList.parse("127.0.0.1"), cors);
    return server.port();
  }

  private static HttpResponse<String> send(int port, String method, String path, String... headers)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (headers.length > 0) {
      request.headers(headers);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String allowOrigin(HttpResponse<?> response) {
    return response.headers().firstValue("Access-Control-Allow-Origin").orElse(null);
  }

  @Test
  void anAllowedOriginMayReadTheApiAndNothingElse() throws Exception {
    int port = start(CorsPolicy.parse(DASHBOARD + ", https://other.example", false));
    HttpResponse<String> read = send(port, "GET", "/api/v1/inboxes/alice", "Origin", DASHBOARD);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(allowOrigin(read)).isEqualTo(DASHBOARD);
    assertThat(read.headers().allValues("Vary")).contains("Origin");

    assertThat(
            allowOrigin(
                send(port, "GET", "/api/v1/inboxes/alice", "Origin", "http://evil.example")))
        .isNull();
    assertThat(allowOrigin(send(port, "GET", "/inbox/alice", "Origin", DASHBOARD)))
        .as("pages stay same-origin")
        .isNull();
    assertThat(allowOrigin(send(port, "GET", "/metrics", "Origin", DASHBOARD))).isNull();

    HttpResponse<String> preflight =
        send(
            port,
            "OPTIONS",
            "/api/v1/inboxes/alice",
            "Origin",
            DASHBOARD,
            "Access-Control-Request-Method",
            "GET");
    assertThat(preflight.statusCode()).isEqualTo(204);
    assertThat(allowOrigin(preflight)).isEqualTo(DASHBOARD);
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods"))
        .hasValue("GET, HEAD");

    HttpResponse<String> deletePreflight =
        send(
            port,
            "OPTIONS",
            "/api/v1/messages/AAAAAAAAAAAAAAAAAAAAAA",
            "Origin",
            DASHBOARD,
            "Access-Control-Request-Method",
            "DELETE");
    assertThat(allowOrigin(deletePreflight)).as("writes are not configured").isNull();
  }

  @Test
  void anAllowedOriginMaySendABearerTokenForAPrivateInboxAndReadTheDocumentedHeaders()
      throws Exception {
    InboxStore store = InboxStore.memory().build();
    server =
        WebFixture.startedServer(
            NetworkList.parse("127.0.0.1"),
            new WebAccess(
                CorsPolicy.parse(DASHBOARD, false),
                WebFixture.ADMIN_TOKEN,
                PrivateDomains.parse("team.test"),
                ApiTokens.none()),
            store);
    int port = server.port();
    HttpResponse<String> preflight =
        send(
            port,
            "OPTIONS",
            "/api/v1/inboxes/bob@team.test",
            "Origin",
            DASHBOARD,
            "Access-Control-Request-Method",
            "GET",
            "Access-Control-Request-Headers",
            "authorization");
    assertThat(allowOrigin(preflight)).isEqualTo(DASHBOARD);
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers").orElse(""))
        .containsIgnoringCase("Authorization");

    byte[] raw = WebFixture.textMail("verify", "code 4711").getBytes(StandardCharsets.UTF_8);
    store.deliver(
        new IncomingMessage(
            raw,
            "ann@example.test",
            List.of(InboxName.of("bob", "team.test")),
            Instant.now(),
            "ann@example.test",
            "verify",
            SpamVerdict.CLEAN));
    HttpResponse<String> next =
        send(
            port,
            "GET",
            "/api/v1/inboxes/bob@team.test/next?since=2000-01-01T00:00:00Z&timeout=1",
            "Origin",
            DASHBOARD,
            "Authorization",
            "Bearer " + WebFixture.ADMIN_TOKEN);
    assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
    assertThat(allowOrigin(next)).isEqualTo(DASHBOARD);
    assertThat(next.headers().firstValue("Location")).isPresent();
    assertThat(exposed(next)).contains("Location", "Retry-After", "Content-Disposition");

    HttpResponse<String> noToken =
        send(port, "GET", "/api/v1/inboxes/bob@team.test", "Origin", DASHBOARD);
    assertThat(noToken.statusCode()).isEqualTo(401);
    assertThat(allowOrigin(noToken)).as("the page may read why").isEqualTo(DASHBOARD);
    assertThat(exposed(noToken)).contains("WWW-Authenticate");
  }

  private static List<String> exposed(HttpResponse<?> response) {
    return List.of(
        response.headers().firstValue("Access-Control-Expose-Headers").orElse("").split(",\\s*"));
  }

  @Test
  void writesLetAllowedOriginsDeleteAndAStarAllowsEveryOrigin() throws Exception {
    int port = start(CorsPolicy.parse("*", true));
    HttpResponse<String> preflight =
        send(
            port,
            "OPTIONS",
            "/api/v1/messages/AAAAAAAAAAAAAAAAAAAAAA",
            "Origin",
            "http://anywhere.example",
            "Access-Control-Request-Method",
            "DELETE");
    assertThat(allowOrigin(preflight)).isEqualTo("*");
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods"))
        .hasValue("GET, HEAD, DELETE");
    assertThat(allowOrigin(send(port, "GET", "/api/v1/stats", "Origin", "http://x.example")))
        .isEqualTo("*");
  }

  @Test
  void withoutOriginsNoResponseIsShared() throws Exception {
    int port = start(CorsPolicy.NONE);
    assertThat(allowOrigin(send(port, "GET", "/api/v1/inboxes/alice", "Origin", DASHBOARD)))
        .isNull();
    assertThat(
            allowOrigin(
                send(
                    port,
                    "OPTIONS",
                    "/api/v1/inboxes/alice",
                    "Origin",
                    DASHBOARD,
                    "Access-Control-Request-Method",
                    "GET")))
        .isNull();
  }

  @Test
  void originsAreCheckedAndNormalised() {
    assertThat(CorsPolicy.parse("HTTP://Dash.Example:3000", false).origins())
        .isEqualTo(Set.of("http://dash.example:3000"));
    assertThat(CorsPolicy.parse("", false).enabled()).isFalse();
    assertThatThrownBy(() -> CorsPolicy.parse("dash.example", false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--cors-origins");
    assertThatThrownBy(() -> CorsPolicy.parse("https://dash.example/app", false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CorsPolicy.parse("ftp://dash.example", false))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
