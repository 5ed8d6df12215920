package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The in-flight byte budget over real sockets: sessions together never buffer more message content
 * than {@code maxInflightBytes}; a message that would pass it is drained and answered {@code 452
 * 4.3.1}, the session stays usable, and every ending of a transaction gives its bytes back.
 */
class SmtpIntakeInflightBudgetTest {
  private static final int BUDGET = 64 * 1024;

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

  private void start() {
    intake =
        TestIntakes.start(
            TestIntakes.settings(
                ThreadModel.VIRTUAL,
                "--max-message-size=" + BUDGET,
                "--max-inflight-bytes=" + BUDGET,
                "--max-line-length=" + BUDGET),
            acceptor,
            registry);
  }

  /** A session in DATA, its MAIL and RCPT accepted. */
  private SmtpScript inData(String from) throws IOException {
    SmtpScript smtp = SmtpScript.ehlo(intake.port(), from);
    open.add(smtp);
    assertThat(smtp.send("MAIL FROM:<s@example.org>")).startsWith("250");
    assertThat(smtp.send("RCPT TO:<a@burnbox.test>")).startsWith("250");
    smtp.expectAfter("DATA", "354");
    return smtp;
  }

  private static String body(int bytes) {
    return "Subject: x\r\n\r\n" + "y".repeat(bytes) + "\r\n";
  }

  private double inflight() {
    return registry.get("burnbox.smtp.inflight.bytes").gauge().value();
  }

  @Test
  void aMessageThatWouldPassTheBudgetGets452AndTheSessionStaysUsable() throws IOException {
    start();
    SmtpScript first = inData("127.0.0.2");
    first.write(body(40 * 1024)); // 40 KiB buffered, unfinished: 48 KiB of blocks reserved
    await().until(() -> inflight() >= 40 * 1024);

    SmtpScript second = inData("127.0.0.3");
    assertThat(second.send(body(40 * 1024) + ".")).startsWith("452 4.3.1");
    assertThat(TestIntakes.count(registry, "burnbox.refusals", "reason", "inflight_bytes"))
        .isEqualTo(1);
    assertThat(inflight()).isLessThanOrEqualTo(BUDGET);

    assertThat(first.send(".")).startsWith("250");
    assertThat(inflight()).isZero();
    // the refused sender retries on the same session once memory is free
    assertThat(second.send("MAIL FROM:<s@example.org>")).startsWith("250");
    assertThat(second.send("RCPT TO:<a@burnbox.test>")).startsWith("250");
    second.expectAfter("DATA", "354");
    assertThat(second.send(body(40 * 1024) + ".")).startsWith("250");
    assertThat(acceptor.deliveries()).hasSize(2);
    assertThat(new String(acceptor.deliveries().get(1).raw(), StandardCharsets.US_ASCII))
        .as("the retried message, whole")
        .isEqualTo(body(40 * 1024));
  }

  @Test
  void aMessageAsLargeAsTheBudgetFitsWhenAlone() throws IOException {
    start();
    SmtpScript smtp = inData("127.0.0.2");
    String full = body(BUDGET - 16); // 14 bytes of header and 2 of CRLF: exactly the limit
    assertThat(full.length()).isEqualTo(BUDGET);
    assertThat(smtp.send(full + ".")).startsWith("250");
    assertThat(acceptor.only().raw().length).isEqualTo(BUDGET);
    assertThat(inflight()).isZero();
  }

  @Test
  void aClientThatGoesAwayMidDataGivesItsBytesBack() throws IOException {
    start();
    SmtpScript leaving = inData("127.0.0.2");
    leaving.write(body(50 * 1024));
    await().until(() -> inflight() >= 40 * 1024); // reads wait for whole 8 KiB chunks
    leaving.close();
    await().until(() -> inflight() == 0);

    SmtpScript next = inData("127.0.0.3");
    assertThat(next.send(body(50 * 1024) + ".")).startsWith("250");
  }

  @Test
  void anOversizedMessageHoldsNothingWhileItIsDrained() throws IOException {
    start();
    SmtpScript smtp = inData("127.0.0.2");
    smtp.write(body(BUDGET + 20_000)); // past the limit, not yet ended
    await().until(() -> inflight() == 0);
    assertThat(smtp.send(".")).startsWith("552 5.3.4");
    SmtpScript other = inData("127.0.0.3");
    assertThat(other.send(body(60 * 1024) + ".")).startsWith("250");
  }

  @Test
  void aBudgetBelowTheMessageSizeLimitIsRefused() {
    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () ->
                    TestIntakes.settings(
                        ThreadModel.VIRTUAL,
                        "--max-message-size=" + BUDGET,
                        "--max-inflight-bytes=" + (BUDGET - 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--max-inflight-bytes");
  }
}
