package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The {@code Received:} field in front of each message taken, through real SMTP sessions. */
class TraceHeaderTest {
  private static final String BODY = "Subject: traced\r\n\r\nhello\r\n";
  private final RecordingAcceptor acceptor = new RecordingAcceptor();
  private SmtpIntake intake;

  @AfterEach
  void stop() {
    TestIntakes.stop(intake);
  }

  private int start(boolean traceHeader) {
    intake =
        TestIntakes.start(
            TestIntakes.settings(
                ThreadModel.VIRTUAL,
                "--no-trace-header=" + !traceHeader,
                "--smtp-auth=" + SmtpAuth.ACCEPT_ANY),
            acceptor,
            new SimpleMeterRegistry());
    return intake.port();
  }

  private static void send(SmtpScript smtp, String mailParameters, String... recipients)
      throws Exception {
    smtp.expectAfter("MAIL FROM:<s@example.org>" + mailParameters, "250");
    for (String recipient : recipients) {
      smtp.expectAfter("RCPT TO:<" + recipient + ">", "250");
    }
    smtp.expectAfter("DATA", "354");
    smtp.expectAfter(BODY + ".", "250");
  }

  private String received() {
    String raw = new String(acceptor.deliveries().getLast().raw(), StandardCharsets.UTF_8);
    assertThat(raw).endsWith(BODY);
    return raw.substring(0, raw.length() - BODY.length());
  }

  /**
   * Without SMTPUTF8 a HELO name's non-ASCII code points read {@code ?} (one per code point, a
   * supplementary one too), and each field carries its own mail's second, however many mails share
   * one.
   */
  @Test
  void aFieldIsAsciiWithoutSmtpUtf8AndDatedToItsOwnSecond() throws Exception {
    InetAddress client = InetAddress.getByName("192.0.2.7");
    Instant t = Instant.parse("2026-11-26T19:50:01.250Z");
    Envelope first =
        new Envelope(client, false, "mx.büro\uD83D\uDCE7.test", "s@x", List.of("a@b"), t, false);
    Envelope sameSecond =
        new Envelope(client, false, "mx.test", "s@x", List.of("a@b"), t.plusMillis(700), false);
    Envelope next =
        new Envelope(client, false, "mx.test", "s@x", List.of("a@b"), t.plusSeconds(1), false);

    assertThat(TraceHeader.field(first, "burnbox.test", true, false, false))
        .startsWith("Received: from mx.b?ro?.test ([192.0.2.7])")
        .endsWith(";\r\n\tThu, 26 Nov 2026 19:50:01 +0000\r\n");
    assertThat(TraceHeader.field(first, "burnbox.test", true, false, true))
        .startsWith("Received: from mx.büro\uD83D\uDCE7.test ([192.0.2.7])");
    assertThat(TraceHeader.field(sameSecond, "burnbox.test", true, false, false))
        .endsWith("19:50:01 +0000\r\n");
    assertThat(TraceHeader.field(next, "burnbox.test", true, false, false))
        .endsWith("19:50:02 +0000\r\n");
    assertThat(TraceHeader.field(first, "burnbox.test", true, false, false))
        .as("an earlier second after a later one")
        .endsWith("19:50:01 +0000\r\n");
  }

  @Test
  void namesTheClientTheServerTheProtocolTheRecipientAndTheTime() throws Exception {
    int port = start(true);
    try (SmtpScript smtp = SmtpScript.ehlo(port, "127.0.0.1")) {
      send(smtp, "", "ann@burnbox.test");
    }
    assertThat(received())
        .matches(
            "Received: from client\\.test \\(\\[127\\.0\\.0\\.1]\\)\r\n"
                + "\tby mx\\.burnbox\\.test \\(Burnbox [^)]+\\) with ESMTP id [0-9A-Z]{12}\r\n"
                + "\tfor <ann@burnbox\\.test>;\r\n"
                + "\t[A-Z][a-z]{2}, \\d{1,2} [A-Z][a-z]{2} \\d{4} \\d\\d:\\d\\d:\\d\\d \\+0000\r\n");
    // a mail parser reads it as one Received header of the message
    MimeMessage parsed =
        new MimeMessage(
            Session.getInstance(new Properties()),
            new ByteArrayInputStream(acceptor.deliveries().getLast().raw()));
    assertThat(parsed.getHeader("Received")).hasSize(1);
    assertThat(parsed.getSubject()).isEqualTo("traced");
  }

  @Test
  void theProtocolSaysHeloTlsAuthAndUtf8AndSeveralRecipientsHaveNoFor() throws Exception {
    int port = start(true);
    try (SmtpScript smtp = SmtpScript.connect(port)) {
      smtp.expect("220");
      smtp.expectAfter("HELO old.client", "250");
      send(smtp, "", "ann@burnbox.test", "bob@burnbox.test");
    }
    assertThat(received())
        .contains("from old.client ")
        .contains(" with SMTP id ")
        .doesNotContain("for <");
    try (SmtpScript smtp = SmtpScript.ehlo(port, "127.0.0.1")) {
      smtp.startTls();
      smtp.expectAfter("EHLO client.test", "250");
      String plain = Base64.getEncoder().encodeToString("\0u\0p".getBytes(StandardCharsets.UTF_8));
      smtp.expectAfter("AUTH PLAIN " + plain, "235");
      send(smtp, "", "ann@burnbox.test");
      assertThat(received()).contains(" with ESMTPSA id ");
      send(smtp, " SMTPUTF8", "ann@burnbox.test");
      assertThat(received()).contains(" with UTF8SMTPSA id ");
    }
  }

  @Test
  void noTraceHeaderKeepsTheBytesAsSent() throws Exception {
    int port = start(false);
    try (SmtpScript smtp = SmtpScript.ehlo(port, "127.0.0.1")) {
      send(smtp, "", "ann@burnbox.test");
    }
    assertThat(received()).isEmpty();
  }
}
