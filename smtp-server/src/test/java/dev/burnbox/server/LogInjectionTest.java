package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import dev.burnbox.server.smtp.SmtpScript;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Hostile text in HELO names, commands, addresses, headers and subjects, sent over SMTP to the
 * whole service, and in web requests, neither forges nor breaks log lines, and floods of refusals
 * or client-triggered SubEtha warnings do not flood the log. The log is captured as the service
 * writes it in production: {@link BurnboxLogging} (levels, filters, pattern) writing to standard
 * error.
 */
class LogInjectionTest {
  private static final String ATTACKER = "127.0.0.2";

  /** What a log reader must never see raw: line breaks, terminal escapes, NUL, bidi overrides. */
  private static final String POISON =
      "\u0000\u0007\u001b[2J\u001b[31m\u007f\u0085\u2028\u2029\u202e\u200b";

  /** A complete forged log line, to be smuggled after a line break. */
  private static final String FORGED = "12:00:00.000 ERROR d.b.s.BurnboxService - FORGED";

  /** The start of every line the production pattern writes. */
  private static final Pattern LOG_LINE =
      Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (TRACE|DEBUG|INFO |WARN |ERROR) \\S+ - .*");

  private static final Pattern STACK_TRACE_LINE =
      Pattern.compile(
          "^(\tat |\t\\.\\.\\. \\d+ (common )?frames omitted|Caused by: |[\\w.$]+: ).*");

  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
  private PrintStream originalErr;
  private BurnboxService service;

  @BeforeEach
  void productionLoggingToACapturedStandardError() throws Exception {
    originalErr = System.err;
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    BurnboxLogging.configureService(context);
    service =
        BurnboxService.start(
            ServiceSettings.of(
                "--smtp-port=0",
                "--bind=127.0.0.1",
                "--hostname=mx.burnbox.test",
                "--domains=burnbox.test",
                "--trusted-networks=127.0.0.1",
                "--max-recipients=3",
                "--http-port=0",
                "--spam=reject",
                "--shutdown-grace=2s"));
  }

  @AfterEach
  void restoreTestLogging() throws Exception {
    try {
      if (service != null) {
        service.close();
      }
    } finally {
      System.setErr(originalErr);
      LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
      context.reset();
      new ContextInitializer(context).autoConfig();
    }
  }

  private SmtpScript attacker() throws IOException {
    return SmtpScript.ehlo(service.smtpPort(), ATTACKER);
  }

