package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
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
