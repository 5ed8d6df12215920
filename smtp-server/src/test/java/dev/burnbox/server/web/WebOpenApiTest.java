package dev.burnbox.server.web;

import static java.net.http.HttpRequest.BodyPublishers.noBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.server.smtp.NetworkList;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every operation documented in {@code /api/openapi.json} exists and answers each documented status
 * with the documented headers, content type and, for JSON, the schema's required fields: each
 * status is provoked for real (a private inbox for 401 and 403, a client address holding every wait
 * it may for 429, an unreachable store for 503), and each documented parameter range and optional
 * parameter is tried.
 */
class WebOpenApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UNKNOWN_ID = "AAAAAAAAAAAAAAAAAAAAAA";

  // trusts no client on loopback, as a CI runner is untrusted: its per-address limits apply (429)
  private final WebFixture web = new WebFixture(NetworkList.parse("10.9.9.9"));
  private final HttpClient waits = HttpClient.newHttpClient(); // the waits that fill up places
  private JsonNode spec;
  private String id;
  private String privateId;

  @BeforeEach
  void setUp() throws Exception {
    spec = JSON.readTree(web.get("/api/openapi.json").body());
    id = web.deliver("alice", WebApiTest.MULTIPART).value();
    privateId = web.deliver("alice@" + WebFixture.PRIVATE_DOMAIN, WebApiTest.MULTIPART).value();
  }

  @AfterEach
  void stop() {
    web.close();
    waits.close();
  }

  @Test
  void everyDocumentedRouteAnswersAsDocumented() throws Exception {
    List<String> checked = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> paths = spec.get("paths").fields();
        paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
        Map.Entry<String, JsonNode> op = ops.next();
        String method = op.getKey().toUpperCase(Locale.ROOT);
        for (Iterator<Map.Entry<String, JsonNode>> responses =
                op.getValue().get("responses").fields();
            responses.hasNext(); ) {
          Map.Entry<String, JsonNode> documented = responses.next();
          int status = Integer.parseInt(documented.getKey());
          String url = example(path.getKey(), status);
          check(method, url, status, resolve(documented.getValue()));
          checked.add(method + " " + url + " -> " + status);
        }
      }
    }
    assertThat(checked).hasSizeGreaterThanOrEqualTo(20);
  }

  /**
   * Each optional query parameter of each operation given empty ({@code ?after=}, as URL templates
   * and scripts with unset variables write it) answers what the request without it answers.
   */
  @Test
  void anEmptyOptionalQueryParameterIsTakenAsAbsent() throws Exception {
    List<String> checked = new ArrayList<>();
    for (QueryParameter query : queryParametersOfGets()) {
      JsonNode parameter = query.parameter();
      if (parameter.path("required").asBoolean()) {
        continue;
      }
      String name = parameter.get("name").asText();
      // the first success whose example does not set the parameter already
      for (Iterator<Map.Entry<String, JsonNode>> responses = query.get().get("responses").fields();
          responses.hasNext(); ) {
        Map.Entry<String, JsonNode> documented = responses.next();
        int status = Integer.parseInt(documented.getKey());
        String url = example(query.path(), status);
        if (status / 100 != 2 || url.matches(".*[?&]" + name + "=.*")) {
          continue;
        }
        url += (url.contains("?") ? "&" : "?") + name + "=";
        check("GET", url, status, resolve(documented.getValue()));
        checked.add(url);
        break;
      }
    }
    assertThat(checked).as("every optional query parameter").hasSizeGreaterThanOrEqualTo(10);
  }

  @Test
  void everyApiRouteIsDocumented() {
    assertThat(spec.get("paths").has("/api/v1/inboxes/{name}")).isTrue();
    assertThat(spec.get("paths").has("/api/v1/inboxes/{name}/events")).isTrue();
    assertThat(spec.get("paths").has("/api/v1/inboxes/{name}/next")).isTrue();
    assertThat(spec.get("paths").get("/api/v1/inboxes/{name}").has("delete")).isTrue();
    assertThat(spec.get("paths").has("/api/v1/messages/{id}/links")).isTrue();
    assertThat(spec.get("paths").has("/api/v1/messages/{id}/codes")).isTrue();
    assertThat(spec.get("paths").get("/api/v1/messages/{id}").has("delete")).isTrue();
    assertThat(spec.get("paths").has("/api/v1/messages/{id}/raw")).isTrue();
    assertThat(spec.get("paths").has("/api/v1/messages/{id}/attachments/{n}")).isTrue();
    assertThat(spec.get("paths").has("/api/v1/stats")).isTrue();
    assertThat(spec.get("paths").has("/api/v1/messages")).isTrue();
    assertThat(spec.get("paths").has("/healthz")).isTrue();
    assertThat(spec.get("paths").has("/metrics")).isTrue();
  }

  /**
   * Every route under {@code /api/v1/} reads or changes the store, which on Redis may be out of
   * reach: each says it may answer 503 with {@code Retry-After} (which the replay then provokes).
   */
  @Test
  void everyApiRouteDeclaresItsUnavailability() {
    List<String> operations = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> paths = spec.get("paths").fields();
        paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      if (!path.getKey().startsWith("/api/v1/")) {
        continue;
      }
      path.getValue()
          .fields()
          .forEachRemaining(
              op -> {
                JsonNode unavailable = op.getValue().get("responses").get("503");
                String what = op.getKey() + " " + path.getKey();
                assertThat(unavailable).as(what).isNotNull();
                assertThat(resolve(unavailable).path("headers").has("Retry-After"))
                    .as(what)
                    .isTrue();
                operations.add(what);
              });
    }
    assertThat(operations).hasSizeGreaterThanOrEqualTo(12);
  }

  /**
   * Each integer query parameter with a documented range is taken at its bounds and refused (400)
   * just outside them.
   */
  @Test
  void documentedParameterRangesAreTheServersRanges() throws Exception {
    List<String> checked = new ArrayList<>();
    for (QueryParameter query : queryParametersOfGets()) {
      JsonNode schema = query.parameter().get("schema");
      if (!schema.path("type").asText().equals("integer")) {
        continue;
      }
      JsonNode responses = query.get().get("responses");
      assertThat(responses.has("400"))
          .as("GET " + query.path() + " documents the 400 of a value out of range")
          .isTrue();
      JsonNode badRequest = resolve(responses.get("400"));
      JsonNode ok = resolve(responses.get("200"));
      String url = example(query.path(), 200);
      url += (url.contains("?") ? "&" : "?") + query.parameter().get("name").asText() + "=";
      int minimum = schema.get("minimum").asInt();
      int maximum = schema.get("maximum").asInt();
      check("GET", url + minimum, 200, ok);
      check("GET", url + maximum, 200, ok);
      check("GET", url + (minimum - 1), 400, badRequest);
      check("GET", url + (maximum + 1), 400, badRequest);
      checked.add(url);
    }
    assertThat(checked).as("the limits of a listing and of the operator's list").hasSize(2);
  }

  /** A query parameter of a documented GET: its path template, the operation, the parameter. */
  private record QueryParameter(String path, JsonNode get, JsonNode parameter) {}

  /** Every query parameter of every documented GET, references resolved, in document order. */
  private List<QueryParameter> queryParametersOfGets() {
    List<QueryParameter> all = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> paths = spec.get("paths").fields();
        paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      JsonNode get = path.getValue().get("get");
      if (get == null || !get.has("parameters")) {
        continue;
      }
      for (JsonNode parameter : get.get("parameters")) {
        parameter = resolve(parameter);
        if (parameter.get("in").asText().equals("query")) {
          all.add(new QueryParameter(path.getKey(), get, parameter));
        }
      }
    }
    return all;
  }

  /** A concrete URL for {@code template} that should answer {@code status}. */
  private String example(String template, int status) {
    String messageId = status == 404 ? UNKNOWN_ID : id;
    String name = "alice";
    String n = status == 404 && template.endsWith("{n}") ? "7" : "0";
    if (status == 400) {
      if (template.contains("{id}")) {
        messageId = "bad-id";
      } else {
        name = "bad..name";
      }
    }
    if (status == 404 && template.endsWith("{n}")) {
      messageId = id; // a known message without that attachment
    }
    if (status == 401 || status == 403) { // a private domain's inbox and message
      name = "alice@" + WebFixture.PRIVATE_DOMAIN;
      messageId = privateId;
    }
    String url = template.replace("{name}", name).replace("{id}", messageId).replace("{n}", n);
    if (template.endsWith("/next")) {
      // alice has a message: since the epoch finds it at once; a short timeout finds nothing new;
      // after a message she does not have, nothing tells what came after it
      url +=
          switch (status) {
            case 200 -> "?since=1970-01-01T00:00:00Z";
            case 404 -> "?after=" + UNKNOWN_ID + "&timeout=200ms";
            default -> "?timeout=200ms";
          };
    } else if (status == 400 && url.equals(template)) {
      url += "?limit=0"; // no path parameter to get wrong (the operator's list)
    }
    return url;
  }

  private void check(String method, String url, int status, JsonNode response) throws Exception {
    // a fresh message for each DELETE 204, so the order of checks does not matter
    if (method.equals("DELETE") && status == 204) {
      url = url.replace(id, web.deliver("alice", WebApiTest.MULTIPART).value());
    }
    if (method.equals("DELETE") && url.equals("/api/v1/inboxes/alice")) {
      web.deliver("carol", WebApiTest.MULTIPART);
      url = "/api/v1/inboxes/carol"; // emptying alice would take the message the other checks read
    }
    boolean operatorList = url.matches("/api/v1/messages([?].*)?");
    HttpRequest.Builder builder = HttpRequest.newBuilder().method(method, noBody());
    if (operatorList && status != 401) {
      builder.header("Authorization", "Bearer " + WebFixture.ADMIN_TOKEN); // the operator's list
    }
    if (status == 403) {
      builder.header("Authorization", "Bearer " + WebFixture.OTHER_DOMAIN_TOKEN);
    }
    // the service says 503 while it starts; a server of its own is ready
    web.server.health(status == 503 ? WebServer.Health.STARTING : WebServer.Health.OK);
    // the other routes say 503 when the store is out of reach
    web.storeDown.set(status == 503 && !url.equals("/healthz"));
    List<CompletableFuture<HttpResponse<Void>>> held =
        status == 429 ? holdEveryWaitOfThisAddress() : List.of();
    try (HttpClient http = HttpClient.newHttpClient()) {
      if (operatorList && status == 404) { // the operator endpoints are off without a token
        try (WebServer off = WebFixture.startedServer(NetworkList.parse(""), CorsPolicy.NONE)) {
          answers(http, builder, "http://127.0.0.1:" + off.port() + url, status, response);
        }
      } else {
        answers(http, builder, web.url(url), status, response);
      }
    } finally {
      web.storeDown.set(false);
      if (!held.isEmpty()) {
        web.deliver(HOLDER, WebApiTest.MULTIPART); // ends the held waits
        for (CompletableFuture<HttpResponse<Void>> wait : held) {
          assertThat(wait.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
      }
    }
  }

  /** The inbox the waits that fill this client address's places wait on. */
  private static final String HOLDER = "holder";

  /**
   * Opens as many waits as one untrusted address may hold, and returns once each is subscribed;
   * mail to {@link #HOLDER} ends them.
   */
  private List<CompletableFuture<HttpResponse<Void>>> holdEveryWaitOfThisAddress()
      throws InterruptedException {
    awaitSubscriptions(0); // the event streams of earlier checks have let go
    List<CompletableFuture<HttpResponse<Void>>> held = new ArrayList<>();
    for (int i = 0; i < InboxWaits.MAX_WAITS_PER_ADDRESS; i++) {
      held.add(
          waits.sendAsync(
              HttpRequest.newBuilder(
                      URI.create(web.url("/api/v1/inboxes/" + HOLDER + "/next?timeout=60s")))
                  .build(),
              HttpResponse.BodyHandlers.discarding()));
    }
    awaitSubscriptions(held.size());
    return held;
  }

  private void awaitSubscriptions(int open) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (web.openSubscriptions.get() != open && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(web.openSubscriptions.get()).as("open store subscriptions").isEqualTo(open);
  }

  /** Sends the request to {@code url} and checks the answer against the documented response. */
  private void answers(
      HttpClient http, HttpRequest.Builder builder, String url, int status, JsonNode response)
      throws Exception {
    HttpResponse<InputStream> answer =
        http.send(builder.uri(URI.create(url)).build(), HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = answer.body()) {
      String what = builder.build().method() + " " + url;
      assertThat(answer.statusCode()).as(what).isEqualTo(status);
      for (Iterator<String> headers = response.path("headers").fieldNames(); headers.hasNext(); ) {
        String header = headers.next();
        assertThat(answer.headers().firstValue(header)).as(what + " has " + header).isPresent();
      }
      JsonNode content = response.get("content");
      if (content == null) {
        return;
      }
      String type = content.fieldNames().next();
      assertThat(answer.headers().firstValue("content-type").orElseThrow())
          .as(what)
          .startsWith(type);
      if (type.equals("application/json")) {
        JsonNode json = JSON.readTree(body.readAllBytes());
        for (String field : requiredFields(content.get(type).get("schema"))) {
          assertThat(json.has(field)).as(what + " has " + field).isTrue();
        }
      }
    }
  }

  private List<String> requiredFields(JsonNode schema) {
    List<String> fields = new ArrayList<>();
    schema = resolve(schema);
    if (schema.has("allOf")) {
      schema.get("allOf").forEach(part -> fields.addAll(requiredFields(part)));
    }
    if (schema.has("required")) {
      schema.get("required").forEach(field -> fields.add(field.asText()));
    }
    return fields;
  }

  private JsonNode resolve(JsonNode node) {
    while (node.has("$ref")) {
      node = spec.at(node.get("$ref").asText().substring(1));
    }
    return node;
  }
}