  private List<String> logLines() {
    return captured.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void clientTextNeitherForgesNorBreaksLogLines() throws Exception {
    String hostile = POISON + FORGED + POISON;
    try (SmtpScript smtp = SmtpScript.connect(service.smtpPort(), ATTACKER)) {
      smtp.expect("220");
      // HELO name (syntax refusal, logged with the command line)
      assertThat(smtp.send("EHLO evil" + hostile)).startsWith("501 5.5.4");
      smtp.expectAfter("EHLO client.test", "250");
      // a long sender address with control characters (a command line holds at most 998)
      assertThat(smtp.send("MAIL FROM:<a" + hostile + "x".repeat(800) + "@example.org>"))
          .startsWith("501 5.1.7");
      // SMTPUTF8, so that non-ASCII recipients reach the domain and inbox name checks
      smtp.expectAfter("MAIL FROM:<a@example.org> SMTPUTF8", "250");
      // recipient with control characters; a domain not served; a local part that is no inbox
      assertThat(smtp.send("RCPT TO:<b" + hostile + "@burnbox.test>")).startsWith("501 5.1.3");
      String separators = "\u2028\u2029\u202eFORGED"; // addresses hold no spaces
      assertThat(smtp.send("RCPT TO:<b@evil" + separators + ".test>")).startsWith("550 5.7.1");
      assertThat(smtp.send("RCPT TO:<b" + separators + "@burnbox.test>")).startsWith("553 5.1.3");
      // unknown verbs and AUTH carrying escapes
      assertThat(smtp.send("X" + hostile)).startsWith("500");
      assertThat(smtp.send("AUTH PLAIN " + hostile)).startsWith("538 5.7.11");
      // headers and a subject that decode to CR, LF, ESC and NUL, in spam that is refused
      smtp.expectAfter("RCPT TO:<b@burnbox.test>", "250");
      smtp.expectAfter("DATA", "354");
      assertThat(
              smtp.send(
                  "Subject: =?UTF-8?Q?win=0D=0A"
                      + FORGED.replace(' ', '_')
                      + "=1B=5B2J=00?=\r\n"
                      + "From: =?UTF-8?B?"
                      + java.util.Base64.getEncoder()
                          .encodeToString(("x\r\n" + FORGED).getBytes(StandardCharsets.UTF_8))
                      + "?= <a@example.org>\r\n"
                      + "X-Evil: "
                      + "e".repeat(900)
                      + "\r\n\r\n"
                      + "Claim your prize now! Act now, limited time offer: 100% free, no credit"
                      + " check, risk free, cash bonus. Click here. Act now!\r\n"
                      + POISON
                      + "\r\n."))
          .isEqualTo("550 5.7.1 Message rejected as spam");
    }
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> logLines().stream().filter(line -> line.contains(" refused ")).count() >= 7);

    List<String> lines = logLines();
    assertThat(lines).as("captured log").isNotEmpty();
    for (String line : lines) {
      assertThat(line).as("a whole log line").matches(LOG_LINE);
      assertThat(line)
          .as("no raw control, separator or bidi character")
          .doesNotContainPattern("[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]");
    }
    String log = String.join("\n", lines);
    // the hostile values were logged, escaped and bounded, not dropped
    assertThat(log)
        .contains("refused syntax from " + ATTACKER + " (EHLO evil\\u0000\\u0007\\u001b[2J");
    assertThat(log).contains("\\u2028\\u2029\\u202e\\u200b12:00:00.000 ERROR d.b.s.BurnboxService");
    assertThat(log).contains("(b@evil\\u2028\\u2029\\u202eFORGED.test)");
    assertThat(log).contains("refused bad_sender_address").contains("refused unserved_domain");
    assertThat(log).contains("refused bad_mailbox_name from").contains("refused spam from");
    assertThat(log).contains("refused auth_needs_tls from " + ATTACKER + " (PLAIN \\u0000");
    assertThat(lines.stream().filter(line -> line.contains(" refused ")))
        .allSatisfy(line -> assertThat(line.length()).isLessThan(300));
  }

  @Test
  void floodsOfRefusalsAndSubEthaWarningsCostAFewLines() throws Exception {
    int refusals = 3000;
    try (SmtpScript smtp = attacker()) {
      smtp.expectAfter("MAIL FROM:<a@example.org>", "250");
      StringBuilder flood = new StringBuilder();
      for (int i = 0; i < refusals; i++) {
        flood.append("RCPT TO:<r").append(i).append("@burnbox.test>\r\n");
      }
      Thread writer = writeAside(smtp.socket().getOutputStream(), flood.toString());
      for (int i = 0; i < refusals; i++) {
        smtp.reply();
      }
      assertThat(writer.join(Duration.ofSeconds(10))).isTrue();
    }
    // each of these makes SubEtha log a warning with a stack trace of some thirty lines
    int brokenTls = 20;
    for (int i = 0; i < brokenTls; i++) {
      sendAForgedTlsRecordAfterStartTls();
    }
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> service.registry().get("burnbox.smtp.sessions.active").gauge().value() == 0);

