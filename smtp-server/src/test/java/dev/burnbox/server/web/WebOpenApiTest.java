package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every operation documented in {@code /api/openapi.json} exists and answers each documented status
 * with the documented content type and, for JSON, the schema's required fields.
 */
class WebOpenApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UNKNOWN_ID = "AAAAAAAAAAAAAAAAAAAAAA";

  private final WebFixture web = new WebFixture();
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
    for (Iterator<Map.Entry<String, JsonNode>> paths = spec.get("paths").fields();
        paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      JsonNode get = path.getValue().get("get");
      if (get == null || !get.has("parameters")) {
        continue;
      }
      for (JsonNode parameter : get.get("parameters")) {
        parameter = resolve(parameter);
        if (!parameter.get("in").asText().equals("query")
            || parameter.path("required").asBoolean()) {
          continue;
        }
        String name = parameter.get("name").asText();
        // the first success whose example does not set the parameter already
        for (Iterator<Map.Entry<String, JsonNode>> responses = get.get("responses").fields();
            responses.hasNext(); ) {
          Map.Entry<String, JsonNode> documented = responses.next();
          int status = Integer.parseInt(documented.getKey());
          String url = example(path.getKey(), status);
          if (status / 100 != 2 || url.matches(".*[?&]" + name + "=.*")) {
            continue;
          }
          url += (url.contains("?") ? "&" : "?") + name + "=";
          check("GET", url, status, resolve(documented.getValue()));
          checked.add(url);
          break;
        }
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
      // alice has a message: since the epoch finds it at once; a short timeout finds nothing new
      url += status == 200 ? "?since=1970-01-01T00:00:00Z" : "?timeout=200ms";
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
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(web.url(url)))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (url.startsWith("/api/v1/messages")
        && !url.startsWith("/api/v1/messages/")
        && status != 401) {
      builder.header("Authorization", "Bearer " + WebFixture.ADMIN_TOKEN); // the operator's list
    }
    if (status == 403) {
      builder.header("Authorization", "Bearer " + WebFixture.OTHER_DOMAIN_TOKEN);
    }
    HttpRequest request = builder.build();
    // the service says 503 while it starts; a server of its own is ready
    web.server.health(status == 503 ? WebServer.Health.STARTING : WebServer.Health.OK);
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<InputStream> answer =
          http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream body = answer.body()) {
        String what = method + " " + url;
        assertThat(answer.statusCode()).as(what).isEqualTo(status);
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
