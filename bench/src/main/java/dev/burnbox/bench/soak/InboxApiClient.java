package dev.burnbox.bench.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the store back the way a user does, through the service's public JSON API: inbox pages
 * ({@code /api/v1/inboxes/{name}}, followed to the last cursor), raw sources ({@code
 * /api/v1/messages/{id}/raw}), deletes, {@code /api/v1/stats} and one gauge of {@code /metrics}.
 * Any answer other than the documented one is an {@link IOException}. Thread-safe.
 */
final class InboxApiClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final String base;

  InboxApiClient(int httpPort) {
    this.base = "http://127.0.0.1:" + httpPort;
  }

  /** The ids of every message in {@code inbox}, newest first, over as many pages as it takes. */
  List<String> ids(String inbox) throws IOException {
    List<String> ids = new ArrayList<>();
    String cursor = null;
    do {
      String path = "/api/v1/inboxes/" + inbox + "?limit=100";
      if (cursor != null) {
        path += "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8);
      }
      JsonNode page = JSON.readTree(get(path, 200));
      for (JsonNode message : page.path("messages")) {
        ids.add(message.path("id").asText());
      }
      JsonNode next = page.path("nextCursor");
      cursor = next.isTextual() ? next.asText() : null;
    } while (cursor != null);
    return ids;
  }

  /** The raw source of message {@code id}, or null if the server says 404. */
  byte[] raw(String id) throws IOException {
    HttpResponse<byte[]> response = send(request("/api/v1/messages/" + id + "/raw").build());
    if (response.statusCode() == 404) {
      return null;
    }
    return expect(response, 200, "raw " + id);
  }

  /** Deletes message {@code id}; true if it was there. */
  boolean delete(String id) throws IOException {
    HttpResponse<byte[]> response = send(request("/api/v1/messages/" + id).DELETE().build());
    if (response.statusCode() == 404) {
      return false;
    }
    expect(response, 204, "delete " + id);
    return true;
  }

  /** {@code /api/v1/stats}. */
  JsonNode stats() throws IOException {
    return JSON.readTree(get("/api/v1/stats", 200));
  }

  /**
   * The service's open SMTP sessions ({@code burnbox_smtp_sessions_active} on {@code /metrics}): a
   * session ends only after the message it was given has been stored or refused.
   */
  int activeSmtpSessions() throws IOException {
    String metrics = new String(get("/metrics", 200), StandardCharsets.UTF_8);
    for (String line : metrics.split("\n")) {
      if (line.startsWith("burnbox_smtp_sessions_active ")) {
        return (int) Double.parseDouble(line.substring(line.indexOf(' ') + 1).strip());
      }
    }
    throw new IOException("no burnbox_smtp_sessions_active on /metrics");
  }

  private byte[] get(String path, int status) throws IOException {
    return expect(send(request(path).build()), status, path);
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
  }

  private HttpResponse<byte[]> send(HttpRequest request) throws IOException {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static byte[] expect(HttpResponse<byte[]> response, int status, String what)
      throws IOException {
    if (response.statusCode() != status) {
      throw new IOException(
          what
              + ": HTTP "
              + response.statusCode()
              + " "
              + new String(response.body(), StandardCharsets.UTF_8));
    }
    return response.body();
  }
}
