package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fixed pool: at most {@code poolThreads} sessions run; the next connection waits its turn. */
class SmtpIntakePoolTest {
  private final RecordingAcceptor acceptor = new RecordingAcceptor();
  private SmtpIntake intake;

  @AfterEach
  void stop() {
    TestIntakes.stop(intake);
  }

  @Test
  void aConnectionBeyondThePoolIsGreetedOnlyWhenASessionEnds() throws Exception {
    intake =
        TestIntakes.start(
            TestIntakes.settings(ThreadModel.POOL, "--pool-threads=1"),
            acceptor,
            new SimpleMeterRegistry());
    try (SmtpScript first = SmtpScript.ehlo(intake.port(), "127.0.0.1");
        Socket second = new Socket("127.0.0.1", intake.port())) {
      second.setSoTimeout(300);
      InputStream in = second.getInputStream();
      boolean greetedEarly;
      try {
        greetedEarly = in.read() != -1;
      } catch (SocketTimeoutException waiting) {
        greetedEarly = false;
      }
      assertThat(greetedEarly).as("greeted while the only pool thread is busy").isFalse();

      first.expectAfter("QUIT", "221");
      second.setSoTimeout(5000);
      byte[] greeting = in.readNBytes(3);
      assertThat(new String(greeting, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("220");
    }
  }
}
