package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import at.favre.lib.crypto.bcrypt.BCrypt;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Base64;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SMTP AUTH through real SMTP conversations and Jakarta Mail: where it is offered, the three modes,
 * PLAIN and LOGIN, bcrypt credentials read again when their file changes, the failure limit, and
 * what a verified client gains (the filters leave it alone).
 */
class SmtpAuthTest {
  private static final String STRANGER = "127.0.0.2"; // TestIntakes trusts 127.0.0.1 only

  private final RecordingAcceptor acceptor = new RecordingAcceptor();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private SmtpIntake intake;
  @TempDir Path dir;

  @AfterEach
  void stop() {
    TestIntakes.stop(intake);
  }

  private int start(IntakeSettings settings) {
    intake = TestIntakes.start(settings, acceptor, registry);
    return intake.port();
  }

  private static IntakeSettings settings(SmtpAuth auth, String... options) {
    return TestIntakes.settings(
        ThreadModel.VIRTUAL,
        Stream.concat(Stream.of("--smtp-auth=" + auth), Stream.of(options)).toArray(String[]::new));
  }

  private Path credentials(String... userPasswords) throws IOException {
    StringBuilder file = new StringBuilder("# htpasswd -B\n");
    for (int i = 0; i < userPasswords.length; i += 2) {
      String hash =
          new String(
              BCrypt.with(BCrypt.Version.VERSION_2Y)
                  .hash(4, userPasswords[i + 1].getBytes(StandardCharsets.UTF_8)),
              StandardCharsets.US_ASCII);
      file.append(userPasswords[i]).append(':').append(hash).append('\n');
    }
    Path path = dir.resolve("users.htpasswd");
    Files.writeString(path, file);
    return path;
  }

