package dev.burnbox.server.attack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.server.web.RawHttp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Attacks on the web port of the whole service, run as its own JVM with {@code -Xmx1g} and the
 * default web limits (issue 23): an inbox of 20 mails with 1 MiB subjects, 50 connections that
 * trickle a header line every 5 s, a bad HTTP version and a bad header line, an HTTP/1.0 request
 * with {@code Transfer-Encoding: chunked}, a flood of {@code Host} headers with control characters,
 * and {@code /metrics} moved to a port of its own. Attackers come from untrusted loopback addresses
 * (nothing is trusted here). The size and time bounds are the issue's, with wide margins against
 * the measured figures, which go to stdout and {@code target/web-attack-report.md}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebAttackTest {
  private static final Pattern METRICS_PORT = Pattern.compile("listening .* metrics=(\\d+)");
  private static final String INBOX = "big";

  private static AttackedService service;
  private static int metricsPort;
  private static final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private static final List<String> report = new ArrayList<>();

  @BeforeAll
  static void startService() throws IOException {
    Path dir = Path.of("target", "web-attack");
    Files.createDirectories(dir);
    // the service logs as in production (BurnboxLogging: its filters and pattern)
    service =
        AttackedService.start(
            dir, "1g", List.of("--trusted-networks=10.255.255.255/32", "--metrics-port=0"));
    Matcher port = METRICS_PORT.matcher(service.log());
    assertThat(port.find()).as("the metrics port in the listening line").isTrue();
    metricsPort = Integer.parseInt(port.group(1));
  }

  @AfterAll
  static void stopService() throws Exception {
    if (service != null) {
      service.close();
    }
    http.close();
    report.forEach(System.out::println);
    Files.write(Path.of("target", "web-attack-report.md"), report);
  }

  private record Timed(int status, long bytes, long millis, String body) {}

  private static Timed get(int port, String path) throws Exception {
    long start = System.nanoTime();
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    return new Timed(
        response.statusCode(),
        response.body().getBytes(StandardCharsets.UTF_8).length,
        millis,
        response.body());
  }

  /** A Subject header of at least 1 MiB, folded into lines of about 78 characters. */
  private static String foldedSubject() {
    StringBuilder subject = new StringBuilder("Subject: Win");
    while (subject.length() < (1 << 20)) {
      subject.append("\r\n ").append("prize ".repeat(12));
    }
    return subject.append("\r\n").toString();
  }

  @Test
  @Order(1)
  void twentyMailsWithOneMibSubjectsLeaveTheInboxPageAndListingUnder1MbAnd2s() throws Exception {
    byte[] headers =
        ("From: Flood <flood@attack.test>\r\n" + foldedSubject())
            .getBytes(StandardCharsets.US_ASCII);
    byte[] content = "\r\nbody\r\n".getBytes(StandardCharsets.US_ASCII);
    try (RawSmtp smtp = new RawSmtp("127.0.1.1", service.smtpPort(), 60_000)) {
      assertThat(smtp.reply()).isEqualTo("220");
      assertThat(smtp.command("EHLO flood.attack.test")).isEqualTo("250");
      for (int i = 0; i < 20; i++) {
        assertThat(smtp.send(INBOX + "@burnbox.test", headers, content)).isEqualTo("250");
      }
    }
    List<String> figures = new ArrayList<>();
    for (String path : List.of("/inbox/" + INBOX, "/api/v1/inboxes/" + INBOX)) {
      for (int load = 0; load < 3; load++) {
        Timed page = get(service.httpPort(), path);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.bytes()).as(path + " bytes").isLessThan(1_000_000);
        assertThat(page.millis()).as(path + " ms").isLessThan(2_000);
        assertThat(page.body()).contains("\u2026");
        figures.add("%s %d B %d ms".formatted(path, page.bytes(), page.millis()));
      }
    }
    String id =
        get(service.httpPort(), "/api/v1/inboxes/" + INBOX)
            .body()
            .replaceAll("(?s).*?\"id\":\"([^\"]+)\".*", "$1");
    Timed message = get(service.httpPort(), "/message/" + id);
    Timed json = get(service.httpPort(), "/api/v1/messages/" + id);
    assertThat(message.bytes()).isLessThan(1_000_000);
    assertThat(json.bytes()).isLessThan(1_000_000);
    figures.add("/message/{id} %d B %d ms".formatted(message.bytes(), message.millis()));
    figures.add("/api/v1/messages/{id} %d B %d ms".formatted(json.bytes(), json.millis()));
    report.add("20 mails with 1 MiB folded subjects, -Xmx1g: " + String.join("; ", figures));
  }

  @Test
  @Order(2)
  void fiftyConnectionsTricklingAHeaderLineEvery5sAreCutWithin45s() throws Exception {
    ConcurrentLinkedQueue<Long> cutAfterMillis = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    List<Timed> honest = new ArrayList<>();
    long start = System.nanoTime();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 50; i++) {
        String source = "127.0.2." + (1 + i % 5); // 10 connections from each of 5 addresses
        threads.execute(() -> trickle(source, cutAfterMillis, failures));
      }
      while (cutAfterMillis.size() + failures.size() < 50
          && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(60)) {
        honest.add(get(service.httpPort(), "/healthz"));
        Thread.sleep(1000);
      }
    }
    assertThat(failures).isEmpty();
    assertThat(cutAfterMillis).hasSize(50).allSatisfy(ms -> assertThat(ms).isLessThan(45_000));
    assertThat(honest).allSatisfy(h -> assertThat(h.status()).isEqualTo(200));
    long slowestHonest = honest.stream().mapToLong(Timed::millis).max().orElse(-1);
    report.add(
        "50 connections trickling a header line every 5 s: cut after %d-%d ms; /healthz meanwhile"
                .formatted(
                    cutAfterMillis.stream().mapToLong(Long::longValue).min().orElseThrow(),
                    cutAfterMillis.stream().mapToLong(Long::longValue).max().orElseThrow())
            + " %d answers, slowest %d ms".formatted(honest.size(), slowestHonest));
    assertThat(metric("burnbox_refusals_total{reason=\"head_timeout\",stage=\"web\"}"))
        .isGreaterThanOrEqualTo(50);
  }

  /** One connection that sends a request line, then a header line every 5 s until it is cut. */
  private static void trickle(
      String source,
      ConcurrentLinkedQueue<Long> cutAfterMillis,
      ConcurrentLinkedQueue<String> failures) {
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
      socket.connect(new InetSocketAddress("127.0.0.1", service.httpPort()), 10_000);
      long connected = System.nanoTime();
      socket.setSoTimeout(5_000);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      out.write(
          "GET /inbox/big HTTP/1.1\r\nHost: burnbox.test\r\n".getBytes(StandardCharsets.US_ASCII));
      for (int line = 0; ; line++) {
        try {
          int read = in.read();
          if (read != -1) {
            failures.add(source + ": the server answered a request that never ended");
            return;
          }
          break; // end of stream: cut
        } catch (SocketTimeoutException stillOpen) {
          try {
            out.write(("X-Trickle-" + line + ": y\r\n").getBytes(StandardCharsets.US_ASCII));
          } catch (IOException cut) {
            break;
          }
        } catch (IOException reset) {
          break;
        }
      }
      cutAfterMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - connected));
    } catch (IOException e) {
      failures.add(source + ": " + e);
    }
  }

  @Test
  @Order(3)
  void aBadVersionAndABadHeaderLineAreAnsweredWithTheSecurityHeaders() throws Exception {
    RawHttp.Reply version =
        RawHttp.exchange(service.httpPort(), "GET / HTTP/1.7\r\nHost: burnbox.test\r\n\r\n");
    RawHttp.Reply header =
        RawHttp.exchange(
            service.httpPort(), "GET / HTTP/1.1\r\nHost: burnbox.test\r\nNo Colon Here\r\n\r\n");
    assertThat(version.status()).isEqualTo(505);
    assertThat(header.status()).isEqualTo(400);
    for (RawHttp.Reply reply : List.of(version, header)) {
      assertThat(reply.header("Content-Security-Policy")).startsWith("default-src 'self'");
      assertThat(reply.header("X-Content-Type-Options")).isEqualTo("nosniff");
      assertThat(reply.body()).doesNotContain("Colon").doesNotContain("<");
    }
    report.add(
        "505 and 400 headers: "
            + version.headers().keySet()
            + "; bodies: "
            + version.body().strip()
            + " / "
            + header.body().strip());
  }

  @Test
  @Order(4)
  void anHttp10RequestWithChunkedFramingIs400AndItsConnectionCloses() throws Exception {
    try (RawHttp raw = RawHttp.connect("127.0.1.2", service.httpPort(), 10_000)) {
      raw.send(
          "POST /api/v1/messages/AAAAAAAAAAAAAAAAAAAAAA HTTP/1.0\r\nConnection: keep-alive\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
              + "GET /healthz HTTP/1.0\r\n\r\n");
      RawHttp.Reply reply = raw.reply();
      assertThat(reply.status()).isEqualTo(400);
      assertThat(reply.header("Connection")).isEqualTo("close");
      assertThat(raw.closedByServer()).as("the pipelined request is not answered").isTrue();
      report.add(
          "HTTP/1.0 + Transfer-Encoding: chunked: " + reply.status() + ", connection closed");
    }
  }

  @Test
  @Order(5)
  void aFloodOfHostHeadersWithControlCharactersLeavesAFewEscapedLogLines() throws Exception {
    long linesBefore = service.log().lines().count();
    for (int i = 0; i < 500; i++) {
      RawHttp.Reply reply =
          RawHttp.exchange(
              service.httpPort(), "GET / HTTP/1.1\r\nHost: evil\u0085\u009b31m[" + i + "\r\n\r\n");
      assertThat(reply.status()).isEqualTo(400);
    }
    List<String> written = service.log().lines().skip(linesBefore).toList();
    assertThat(written).hasSizeLessThan(10);
    assertThat(written).noneMatch(line -> line.matches("(?s).*[\\p{Cc}\u0085\u009b].*"));
    assertThat(String.join("\n", written)).contains("\\u0085");
    report.add("500 bad Host headers with C1 controls: %d log lines".formatted(written.size()));
  }

  @Test
  @Order(6)
  void metricsAreServedOnTheirOwnPortOnly() throws Exception {
    assertThat(get(service.httpPort(), "/metrics").status()).isEqualTo(404);
    Timed metrics = get(metricsPort, "/metrics");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metric("burnbox_refusals_total{reason=\"bad_framing\",stage=\"web\"}")).isEqualTo(1);
    assertThat(
            metric("burnbox_refusals_total{reason=\"http_version_not_supported\",stage=\"web\"}"))
        .isGreaterThanOrEqualTo(1);
    assertThat(metric("burnbox_refusals_total{reason=\"bad_request\",stage=\"web\"}"))
        .isGreaterThanOrEqualTo(501);
  }

  @Test
  @Order(7)
  void healthzStillAnswersAfterAllOfIt() throws Exception {
    assertThat(get(service.httpPort(), "/healthz").status()).isEqualTo(200);
    assertThat(service.alive()).isTrue();
    assertThat(service.log()).doesNotContain("OutOfMemoryError");
  }

  /** One sample of {@code /metrics} on the metrics port, e.g. {@code name{labels}}. */
  private static double metric(String sample) throws Exception {
    for (String line : get(metricsPort, "/metrics").body().split("\n")) {
      if (line.startsWith(sample + " ")) {
        return Double.parseDouble(line.substring(sample.length() + 1));
      }
    }
    throw new AssertionError("no sample " + sample);
  }
}
