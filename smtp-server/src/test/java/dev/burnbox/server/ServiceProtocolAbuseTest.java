package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.server.smtp.SmtpScript;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole service (intake, pipeline, store, web API) under protocol abuse: whatever a hostile
 * client sends, nothing half-received, refused or smuggled is stored, and an honest client is
 * served and its mail stored byte for byte afterwards. The reply-by-reply cases are in {@code
 * smtp/SmtpIntakeAbuseTest}.
 */
class ServiceProtocolAbuseTest {
  private static final String ATTACKER = "127.0.0.2";
  private static final String SPAM_BODY =
      "Claim your prize now! Act now, limited time offer: 100% free, no credit check, risk free,"
          + " cash bonus. Click here. Act now!";

  private BurnboxService service;

  @BeforeEach
  void start() throws IOException {
    service =
        BurnboxService.start(
            ServiceSettings.of(
                "--smtp-port=0",
                "--bind=127.0.0.1",
                "--hostname=mx.burnbox.test",
                "--domains=burnbox.test",
                "--trusted-networks=127.0.0.1",
                "--max-message-size=2m",
                "--max-recipients=3",
                "--data-timeout=500ms",
                "--http-port=0",
                "--spam=reject",
                "--shutdown-grace=2s"));
  }

  @AfterEach
  void stop() {
    service.close();
  }

  private SmtpScript attacker() throws IOException {
    return SmtpScript.ehlo(service.smtpPort(), ATTACKER);
  }

  private static void openData(SmtpScript smtp, String inbox) throws IOException {
    smtp.expectAfter("MAIL FROM:<s@example.org>", "250 2.1.0");
    smtp.expectAfter("RCPT TO:<" + inbox + "@burnbox.test>", "250 2.1.5");
    smtp.expectAfter("DATA", "354");
  }