  private static String plain(String user, String password) {
    return Base64.getEncoder()
        .encodeToString(("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private double refusals(String reason) {
    return TestIntakes.count(registry, "burnbox.refusals", "reason", reason);
  }

  /**
   * A client that resets its connection while AUTH waits for its answer just left: the session's
   * read fails with "Connection reset", which SubEtha logged as a WARN with a stack trace. Plain
   * and TLS sessions, LOGIN and PLAIN.
   */
  @Test
  void aClientResettingItsConnectionDuringAuthLeavesNoWarning() throws Exception {
    int port = start(settings(SmtpAuth.ACCEPT_ANY));
    try (SubEthaWarnings warnings = new SubEthaWarnings()) {
      for (int i = 0; i < 4; i++) {
        SmtpScript smtp = SmtpScript.connect(port);
        smtp.expect("220");
        smtp.expectAfter("EHLO client.test", "250");
        if (i >= 2) {
          smtp.startTls();
          smtp.expectAfter("EHLO client.test", "250");
        }
        smtp.expectAfter(i % 2 == 0 ? "AUTH LOGIN" : "AUTH PLAIN", "334");
        smtp.socket().setSoLinger(true, 0); // closing now sends a reset
        smtp.socket().close();
      }
      await().until(() -> registry.get("burnbox.smtp.sessions.active").gauge().value() == 0);
      assertThat(warnings.messages()).isEmpty();
    }
  }

  @Test
  void authIsOfferedToTrustedClientsAndUnderTlsButNotToStrangersInTheClear() throws Exception {
    int port = start(settings(SmtpAuth.ACCEPT_ANY));
    try (SmtpScript trusted = SmtpScript.connect(port)) {
      trusted.expect("220");
      assertThat(trusted.send("EHLO client.test")).contains("AUTH PLAIN LOGIN");
      trusted.expectAfter("AUTH PLAIN " + plain("anyone", "anything"), "235 2.7.0");
    }
    try (SmtpScript stranger = SmtpScript.connect(port, STRANGER)) {
      stranger.expect("220");
      assertThat(stranger.send("EHLO client.test")).doesNotContain("AUTH");
      stranger.expectAfter(
          "AUTH PLAIN " + plain("anyone", "anything"),
          "538 5.7.11 Encryption required for requested authentication mechanism");
      stranger.startTls();
      assertThat(stranger.send("EHLO client.test")).contains("AUTH PLAIN LOGIN");
      stranger.expectAfter("AUTH PLAIN " + plain("anyone", "anything"), "235 2.7.0");
      stranger.expectAfter("AUTH PLAIN " + plain("again", "again"), "503 5.5.1");
      stranger.expectAfter("MAIL FROM:<app@example.org>", "250");
      stranger.expectAfter("RCPT TO:<inbox@burnbox.test>", "250");
    }
    assertThat(refusals("auth_needs_tls")).isEqualTo(1);
  }

  @Test
  void insecureOffersAuthToStrangersOnPlainConnections() throws Exception {
    int port = start(settings(SmtpAuth.ACCEPT_ANY, "--smtp-auth-insecure"));
    try (SmtpScript stranger = SmtpScript.connect(port, STRANGER)) {
      stranger.expect("220");
      assertThat(stranger.send("EHLO client.test")).contains("AUTH PLAIN LOGIN");
      stranger.expectAfter("AUTH LOGIN", "334 VXNlcm5hbWU6");
      stranger.expectAfter(base64("anyone"), "334 UGFzc3dvcmQ6");
      stranger.expectAfter(base64("anything"), "235 2.7.0");
    }
  }

  @Test
  void offAnswers502AndDoesNotAdvertise() throws Exception {
    int port = start(settings(SmtpAuth.OFF));
    try (SmtpScript trusted = SmtpScript.connect(port)) {
      trusted.expect("220");
      assertThat(trusted.send("EHLO client.test")).doesNotContain("AUTH");
      trusted.expectAfter("AUTH PLAIN " + plain("a", "b"), "502 5.5.1");
    }
  }

  @Test
  void malformedAndCancelledAuthGetsTheirRepliesAndTheSessionGoesOn() throws Exception {
    int port = start(settings(SmtpAuth.ACCEPT_ANY));
    try (SmtpScript trusted = SmtpScript.ehlo(port, "127.0.0.1")) {
      trusted.expectAfter("AUTH CRAM-MD5", "504 5.5.4 Unrecognized authentication type");
      trusted.expectAfter("AUTH PLAIN", "334");
      trusted.expectAfter("*", "501 5.0.0 Authentication canceled");
      trusted.expectAfter("AUTH PLAIN !!!not-base64", "501");
      trusted.expectAfter("AUTH PLAIN " + base64("no separators"), "501");
      trusted.expectAfter("AUTH", "501");
      trusted.expectAfter("AUTH PLAIN " + plain("user", "password"), "235 2.7.0");
    }
  }

  @Test
  void theCredentialsFileTakesTheRightPasswordAndRefusesWrongOnesAndUnknownUsers()
      throws Exception {
    int port =
        start(settings(new SmtpAuth(SmtpAuth.Mode.CREDENTIALS, credentials("alice", "s3cret"))));
    try (SmtpScript client = SmtpScript.ehlo(port, "127.0.0.1")) {
      client.expectAfter(
          "AUTH PLAIN " + plain("alice", "wrong"), "535 5.7.8 Authentication credentials invalid");
      client.expectAfter("AUTH PLAIN " + plain("mallory", "s3cret"), "535 5.7.8");
      client.expectAfter("AUTH PLAIN " + plain("alice", "x".repeat(100)), "535 5.7.8");
      client.expectAfter("AUTH PLAIN " + plain("alice", "s3cret"), "235 2.7.0");
    }
    assertThat(refusals("auth_failed")).isEqualTo(3);
    assertThat(TestIntakes.count(registry, "burnbox.smtp.auth", "outcome", "verified"))
        .isEqualTo(1);
  }

  @Test
  void fiveFailuresAMinuteFromOneAddressAreAllItGets() throws Exception {
    int port =
        start(settings(new SmtpAuth(SmtpAuth.Mode.CREDENTIALS, credentials("alice", "s3cret"))));
    try (SmtpScript client = SmtpScript.ehlo(port, "127.0.0.1")) {
      for (int i = 0; i < SmtpAuthenticator.FAILURES_PER_MINUTE; i++) {
        client.expectAfter("AUTH PLAIN " + plain("alice", "guess" + i), "535 5.7.8");
      }
      client.expectAfter(
          "AUTH PLAIN " + plain("alice", "s3cret"),
          "454 4.7.0 Too many authentication failures, try again later");
    }
    try (SmtpScript other = SmtpScript.connect(port, "127.0.0.3")) {
      other.expect("220");
      other.expectAfter("EHLO client.test", "250");
      other.startTls();
      other.expectAfter("EHLO client.test", "250");
      other.expectAfter("AUTH PLAIN " + plain("alice", "s3cret"), "235 2.7.0");
    }
    assertThat(refusals("auth_rate_limited")).isEqualTo(1);
  }

  @Test
  void theCredentialsFileIsReadAgainWhenItChanges() throws Exception {
    Path file = credentials("alice", "s3cret");
    int port = start(settings(new SmtpAuth(SmtpAuth.Mode.CREDENTIALS, file)));
    try (SmtpScript client = SmtpScript.ehlo(port, "127.0.0.1")) {
      client.expectAfter("AUTH PLAIN " + plain("bob", "hunter2"), "535");
    }
    credentials("alice", "s3cret", "bob", "hunter2");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
    try (SmtpScript client = SmtpScript.ehlo(port, "127.0.0.1")) {
      client.expectAfter("AUTH PLAIN " + plain("bob", "hunter2"), "235 2.7.0");
    }
  }

  @Test
  void aVerifiedClientIsExemptFromThePerIpRateAndAnAcceptedOneIsNot() throws Exception {
    Path file = credentials("alice", "s3cret");
    int port = start(settings(new SmtpAuth(SmtpAuth.Mode.CREDENTIALS, file), "--per-ip-rate=1"));
    try (SmtpScript stranger = SmtpScript.ehlo(port, STRANGER)) {
      stranger.startTls();
      stranger.expectAfter("EHLO client.test", "250");
      stranger.expectAfter("AUTH PLAIN " + plain("alice", "s3cret"), "235");
      for (int i = 0; i < 3; i++) {
        stranger.expectAfter("MAIL FROM:<app@example.org>", "250");
        stranger.expectAfter("RSET", "250");
      }
    }
    TestIntakes.stop(intake);
    port = start(settings(SmtpAuth.ACCEPT_ANY, "--per-ip-rate=1"));
    try (SmtpScript stranger = SmtpScript.ehlo(port, STRANGER)) {
      stranger.startTls();
      stranger.expectAfter("EHLO client.test", "250");
      stranger.expectAfter("AUTH PLAIN " + plain("anyone", "anything"), "235");
      stranger.expectAfter("MAIL FROM:<app@example.org>", "250");
      stranger.expectAfter("RSET", "250");
      stranger.expectAfter("MAIL FROM:<app@example.org>", "450 4.7.0");
    }
  }

  @Test
  void jakartaMailSendsWithCredentialsOverStartTls() throws Exception {
    int port =
        start(settings(new SmtpAuth(SmtpAuth.Mode.CREDENTIALS, credentials("alice", "s3cret"))));
    Properties properties = new Properties();
    properties.put("mail.smtp.host", "127.0.0.1");
    properties.put("mail.smtp.port", String.valueOf(port));
    properties.put("mail.smtp.auth", "true");
    properties.put("mail.smtp.starttls.enable", "true");
    properties.put("mail.smtp.starttls.required", "true");
    properties.put("mail.smtp.ssl.trust", "*");
    properties.put("mail.smtp.ssl.checkserveridentity", "false");
    properties.put("mail.smtp.timeout", "5000");
    Session session = Session.getInstance(properties);
    MimeMessage message = new MimeMessage(session);
    message.setFrom("app@example.org");
    message.setRecipients(Message.RecipientType.TO, "signup@burnbox.test");
    message.setSubject("Your code");
    message.setText("493027");
    Transport.send(message, "alice", "s3cret");
    assertThat(acceptor.only().envelope().recipients()).containsExactly("signup@burnbox.test");
    assertThat(acceptor.only().envelope().tls()).isTrue();
  }
}
