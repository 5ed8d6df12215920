package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Starting, the bound port, and a graceful stop bounded by its deadline. */
class SmtpIntakeStopTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  /** An acceptor that holds each message until released. */
  private static final class HoldingAcceptor implements MessageAcceptor {
    final CountDownLatch arrived = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public SmtpReply accept(Envelope envelope, byte[] raw) {
      arrived.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new SmtpReply(451, "4.3.0", "interrupted");
      }
      return SmtpReply.ok("Stored");
    }
  }

  private static SmtpScript messageInFlight(SmtpIntake intake) throws IOException {
    SmtpScript smtp = SmtpScript.ehlo(intake.port(), "127.0.0.1");
    smtp.send("MAIL FROM:<s@example.org>");
    smtp.send("RCPT TO:<a@burnbox.test>");
    smtp.expectAfter("DATA", "354");
    smtp.write("Subject: slow store\r\n\r\nx\r\n.\r\n");
    return smtp;
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void letsAMessageInFlightFinishWhileRefusingNewConnections(ThreadModel threads) throws Exception {
    HoldingAcceptor acceptor = new HoldingAcceptor();
    SmtpIntake intake = TestIntakes.start(TestIntakes.settings(threads), acceptor, registry);
    try (SmtpScript smtp = messageInFlight(intake)) {
      assertThat(acceptor.arrived.await(5, TimeUnit.SECONDS)).isTrue();
      // on a thread of its own, not the shared common pool: an interrupted stop cuts every session
      CompletableFuture<Void> stopping =
          CompletableFuture.runAsync(
              () -> intake.stop(Duration.ofSeconds(5)),
              task -> Thread.ofPlatform().name("stopping").start(task));
      await().atMost(Duration.ofSeconds(5)).until(intake::stopping);
      try (SmtpScript late = SmtpScript.connect(intake.port())) {
        assertThat(late.reply()).isEqualTo("421 4.3.2 Service shutting down, try again later");
        assertThat(late.closedByServer()).isTrue();
      }
      assertThat(stopping).isNotDone();
      acceptor.release.countDown();
      assertThat(smtp.reply()).isEqualTo("250 2.0.0 Stored");
      stopping.get(5, TimeUnit.SECONDS);
      assertThat(smtp.reply()).as("then told why it is closed").startsWith("421 4.3.2");
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertThatThrownBy(() -> SmtpScript.connect(intake.port())).isInstanceOf(IOException.class);
  }

  /**
   * At the deadline a session waiting for its client, idle or in the middle of a transaction, is
   * told {@code 421 4.3.2} before its connection closes (RFC 5321 §3.8); one whose message the
   * intake still holds is closed.
   */
  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void forcesSessionsClosedAtTheDeadline(ThreadModel threads) throws Exception {
    HoldingAcceptor acceptor = new HoldingAcceptor();
    SmtpIntake intake = TestIntakes.start(TestIntakes.settings(threads), acceptor, registry);
    try (SmtpScript idle = SmtpScript.ehlo(intake.port(), "127.0.0.1");
        SmtpScript waiting = SmtpScript.ehlo(intake.port(), "127.0.0.1");
        SmtpScript stuck = messageInFlight(intake)) {
      waiting.send("MAIL FROM:<s@example.org>");
      waiting.send("RCPT TO:<a@burnbox.test>"); // then silent, as before its DATA
      assertThat(acceptor.arrived.await(5, TimeUnit.SECONDS)).isTrue();
      long start = System.nanoTime();
      intake.stop(Duration.ofMillis(300));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
      assertThat(idle.reply()).startsWith("421 4.3.2");
      assertThat(idle.closedByServer()).isTrue();
      assertThat(waiting.reply()).startsWith("421 4.3.2");
      assertThat(waiting.closedByServer()).isTrue();
      assertThat(TestIntakes.count(registry, "burnbox.refusals", "reason", "shutting_down"))
          .isEqualTo(2);
    } finally {
      acceptor.release.countDown();
    }
  }

  /**
   * A connection accepted but not yet answered when the stop closes every connection hears {@code
   * 421 4.3.2} as it closes, never a silent close (RFC 5321 §3.8). Here it waits behind the pool's
   * only thread, which a message the intake holds keeps busy past the deadline, so its session
   * never runs; SubEtha's stop closes it. A session accepted just before the listener closes, whose
   * thread has not yet written its greeting or the gate's refusal, is closed the same way.
   */
  @Test
  void aConnectionTheStopClosesBeforeItsSessionAnsweredIsTold421() throws Exception {
    HoldingAcceptor acceptor = new HoldingAcceptor();
    SmtpIntake intake =
        TestIntakes.start(
            TestIntakes.settings(ThreadModel.POOL, "--pool-threads=1"), acceptor, registry);
    try (SmtpScript stuck = messageInFlight(intake);
        SmtpScript queued = SmtpScript.connect(intake.port())) {
      assertThat(acceptor.arrived.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(queued.silentFor(Duration.ofMillis(200))).as("waiting for a pool thread").isTrue();
      intake.stop(Duration.ofMillis(300));
      assertThat(queued.reply()).isEqualTo("421 4.3.2 Service shutting down, try again later");
      assertThat(queued.closedByServer()).isTrue();
      assertThat(TestIntakes.count(registry, "burnbox.refusals", "reason", "shutting_down"))
          .isEqualTo(1);
    } finally {
      acceptor.release.countDown();
    }
  }

  /**
   * A client inside a BDAT chunk that no transaction takes (here one sent before EHLO) waits to
   * send content like any other: the stop tells it {@code 421 4.3.2} before it closes.
   */
  @Test
  void tellsAClientInsideADroppedBdatChunkWhyItIsClosed() throws Exception {
    SmtpIntake intake =
        TestIntakes.start(
            TestIntakes.settings(ThreadModel.VIRTUAL), new RecordingAcceptor(), registry);
    try (SmtpScript smtp = SmtpScript.connect(intake.port(), "127.0.0.2")) {
      smtp.expect("220");
      smtp.write("BDAT 999999999999 LAST\r\n");
      Thread.sleep(300); // for the session to be reading the chunk, not the command line
      intake.stop(Duration.ofMillis(300));
      assertThat(smtp.reply()).isEqualTo("421 4.3.2 Service shutting down, try again later");
      assertThat(smtp.closedByServer()).isTrue();
    } finally {
      TestIntakes.stop(intake);
    }
  }

  /**
   * A client that pipelines commands and never reads the replies leaves its session blocked writing
   * to it; the stop used to wait on that session's output for as long as the client kept its
   * connection. It is closed at once, and the other clients are still told why.
   */
  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void aClientThatNeverReadsItsRepliesDoesNotHoldTheStop(ThreadModel threads) throws Exception {
    SmtpIntake intake =
        TestIntakes.start(TestIntakes.settings(threads), new RecordingAcceptor(), registry);
    Duration grace = Duration.ofMillis(300);
    try (SmtpScript flooding = SmtpScript.pipeliningWithoutReading(intake.port(), "127.0.0.3");
        SmtpScript idle = SmtpScript.ehlo(intake.port(), "127.0.0.1")) {
      CompletableFuture<Void> stopping =
          CompletableFuture.runAsync(
              () -> intake.stop(grace),
              task -> Thread.ofPlatform().daemon().name("stopping").start(task));
      // a liveness check, not a speed test: the stop used to hang until the client left
      stopping.get(grace.multipliedBy(10).toMillis(), TimeUnit.MILLISECONDS);
      assertThat(idle.reply()).isEqualTo("421 4.3.2 Service shutting down, try again later");
      assertThat(idle.closedByServer()).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(ThreadModel.class)
  void reportsTheBoundPortAndFailsToBindATakenOne(ThreadModel threads) throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      SmtpIntake intake =
          new SmtpIntake(
              TestIntakes.settings(threads, "--smtp-port=" + taken.getLocalPort()),
              null, // every interface, where the port is taken
              new RecordingAcceptor(),
              registry);
      assertThatThrownBy(intake::start).isInstanceOf(IOException.class);
      intake.close();
    }
    try (SmtpIntake intake =
        TestIntakes.start(TestIntakes.settings(threads), new RecordingAcceptor(), registry)) {
      assertThat(intake.port()).isPositive();
      assertThatThrownBy(intake::start).isInstanceOf(IllegalStateException.class);
    }
  }
}