    List<String> lines = logLines();
    List<String> events = lines.stream().filter(line -> LOG_LINE.matcher(line).matches()).toList();
    assertThat(events.stream().filter(line -> line.contains("refused too_many_recipients")))
        .hasSize(1);
    assertThat(events.stream().filter(line -> line.contains("Exception during SMTP transaction")))
        .hasSize(1);
    assertThat(lines).as("the whole log").hasSizeLessThan(80);
    assertThat(lines)
        .allSatisfy(
            line ->
                assertThat(
                        LOG_LINE.matcher(line).matches()
                            || STACK_TRACE_LINE.matcher(line).matches())
                    .as(line)
                    .isTrue());
  }

  @Test
  void hostileWebRequestsPutNothingRawInTheLog() throws Exception {
    String poison = "%0d%0a" + "%1b%5b2J" + "%00" + "%e2%80%a8" + "%c2%85";
    String forged = poison + "12:00:00.000%20ERROR%20d.b.s.BurnboxService%20-%20FORGED";
    List<String> paths =
        List.of(
            "/inbox/" + forged,
            "/inbox?name=" + forged,
            "/message/" + forged,
            "/message/" + forged + "/html?images=" + poison,
            "/api/v1/inboxes/" + forged + "?limit=" + poison + "&cursor=" + poison,
            "/api/v1/inboxes/" + forged + "/events",
            "/api/v1/messages/" + forged + "/raw",
            "/api/v1/messages/" + forged + "/attachments/" + poison,
            "/static/" + forged,
            "/" + forged);
    for (String path : paths) {
      for (String method : List.of("GET", "DELETE")) {
        String status =
            rawHttp(
                method
                    + " "
                    + path
                    + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: \u001b[2J"
                    + FORGED
                    + "\r\nX-Forwarded-For: \u001b]0;pwned\u0007\u0000\r\nConnection: close\r\n\r\n");
        assertThat(status).as(method + " " + path).matches("HTTP/1\\.1 [34]\\d\\d .*");
      }
    }
    // raw control characters in the request line and the headers themselves
    assertThat(
            rawHttp(
                "GET /inbox/a\u001b[2J\u0000b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        .matches("HTTP/1\\.1 4\\d\\d .*");
    assertThat(
            rawHttp(
                "GET /inbox/a HTTP/1.1\r\nHost: x\r\nX-A: b\rFORGED\r\nConnection: close\r\n\r\n"))
        .matches("HTTP/1\\.1 4\\d\\d .*");
    for (String line : logLines()) {
      assertThat(line).as("a whole log line").matches(LOG_LINE);
      assertThat(line).doesNotContain("FORGED").doesNotContainPattern("[\\p{Cc}\\p{Zl}]");
    }
  }

  /** Sends one raw HTTP request (ISO-8859-1 bytes as written) and returns the status line. */
  private String rawHttp(String request) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), service.httpPort())) {
      socket.setSoTimeout(5000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return response.lines().findFirst().orElse("");
    }
  }

  /** STARTTLS, a real handshake, then a TLS record that cannot be decrypted. */
  private void sendAForgedTlsRecordAfterStartTls() throws Exception {
    try (SmtpScript smtp = attacker()) {
      OutputStream plain = smtp.socket().getOutputStream();
      assertThat(smtp.send("STARTTLS")).startsWith("220");
      SSLSocket secure =
          (SSLSocket)
              SmtpScript.trustingEveryone()
                  .getSocketFactory()
                  .createSocket(smtp.socket(), "localhost", smtp.socket().getPort(), true);
      secure.setUseClientMode(true);
      secure.startHandshake();
      secure.getOutputStream().write("NOOP\r\n".getBytes(StandardCharsets.US_ASCII));
      assertThat(secure.getInputStream().readNBytes(4)).isEqualTo("250 ".getBytes());
      plain.write(new byte[] {0x17, 0x03, 0x03, 0x00, 0x05, 1, 2, 3, 4, 5});
      plain.flush();
      secure.getInputStream().read(); // returns or throws when the server ends the session
    } catch (IOException expected) {
      // the server ends the session; how the client notices does not matter
    }
  }

  private static Thread writeAside(OutputStream out, String text) {
    return Thread.ofVirtual()
        .start(
            () -> {
              try {
                out.write(text.getBytes(StandardCharsets.US_ASCII));
                out.flush();
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
  }
}
