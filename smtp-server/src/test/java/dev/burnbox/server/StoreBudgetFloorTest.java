package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.server.smtp.SmtpScript;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --store-max-bytes} has a floor, 1 MiB: a budget below what the store's own tables and the
 * codec's buffers take is refused at start, and the least budget taken keeps to itself while it
 * holds mail.
 */
class StoreBudgetFloorTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Exit(int code, String err) {}

  private static Exit serve(String... args) {
    StringWriter err = new StringWriter();
    CommandLine serve = new ServeCommand(Map.of()).commandLine();
    serve.setOut(new PrintWriter(new StringWriter()));
    serve.setErr(new PrintWriter(err));
    return new Exit(serve.execute(args), err.toString());
  }

  /**
   * Checked with {@code --print-settings} first, which refuses what {@code serve} refuses in the
   * same words and returns either way: a budget taken would start a service that runs until
   * stopped.
   */
  @Test
  void aBudgetBelowTheFloorIsRefusedAtStartInOneLineNamingTheOption() {
    Map<String, Long> budgets = new LinkedHashMap<>();
    budgets.put("1k", 1024L);
    budgets.put("1048575", 1048575L);
    budgets.put("0", 0L);
    budgets.forEach(
        (given, bytes) -> {
          for (String mode : new String[] {"--print-settings", "--smtp-port=0"}) {
            Exit refused = serve("--store-max-bytes=" + given, mode, "--http-port=0");
            assertThat(refused.code()).as("%s %s", given, mode).isEqualTo(2);
            assertThat(refused.err().lines().toList())
                .as("%s %s", given, mode)
                .hasSize(2)
                .first()
                .asString()
                .startsWith("burnbox: --store-max-bytes: must be at least 1MiB (1048576 bytes)")
                .endsWith(": " + bytes);
          }
        });
  }

  /**
   * At the floor, a real service takes mail (5 KB of random letters each, which compress to about 3
   * KB) and keeps the budget: every message is answered 250, the stored bytes never pass 1 MiB, the
   * oldest mail is evicted for the newest, and over a hundred messages are held.
   */
  @Test
  void theFloorHoldsMailAndKeepsToItsBudget() throws Exception {
    long budget = 1L << 20;
    try (BurnboxService service =
        BurnboxService.start(
            ServiceSettings.of(
                "--smtp-port=0",
                "--hostname=burnbox.test",
                "--http-port=0",
                "--no-filters",
                "--store-max-bytes=1m",
                "--shutdown-grace=2s"))) {
      HttpClient http = HttpClient.newHttpClient();
      Random random = new Random(3);
      JsonNode stats = null;
      for (int i = 0; i < 400; i++) {
        try (SmtpScript smtp = SmtpScript.ehlo(service.smtpPort(), "127.0.0.1")) {
          smtp.expectAfter("MAIL FROM:<floor@example.com>", "250");
          smtp.expectAfter("RCPT TO:<box" + i % 40 + "@any.test>", "250");
          smtp.expectAfter("DATA", "354");
          StringBuilder body = new StringBuilder("Subject: floor " + i + "\r\n\r\n");
          for (int k = 1; k <= 5000; k++) {
            body.append((char) ('a' + random.nextInt(26))).append(k % 70 == 0 ? "\r\n" : "");
          }
          assertThat(smtp.send(body + "\r\n.")).as("message %d", i).startsWith("250");
        }
        stats =
            JSON.readTree(
                http.send(
                        HttpRequest.newBuilder(
                                URI.create(
                                    "http://127.0.0.1:" + service.httpPort() + "/api/v1/stats"))
                            .build(),
                        HttpResponse.BodyHandlers.ofString())
                    .body());
        assertThat(stats.get("storedBytes").asLong())
            .as("after message %d", i)
            .isLessThanOrEqualTo(budget);
      }
      assertThat(stats.get("evictions").get("memory_budget").asLong()).isPositive();
      assertThat(stats.get("messages").asLong()).isGreaterThan(100);
    }
  }
}
