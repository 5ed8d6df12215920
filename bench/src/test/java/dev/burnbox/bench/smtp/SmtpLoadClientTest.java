package dev.burnbox.bench.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.server.smtp.IntakeSettings;
import dev.burnbox.server.smtp.SmtpIntake;
import dev.burnbox.server.smtp.SmtpReply;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The load generator's client and scenarios against an in-process intake: replies are read right, a
 * refused transaction leaves the connection usable, and counts and reply-code tallies agree with
 * what the server received.
 */
class SmtpLoadClientTest {
  private final AtomicInteger received = new AtomicInteger();
  private SmtpIntake intake;

  @BeforeEach
  void start() throws Exception {
    intake =
        new SmtpIntake(
            IntakeSettings.of(
                "--smtp-port=0", "--hostname=mx.burnbox.test", "--domains=burnbox.test"),
            InetAddress.getLoopbackAddress(),
            (envelope, raw) -> {
              received.incrementAndGet();
              return envelope.recipients().getFirst().startsWith("full@")
                  ? new SmtpReply(452, "4.2.2", "mailbox full")
                  : SmtpReply.ok("stored");
            },
            new SimpleMeterRegistry());
    intake.start();
  }

  @AfterEach
  void stop() {
    intake.stop(Duration.ofSeconds(2));
  }

  private InetSocketAddress address() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), intake.port());
  }

  @Test
  void sendsPipelinedAndReportsEachTransactionsFinalCode() throws Exception {
    byte[] mail = LoadMessages.encode("Subject: hi\r\n\r\n.starts with a dot\r\nbye\r\n");
    try (SmtpLoadClient client = SmtpLoadClient.connect(null, address(), 5000)) {
      assertThat(client.greeting()).isEqualTo(220);
      assertThat(client.ehlo("test.client")).isEqualTo(250);
      assertThat(client.pipelining()).isTrue();
      assertThat(client.send("a@b.test", "box1@burnbox.test", mail)).isEqualTo(250);
      assertThat(client.send("a@b.test", "x@elsewhere.test", mail)).isEqualTo(550);
      assertThat(client.send("a@b.test", "full@burnbox.test", mail)).isEqualTo(452);
      assertThat(client.send("a@b.test", "box2@burnbox.test", mail, 2000)).isEqualTo(250);
      assertThat(client.quit()).isEqualTo(221);
    }
    assertThat(received).hasValue(3); // the relay attempt never reached DATA
  }

  @Test
  void blastCountsWhatTheServerAccepted() throws Exception {
    LoadTarget target = new LoadTarget("intake", address(), new ProcessProbe(-1));
    LoadScenarios scenarios = new LoadScenarios(target, LoadMessages.ofSize(512), 2);

    LoadResult result = scenarios.blast(3, Duration.ofMillis(100), Duration.ofMillis(400));

    assertThat(result.accepted()).isPositive().isLessThanOrEqualTo(received.get());
    assertThat(result.outcomes()).containsOnlyKeys("250");
    assertThat(result.outcomes().get("250")).isEqualTo(result.accepted());
    assertThat(result.messagesPerSecond()).isEqualTo(result.accepted() / 0.4);
    assertThat(result.p50()).isPositive().isLessThanOrEqualTo(result.max());
    assertThat(result.serverCpuPercent()).isNaN();
    assertThat(result.errors()).isEqualTo("none");
  }

  @Test
  void slowClientsAreGreetedAndTheirMailsCounted() throws Exception {
    LoadTarget target = new LoadTarget("intake", address(), new ProcessProbe(-1));
    LoadScenarios scenarios = new LoadScenarios(target, LoadMessages.ofSize(300), 1);

    LoadResult result = scenarios.slowClients(3, Duration.ofMillis(1500), 1000);

    assertThat(result.notGreeted()).isZero();
    assertThat(result.greetingMax()).isLessThan(1000);
    assertThat(result.accepted()).isBetween(3L, (long) received.get());
  }
}
