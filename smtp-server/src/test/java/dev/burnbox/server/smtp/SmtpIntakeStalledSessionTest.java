package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Slowloris over real sockets: a client that trickles bytes but never finishes a command, or never
 * finishes its content, is cut once its timeout has passed (a per-read timeout alone would keep it
 * forever), and so is a silent client, while a slow client that keeps finishing commands, and a
 * session waiting on a slow acceptor, are left alone.
 */
class SmtpIntakeStalledSessionTest {
  private static final Duration TIMEOUT = Duration.ofMillis(1500);

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

  private void start(MessageAcceptor acceptor) {
    intake =
        TestIntakes.start(
            TestIntakes.settings(
                ThreadModel.VIRTUAL,
                "--command-timeout=" + TIMEOUT.toMillis() + "ms",
                "--data-timeout=" + TIMEOUT.toMillis() + "ms"),
            acceptor,
            registry);
  }

  private SmtpScript connect() throws IOException {
    SmtpScript smtp = SmtpScript.connect(intake.port(), "127.0.0.2");
    open.add(smtp);
    smtp.expect("220");
    return smtp;
  }

  /** Writes one byte every 300 ms for {@code millis}; false as soon as a write fails. */
  private static boolean trickle(SmtpScript smtp, String text, long millis) {
    long end = System.nanoTime() + millis * 1_000_000;
    for (int i = 0; System.nanoTime() < end; i = (i + 1) % text.length()) {
      try {
        smtp.write(text.substring(i, i + 1));
        Thread.sleep(300);
      } catch (IOException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  private double refusals(String reason) {
    return TestIntakes.count(registry, "burnbox.refusals", "reason", reason);
  }

  private double activeSessions() {
    return registry.get("burnbox.smtp.sessions.active").gauge().value();
  }

  @Test
  void aCommandTrickledForeverIsCutAfterTheCommandTimeout() throws IOException {
    start(new RecordingAcceptor());
    SmtpScript slow = connect();
    assertThat(trickle(slow, "EHLO aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 5000))
        .as("still connected after 5 s of trickling with a 1.5 s command timeout")
        .isFalse();
    assertThat(slow.reply()).startsWith("421 4.4.2");
    await().until(() -> activeSessions() == 0);
    assertThat(refusals("command_timeout")).isEqualTo(1);
  }

  @ParameterizedTest(name = "under TLS: {0}")
  @ValueSource(booleans = {false, true})
  void aSilentClientIsCutAfterTheCommandTimeoutWithItsReply(boolean underTls) throws IOException {
    start(new RecordingAcceptor());
    SmtpScript silent = connect();
    silent.expectAfter("EHLO client.test", "250");
    if (underTls) {
      silent.startTls();
      silent.expectAfter("EHLO client.test", "250");
    }
    assertThat(silent.reply()).isEqualTo("421 4.4.2 Timeout waiting for data from client");
    assertThat(silent.closedByServer()).isTrue();
    await().until(() -> activeSessions() == 0);
    assertThat(refusals("command_timeout")).isEqualTo(1);
  }

  @Test
  void aClientThatNeverStartsTheTlsHandshakeIsCutAfterTheCommandTimeout() throws IOException {
    start(new RecordingAcceptor());
    SmtpScript stalled = connect();
    stalled.expectAfter("EHLO client.test", "250");
    stalled.expectAfter("STARTTLS", "220");
    // no ClientHello: the cutter's reply goes out in the clear, then the server closes (after a
    // TLS alert, which the handshake it was waiting in may send)
    assertThat(stalled.reply()).startsWith("421 4.4.2");
    await().atMost(Duration.ofSeconds(15)).until(stalled::closedByServer);
    await().until(() -> activeSessions() == 0);
    assertThat(refusals("command_timeout")).isEqualTo(1);
  }

  @Test
  void aClientSilentAfterAnAuthChallengeIsCutAfterTheCommandTimeout() throws IOException {
    start(new RecordingAcceptor());
    SmtpScript stalled = connect();
    stalled.expectAfter("EHLO client.test", "250");
    stalled.startTls();
    stalled.expectAfter("EHLO client.test", "250");
    stalled.expectAfter("AUTH LOGIN", "334");
    assertThat(stalled.reply()).startsWith("421 4.4.2");
    assertThat(stalled.closedByServer()).isTrue();
    await().until(() -> activeSessions() == 0);
    assertThat(refusals("command_timeout")).isEqualTo(1);
  }

  /**
   * Cutting a TLS session closes its socket while the session reads the client's AUTH answer; that
   * read may then see "Socket closed" rather than the end of the stream. Either way the client just
   * left: SubEtha must not log it as a WARN with a stack trace. Several sessions are cut at once,
   * so that the race shows on the old code.
   */
  @Test
  void cuttingTlsSessionsWaitingForAnAuthAnswerLogsNoWarning() throws IOException {
    start(new RecordingAcceptor());
    try (SubEthaWarnings warnings = new SubEthaWarnings()) {
      int sessions = 8;
      List<SmtpScript> stalled = new ArrayList<>();
      for (int i = 0; i < sessions; i++) {
        SmtpScript smtp = connect();
        smtp.expectAfter("EHLO client.test", "250");
        smtp.startTls();
        smtp.expectAfter("EHLO client.test", "250");
        smtp.expectAfter(i % 2 == 0 ? "AUTH LOGIN" : "AUTH PLAIN", "334");
        stalled.add(smtp);
      }
      for (SmtpScript smtp : stalled) {
        assertThat(smtp.reply()).startsWith("421 4.4.2");
        assertThat(smtp.closedByServer()).isTrue();
      }
      await().until(() -> activeSessions() == 0);
      assertThat(refusals("command_timeout")).isEqualTo(sessions);
      assertThat(warnings.messages()).isEmpty();
    }
  }

  @Test
  void contentTrickledForeverIsCutAfterTheDataTimeoutAndNothingIsDelivered() throws IOException {
    RecordingAcceptor acceptor = new RecordingAcceptor();
    start(acceptor);
    SmtpScript slow = connect();
    slow.expectAfter("EHLO client.test", "250");
    slow.expectAfter("MAIL FROM:<s@example.org>", "250");
    slow.expectAfter("RCPT TO:<a@burnbox.test>", "250");
    slow.expectAfter("DATA", "354");
    assertThat(trickle(slow, "Subject: slow\r\n\r\nnever ending ", 5000)).isFalse();
    await().until(() -> activeSessions() == 0);
    assertThat(refusals("data_timeout")).isEqualTo(1);
    assertThat(acceptor.deliveries()).isEmpty();
  }

  @Test
  void aBdatChunkTrickledForeverIsCutAfterTheDataTimeoutAndNothingIsDelivered() throws IOException {
    RecordingAcceptor acceptor = new RecordingAcceptor();
    start(acceptor);
    SmtpScript slow = connect();
    slow.expectAfter("EHLO client.test", "250");
    slow.expectAfter("MAIL FROM:<s@example.org>", "250");
    slow.expectAfter("RCPT TO:<a@burnbox.test>", "250");
    slow.write("BDAT 100000 LAST\r\n");
    assertThat(trickle(slow, "Subject: slow\r\n\r\nnever ending ", 5000)).isFalse();
    await().until(() -> activeSessions() == 0);
    assertThat(refusals("data_timeout")).isEqualTo(1);
    assertThat(acceptor.deliveries()).isEmpty();
  }

  /**
   * A BDAT chunk that no transaction takes is read and dropped under the data timeout as any
   * content is: a client that declared a huge one and sent nothing more, before EHLO or after its
   * only RCPT was refused, used to hold its connection (and its share of {@code --max-connections})
   * forever.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"before EHLO", "after a refused RCPT"})
  void aBdatChunkThatNoTransactionTakesIsCutAfterTheDataTimeout(String when) throws IOException {
    start(new RecordingAcceptor());
    SmtpScript stalled = connect();
    if (when.equals("before EHLO")) {
      stalled.write("BDAT 999999999999 LAST\r\n");
    } else {
      stalled.expectAfter("EHLO client.test", "250");
      stalled.expectAfter("MAIL FROM:<s@example.org>", "250");
      stalled.expectAfter("RCPT TO:<x@elsewhere.test>", "550 5.7.1");
      stalled.write("BDAT 1000000 LAST\r\nabc");
    }
    assertThat(stalled.reply())
        .isEqualTo("421 4.4.2 Timeout waiting for message data, closing connection");
    assertThat(stalled.closedByServer()).isTrue();
    await().until(() -> activeSessions() == 0);
    assertThat(refusals("data_timeout")).isEqualTo(1);
  }

  /**
   * A client that pipelines commands and never reads the replies leaves its session blocked writing
   * to it. The cutter used to block on that session's output when it came to cut it, and no session
   * was cut any more.
   */
  @Test
  void aClientThatNeverReadsItsRepliesDoesNotKeepAnIdleClientFromBeingCut() throws IOException {
    start(new RecordingAcceptor());
    open.add(SmtpScript.pipeliningWithoutReading(intake.port(), "127.0.0.3"));
    SmtpScript idle = connect();
    assertThat(idle.reply()).isEqualTo("421 4.4.2 Timeout waiting for data from client");
    assertThat(idle.closedByServer()).isTrue();
  }

  /**
   * A session blocked writing to a client that does not read is a stalled client: it is closed once
   * its write has been blocked for the command timeout (no reply can reach that client).
   */
  @Test
  void aClientThatNeverReadsItsRepliesIsDisconnectedAfterTheCommandTimeout() throws IOException {
    start(new RecordingAcceptor());
    open.add(SmtpScript.pipeliningWithoutReading(intake.port(), "127.0.0.3"));
    await().atMost(TIMEOUT.multipliedBy(5)).until(() -> activeSessions() == 0);
    assertThat(refusals("command_timeout")).isEqualTo(1);
  }

  @Test
  void aSlowClientThatFinishesItsCommandsIsLeftAlone() throws Exception {
    start(new RecordingAcceptor());
    SmtpScript slow = connect();
    for (int i = 0; i < 6; i++) {
      Thread.sleep(TIMEOUT.toMillis() / 2);
      assertThat(slow.send("NOOP")).startsWith("250");
    }
    assertThat(refusals("command_timeout")).isZero();
  }

  @Test
  void aSessionWaitingOnASlowAcceptorIsNotCut() throws IOException {
    MessageAcceptor slowAcceptor =
        new MessageAcceptor() {
          @Override
          public SmtpReply accept(Envelope envelope, byte[] raw) {
            try {
              Thread.sleep(TIMEOUT.toMillis() * 3);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return SmtpReply.ok("Stored");
          }

          @Override
          public Optional<Refused> checkRecipient(String address) {
            return Optional.empty();
          }
        };
    start(slowAcceptor);
    SmtpScript smtp = connect();
    smtp.expectAfter("EHLO client.test", "250");
    smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
    smtp.expectAfter("RCPT TO:<a@burnbox.test>", "250");
    smtp.expectAfter("DATA", "354");
    smtp.write("Subject: x\r\n\r\nbody\r\n.\r\n");
    // the script's read timeout is 5 s; the acceptor takes 4.5 s
    assertThat(smtp.reply()).startsWith("250");
    assertThat(refusals("command_timeout") + refusals("data_timeout")).isZero();
  }
}
