package dev.burnbox.bench.smtp;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * How long the web side takes to answer a user while something else (an SMTP blast) loads the
 * service: one client, as a person with a browser, asks in turn for {@code /healthz}, an inbox
 * page, the inbox's JSON listing and the page of its newest message, pausing {@code PAUSE_MS}
 * between requests, for {@code SECONDS}; prints one table row of latencies (one request at a time,
 * so every request's wait is measured, not the client's queue). Inboxes are those the load
 * generator's blast fills ({@code box0} to {@code box999}).
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar dev.burnbox.bench.smtp.WebUnderLoad
 * HTTP_PORT SECONDS [PAUSE_MS]}. Exits 1 if any request fails or answers other than 200.
 */
public final class WebUnderLoad {
  private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");

  private WebUnderLoad() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: WebUnderLoad HTTP_PORT SECONDS [PAUSE_MS]");
      System.exit(2);
    }
    String web = "http://127.0.0.1:" + Integer.parseInt(args[0]);
    long until = System.nanoTime() + Duration.ofSeconds(Long.parseLong(args[1])).toNanos();
    long pauseMillis = args.length > 2 ? Long.parseLong(args[2]) : 200;
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    Histogram micros = new Histogram(60_000_000L, 3);
    int failed = 0;
    for (int i = 0; System.nanoTime() < until; i++) {
      String inbox = "box" + (i * 7919 % 1000);
      try {
        get(http, web + "/healthz", micros);
        get(http, web + "/inbox/" + inbox, micros);
        Matcher id = ID.matcher(get(http, web + "/api/v1/inboxes/" + inbox, micros));
        if (id.find()) {
          get(http, web + "/message/" + id.group(1), micros);
        }
      } catch (IOException e) {
        System.err.println("request failed: " + e.getMessage());
        failed++;
      }
      Thread.sleep(pauseMillis);
    }
    System.out.printf(
        Locale.ROOT,
        "| %d | %.1f | %.1f | %.1f | %.1f | %d |%n",
        micros.getTotalCount(),
        micros.getValueAtPercentile(50) / 1e3,
        micros.getValueAtPercentile(90) / 1e3,
        micros.getValueAtPercentile(99) / 1e3,
        micros.getMaxValue() / 1e3,
        failed);
    if (failed > 0) {
      System.exit(1);
    }
  }

  /** The body of {@code url}, its latency recorded. */
  private static String get(HttpClient http, String url, Histogram micros)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
    micros.recordValue(
        Math.min((System.nanoTime() - start) / 1000, micros.getHighestTrackableValue()));
    if (response.statusCode() != 200) {
      throw new IOException(url + " answered " + response.statusCode());
    }
    return response.body();
  }
}
