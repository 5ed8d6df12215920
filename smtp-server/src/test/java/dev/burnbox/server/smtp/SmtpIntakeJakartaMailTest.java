package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.mail.Address;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A real SMTP client (Jakarta Mail / Angus) against the intake. */
class SmtpIntakeJakartaMailTest {
  private final RecordingAcceptor acceptor = new RecordingAcceptor();
  private SmtpIntake intake;

  @AfterEach
  void stop() {
    TestIntakes.stop(intake);
  }

  private Session mailSession(ThreadModel threads, boolean requireTls) {
    intake = TestIntakes.start(TestIntakes.settings(threads), acceptor, new SimpleMeterRegistry());
    Properties properties = new Properties();
    properties.put("mail.smtp.host", "127.0.0.1");
    properties.put("mail.smtp.port", String.valueOf(intake.port()));
    properties.put("mail.smtp.localhost", "client.test");
    properties.put("mail.smtp.connectiontimeout", "5000");
    properties.put("mail.smtp.timeout", "5000");
    if (requireTls) {
      properties.put("mail.smtp.starttls.enable", "true");
      properties.put("mail.smtp.starttls.required", "true");
      properties.put("mail.smtp.ssl.trust", "*"); // the self-signed test certificate
      properties.put("mail.smtp.ssl.checkserveridentity", "false");
    }
    return Session.getInstance(properties);
  }

  private static MimeMessage message(Session session) throws MessagingException {
    MimeMessage message = new MimeMessage(session);
    message.setFrom("Sender <sender@example.org>");
    message.setRecipients(
        Message.RecipientType.TO, "one@burnbox.test, two@burnbox.test, three@other.test");
    message.setSubject("three recipients", "UTF-8");
    message.setText("Hello, Grüße\n", "UTF-8");
    return message;
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void deliversOneEnvelopeWithAllThreeRecipients(ThreadModel threads) throws Exception {
    Session session = mailSession(threads, false);
    MimeMessage message = message(session);
    Transport.send(message);

    Envelope envelope = acceptor.only().envelope();
    assertThat(envelope.recipients())
        .containsExactly("one@burnbox.test", "two@burnbox.test", "three@other.test");
    assertThat(envelope.sender()).isEqualTo("sender@example.org");
    assertThat(envelope.heloName()).isEqualTo("client.test");
    assertThat(new String(acceptor.only().raw(), StandardCharsets.UTF_8))
        .contains("Subject: three recipients")
        .endsWith("\r\n");
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void deliversOverRequiredStartTls(ThreadModel threads) throws Exception {
    Session session = mailSession(threads, true);
    Transport.send(message(session));

    assertThat(acceptor.only().envelope().tls()).isTrue();
    assertThat(acceptor.only().envelope().recipients()).hasSize(3);
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void reportsTheAcceptorsRefusalToTheSender(ThreadModel threads) throws Exception {
    acceptor.answer(new SmtpReply(550, "5.7.1", "Message rejected as spam"));
    Session session = mailSession(threads, false);
    try {
      Transport.send(message(session), new Address[] {new InternetAddress("one@burnbox.test")});
      throw new AssertionError("the refusal did not reach the client");
    } catch (MessagingException e) {
      assertThat(e.getMessage()).contains("550 5.7.1 Message rejected as spam");
    }
  }
}