  private String http(String path) throws IOException, InterruptedException {
    try (HttpClient client = HttpClient.newHttpClient()) {
      return client
          .send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.httpPort() + path))
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    }
  }

  private double activeSessions() {
    return service.registry().get("burnbox.smtp.sessions.active").gauge().value();
  }

  @Test
  void storesNothingFromAbusiveSessionsAndThenServesAnHonestClient() throws Exception {
    // a disconnect mid-DATA
    try (SmtpScript smtp = attacker()) {
      openData(smtp, "victim1");
      smtp.write("Subject: half\r\n\r\nhalf a mess");
    }
    // SMTP smuggling with bare line endings, then a disconnect before the real end
    try (SmtpScript smtp = attacker()) {
      openData(smtp, "victim2");
      smtp.write(
          "Subject: s\r\n\r\nA\n.\nMAIL FROM:<x@evil.test>\r\nRCPT TO:<victim2@burnbox.test>\r\n"
              + "DATA\r\nsmuggled\r\n\n.\r\n");
    }
    // a bare line feed ends DATA's command line: 501 and close before any content
    try (SmtpScript smtp = attacker()) {
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
      smtp.expectAfter("RCPT TO:<victim3@burnbox.test>", "250");
      smtp.write("DATA\nSubject: x\r\n\r\nbody\r\n.\r\n");
      assertThat(smtp.reply()).startsWith("501 5.5.2 Syntax error at character position 4.");
      assertThat(smtp.closedByServer()).isTrue();
    }
    // too large, a 1 MB line, spam: each refused, the session going on
    try (SmtpScript smtp = attacker()) {
      openData(smtp, "victim4");
      smtp.write(("x".repeat(998) + "\r\n").repeat(3 << 10)); // 3 MiB
      assertThat(smtp.send(".")).isEqualTo("552 5.3.4 Message size exceeds fixed limit");
      openData(smtp, "victim4");
      smtp.write("Subject: long\r\n\r\n" + "y".repeat(1 << 20) + "\r\n");
      assertThat(smtp.send(".")).isEqualTo("500 5.5.2 Line too long");
      openData(smtp, "victim4");
      assertThat(smtp.send("Subject: You are a WINNER\r\n\r\n" + SPAM_BODY + "\r\n."))
          .isEqualTo("550 5.7.1 Message rejected as spam");
    }
    // a stall mid-DATA: 421 after the data timeout
    try (SmtpScript smtp = attacker()) {
      openData(smtp, "victim5");
      smtp.write("Subject: slow\r\n\r\nand then nothing");
      assertThat(smtp.reply()).startsWith("421 4.4.2");
    }
    // a BDAT chunk cut short
    try (SmtpScript smtp = attacker()) {
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
      smtp.expectAfter("RCPT TO:<victim6@burnbox.test>", "250");
      smtp.write("BDAT 100 LAST\r\nSubject: cut\r\n\r\n");
    }
    // a whole transaction pipelined after QUIT, and content sent blindly after a refused DATA
    try (SmtpScript smtp = attacker()) {
      smtp.write(
          "QUIT\r\nMAIL FROM:<s@example.org>\r\nRCPT TO:<victim7@burnbox.test>\r\nDATA\r\n"
              + "Subject: after quit\r\n\r\nx\r\n.\r\n");
      assertThat(smtp.reply()).startsWith("221 2.0.0");
      assertThat(smtp.closedByServer()).isTrue();
    }
    try (SmtpScript smtp = attacker()) {
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
      smtp.expectAfter("RCPT TO:<victim8@elsewhere.test>", "550 5.7.1");
      smtp.write("DATA\r\nSubject: blind\r\n\r\nbody\r\n.\r\nQUIT\r\n");
      assertThat(smtp.reply()).isEqualTo("554 5.5.1 No valid recipients");
      assertThat(smtp.reply()).startsWith("500 ");
      assertThat(smtp.reply()).startsWith("500 ");
      assertThat(smtp.reply()).startsWith("500 ");
      assertThat(smtp.reply()).startsWith("500 ");
      assertThat(smtp.reply()).startsWith("221 ");
    }
    // a transaction pipelined in plaintext behind STARTTLS
    try (SmtpScript smtp = attacker()) {
      smtp.write(
          "STARTTLS\r\nMAIL FROM:<s@example.org>\r\nRCPT TO:<victim9@burnbox.test>\r\nDATA\r\n"
              + "Subject: injected\r\n\r\nx\r\n.\r\n");
      assertThat(smtp.reply()).isEqualTo("220 2.0.0 Ready to start TLS");
      SSLSocket secure =
          (SSLSocket)
              SmtpScript.trustingEveryone()
                  .getSocketFactory()
                  .createSocket(smtp.socket(), "localhost", smtp.socket().getPort(), true);
      secure.setUseClientMode(true);
      // SubEtha drops what it had buffered in the clear; what it had not read breaks the handshake
      Throwable handshake = catchThrowable(secure::startHandshake);
      if (handshake == null) {
        secure.getOutputStream().write("RCPT TO:<victim9@burnbox.test>\r\n".getBytes());
        assertThat(new String(secure.getInputStream().readNBytes(4))).isEqualTo("503 ");
      } else {
        assertThat(handshake).isInstanceOf(IOException.class);
      }
    }

    await().atMost(Duration.ofSeconds(5)).until(() -> activeSessions() == 0);
    assertThat(service.store().stats().messages()).isZero();
    assertThat(http("/api/v1/stats")).contains("\"messages\":0");
    for (int i = 1; i <= 9; i++) {
      assertThat(service.store().list(InboxName.of("victim" + i), 10, null).messages()).isEmpty();
    }

    String honest = "Subject: honest\r\nFrom: h@example.org\r\n\r\nhello\r\n.dot\r\n";
    try (SmtpScript smtp = SmtpScript.ehlo(service.smtpPort(), "127.0.0.3")) {
      openData(smtp, "honest");
      assertThat(smtp.send(honest.replace("\r\n.dot", "\r\n..dot") + "."))
          .startsWith("250 2.0.0 Ok: delivered to 1 inbox as ");
    }
    List<MessageSummary> stored = service.store().list(InboxName.of("honest"), 10, null).messages();
    assertThat(stored).hasSize(1);
    assertThat(http("/api/v1/messages/" + stored.getFirst().id().value() + "/raw"))
        .as("as sent, behind the trace field")
        .startsWith("Received: from client.test ([127.0.0.3])\r\n")
        .endsWith("\r\n" + honest);
    assertThat(service.store().stats().messages()).isEqualTo(1);
  }

  /** {@code "bob"@} needs no quotes, so it is {@code bob@} (RFC 5321 4.1.2): inbox bob. */
  @Test
  void aQuotedLocalPartThatNeedsNoQuotesIsDeliveredToItsInbox() throws IOException {
    try (SmtpScript smtp = SmtpScript.ehlo(service.smtpPort(), "127.0.0.3")) {
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250 2.1.0");
      assertThat(smtp.send("RCPT TO:<\"Bob\"@burnbox.test>")).isEqualTo("250 2.1.5 Recipient ok");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("Subject: quoted\r\n\r\nhello\r\n."))
          .startsWith("250 2.0.0 Ok: delivered to 1 inbox as ");
    }
    assertThat(service.store().list(InboxName.of("bob"), 10, null).messages())
        .extracting(MessageSummary::subject)
        .containsExactly("quoted");
  }

  /** The error the API answers for inbox {@code name}: the rule of inbox names it breaks. */
  private String apiError(String name) throws Exception {
    String path = URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    return new ObjectMapper().readTree(http("/api/v1/inboxes/" + path)).get("error").asText();
  }

  /**
   * A local part that is no inbox name gets 553 5.1.3 naming the rule it breaks, in the words the
   * API's 400 uses for the same name; relaying through local-part syntax is no inbox name either.
   */
  @Test
  void refusesMailboxNamesThatAreNotInboxNamesNamingTheRuleAsTheApiDoes() throws Exception {
    try (SmtpScript smtp = attacker()) {
      smtp.expectAfter("MAIL FROM:<jürgen@exämple.org> SMTPUTF8", "250 2.1.0");
      assertThat(smtp.send("RCPT TO:<a..b@burnbox.test>"))
          .isEqualTo(
              "553 5.1.3 Mailbox name not allowed: inbox name has two dots in a row: \"a..b\"");
      String[][] recipientsAndNames = {
        {"jürgen\u2603", "jürgen\u2603"},
        {"\"a..b\"", "a..b"},
        {".ab", ".ab"},
        {"\"john doe\"", "john doe"},
        {"\"\"", ""},
        {"a".repeat(65), "a".repeat(65)},
        {"victim%elsewhere.test", "victim%elsewhere.test"}, // percent hack
        {"elsewhere.test!victim", "elsewhere.test!victim"}, // UUCP bang path
      };
      for (String[] recipientAndName : recipientsAndNames) {
        String rule =
            recipientAndName[1].isEmpty() ? "inbox name is empty" : apiError(recipientAndName[1]);
        assertThat(smtp.send("RCPT TO:<" + recipientAndName[0] + "@burnbox.test>"))
            .isEqualTo("553 5.1.3 Mailbox name not allowed: " + rule);
      }
    }
    assertThat(service.store().stats().messages()).isZero();
  }

  @Test
  void refusesControlCharactersAndNonAsciiWithoutSmtputf8() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.expectAfter("MAIL FROM:<jürgen@exämple.org> SMTPUTF8", "250 2.1.0");
      assertThat(smtp.send("RCPT TO:<a\u001bb@burnbox.test>"))
          .isEqualTo("501 5.1.3 Bad recipient address syntax");
      smtp.expectAfter("RSET", "250");
      assertThat(smtp.send("MAIL FROM:<jürgen@exämple.org>"))
          .isEqualTo("553 5.6.7 Non-ASCII address needs SMTPUTF8 in MAIL");
      smtp.expectAfter("MAIL FROM:<ann@example.org>", "250 2.1.0");
      assertThat(smtp.send("RCPT TO:<jürgen@burnbox.test>"))
          .isEqualTo("553 5.6.7 Non-ASCII address needs SMTPUTF8 in MAIL");
      assertThat(smtp.send("DATA")).isEqualTo("554 5.5.1 No valid recipients");
    }
    assertThat(service.store().stats().messages()).isZero();
  }
}
