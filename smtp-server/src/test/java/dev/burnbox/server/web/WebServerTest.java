package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.IncomingMessage;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.server.mime.MailDecoder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WebServerTest {
  private final InboxStore store = InboxStore.memory().build();
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final HttpClient http = HttpClient.newHttpClient();
  private WebServer server;

  @BeforeEach
  void start() {
    new StoreMetrics(store).bindTo(registry);
    server =
        new WebServer(
            "127.0.0.1",
            0,
            store,
            MailDecoder.withDefaults(),
            WebFixture.plainListScanner(),
            registry);
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private void deliver(String inbox) {
    store.deliver(
        new IncomingMessage(
            "Subject: hi\r\n\r\nhello\r\n".getBytes(StandardCharsets.US_ASCII),
            "a@b.test",
            List.of(InboxName.of(inbox)),
            Instant.now(),
            "a@b.test",
            "hi",
            SpamVerdict.CLEAN));
  }

  @Test
  void healthzAnswersOk() throws Exception {
    HttpResponse<String> response = get("/healthz");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("\"ok\"");
  }

  @Test
  void healthzAnswers503WhileTheServiceStartsOrStops() throws Exception {
    server.health(WebServer.Health.STARTING);
    HttpResponse<String> starting = get("/healthz");
    assertThat(starting.statusCode()).isEqualTo(503);
    assertThat(starting.body()).contains("\"status\":\"starting\"");

    server.health(WebServer.Health.OK);
    assertThat(get("/healthz").statusCode()).isEqualTo(200);

    server.health(WebServer.Health.STOPPING);
    HttpResponse<String> stopping = get("/healthz");
    assertThat(stopping.statusCode()).isEqualTo(503);
    assertThat(stopping.body()).contains("\"status\":\"stopping\"");
  }

  @Test
  void statsCarriesTheDocumentedFields() throws Exception {
    deliver("alice");
    deliver("bob");
    HttpResponse<String> response = get("/api/v1/stats");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    JsonNode json = new ObjectMapper().readTree(response.body());
    assertThat(json.get("messages").asLong()).isEqualTo(2);
    assertThat(json.get("inboxes").asLong()).isEqualTo(2);
    assertThat(json.get("distinctBytes").asLong()).isPositive();
    assertThat(json.get("logicalBytes").asLong()).isPositive();
    assertThat(json.get("storedBytes").asLong()).isPositive();
    assertThat(json.get("evictions").get("inbox_cap").asLong()).isZero();
    assertThat(json.get("evictions").has("memory_budget")).isTrue();
    assertThat(json.get("evictions").has("ttl")).isTrue();
  }

  @Test
  void metricsArePrometheusTextWithTheStoreGauges() throws Exception {
    deliver("alice");
    HttpResponse<String> response = get("/metrics");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type").orElseThrow())
        .startsWith("text/plain");
    assertThat(response.body())
        .contains("burnbox_store_messages 1.0")
        .contains("burnbox_store_evictions_total{cause=\"ttl\"} 0.0");
  }

  @Test
  void anUnknownApiPathIsAJson404() throws Exception {
    HttpResponse<String> response = get("/api/v1/no/such/thing");
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(new ObjectMapper().readTree(response.body()).get("error").asText())
        .contains("/api/v1/no/such/thing");
  }

  @Test
  void anUnknownPathOutsideTheApiIsTheHtml404Page() throws Exception {
    for (String path : new String[] {"/no/such/thing", "/Inbox/bob", "/apple-touch-icon.png"}) {
      HttpResponse<String> response = get(path);
      assertThat(response.statusCode()).as(path).isEqualTo(404);
      assertThat(response.headers().firstValue("content-type").orElseThrow())
          .as(path)
          .startsWith("text/html");
      assertThat(response.body()).contains("<h1>Not found</h1>").contains(path);
    }
  }
}
