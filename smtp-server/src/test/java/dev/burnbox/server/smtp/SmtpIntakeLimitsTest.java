package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Connection limits and the per-IP message rate, with clients bound to 127.0.0.2 and up (only
 * 127.0.0.1 is trusted in these tests).
 */
class SmtpIntakeLimitsTest {
  private final RecordingAcceptor acceptor = new RecordingAcceptor();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<SmtpScript> open = new ArrayList<>();
  private SmtpIntake intake;

  @AfterEach
  void stop() throws IOException {
    for (SmtpScript script : open) {
      script.close();
    }
    TestIntakes.stop(intake);
  }

  private void start(IntakeSettings settings) {
    intake = TestIntakes.start(settings, acceptor, registry);
  }

  private SmtpScript connect(String from) throws IOException {
    SmtpScript script = SmtpScript.connect(intake.port(), from);
    open.add(script);
    return script;
  }

  private double refusals(String reason) {
    return TestIntakes.count(registry, "burnbox.refusals", "reason", reason);
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void refusesConnectionsBeyondThePerIpLimitForUntrustedClientsOnly(ThreadModel threads)
      throws IOException {
    start(TestIntakes.settings(threads, "--max-connections-per-ip=2"));
    connect("127.0.0.2").expect("220");
    connect("127.0.0.2").expect("220");
    SmtpScript third = connect("127.0.0.2");
    assertThat(third.reply()).startsWith("421 4.7.0");
    assertThat(third.closedByServer()).isTrue();
    connect("127.0.0.3").expect("220");
    for (int i = 0; i < 3; i++) {
      connect("127.0.0.1").expect("220"); // trusted
    }
    assertThat(refusals("too_many_connections_per_ip")).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void freesAPerIpSlotWhenASessionEnds(ThreadModel threads) throws IOException {
    start(TestIntakes.settings(threads, "--max-connections-per-ip=1"));
    SmtpScript first = connect("127.0.0.2");
    first.expect("220");
    first.send("QUIT");
    org.awaitility.Awaitility.await()
        .until(() -> registry.get("burnbox.smtp.sessions.active").gauge().value() == 0);
    connect("127.0.0.2").expect("220");
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void refusesConnectionsBeyondTheTotalLimit(ThreadModel threads) throws IOException {
    start(TestIntakes.settings(threads, "--max-connections=2"));
    connect("127.0.0.1").expect("220");
    connect("127.0.0.2").expect("220");
    SmtpScript third = connect("127.0.0.1");
    assertThat(third.reply()).startsWith("421 4.7.0");
    assertThat(third.closedByServer()).isTrue();
    assertThat(refusals("too_many_connections")).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void limitsTheMessageRateOfUntrustedClients(ThreadModel threads) throws IOException {
    start(TestIntakes.settings(threads, "--per-ip-rate=2"));
    SmtpScript stranger = SmtpScript.ehlo(intake.port(), "127.0.0.2");
    open.add(stranger);
    for (int i = 0; i < 2; i++) {
      assertThat(stranger.send("MAIL FROM:<s@example.org>")).startsWith("250");
      stranger.send("RSET");
    }
    assertThat(stranger.send("MAIL FROM:<s@example.org>"))
        .startsWith("450 4.7.0 Too many messages");
    SmtpScript other = SmtpScript.ehlo(intake.port(), "127.0.0.3");
    open.add(other);
    assertThat(other.send("MAIL FROM:<s@example.org>")).startsWith("250");
    SmtpScript trusted = SmtpScript.ehlo(intake.port(), "127.0.0.1");
    open.add(trusted);
    for (int i = 0; i < 5; i++) {
      assertThat(trusted.send("MAIL FROM:<s@example.org>")).startsWith("250");
      trusted.send("RSET");
    }
    assertThat(refusals("rate_limited")).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void disabledFiltersLetEveryClientSendAtWill(ThreadModel threads) throws IOException {
    start(TestIntakes.settings(threads, "--per-ip-rate=1", "--no-filters"));
    SmtpScript stranger = SmtpScript.ehlo(intake.port(), "127.0.0.2");
    open.add(stranger);
    for (int i = 0; i < 5; i++) {
      assertThat(stranger.send("MAIL FROM:<s@example.org>")).startsWith("250");
      stranger.send("RSET");
    }
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void refusesTheNullSenderWhenConfigured(ThreadModel threads) throws IOException {
    start(TestIntakes.settings(threads, "--null-sender=refuse"));
    SmtpScript smtp = SmtpScript.ehlo(intake.port(), "127.0.0.1");
    open.add(smtp);
    assertThat(smtp.send("MAIL FROM:<>")).startsWith("550 5.7.1");
    assertThat(smtp.send("MAIL FROM:<s@example.org>")).startsWith("250");
    assertThat(refusals("null_sender")).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void marksUntrustedClientsInTheEnvelope(ThreadModel threads) throws IOException {
    start(TestIntakes.settings(threads));
    SmtpScript smtp = SmtpScript.ehlo(intake.port(), "127.0.0.9");
    open.add(smtp);
    smtp.send("MAIL FROM:<s@example.org>");
    smtp.send("RCPT TO:<a@burnbox.test>");
    smtp.expectAfter("DATA", "354");
    assertThat(smtp.send("x\r\n.")).startsWith("250");
    Envelope envelope = acceptor.only().envelope();
    assertThat(envelope.trustedClient()).isFalse();
    assertThat(envelope.client().getHostAddress()).isEqualTo("127.0.0.9");
  }
}
