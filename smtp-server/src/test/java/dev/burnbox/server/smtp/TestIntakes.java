package dev.burnbox.server.smtp;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.stream.Stream;

/** Settings and starting for intake tests: loopback, port 0, a fixed host name. */
final class TestIntakes {
  private TestIntakes() {}

  /**
   * Loopback on a free port; only 127.0.0.1 is trusted so 127.0.0.2+ act as strangers. No trace
   * header, so that content tests compare the bytes as sent; {@code TraceHeaderTest} covers it.
   * {@code options} come after these, as on the command line, and win.
   */
  static IntakeSettings settings(ThreadModel threads, String... options) {
    return IntakeSettings.of(
        Stream.concat(
                Stream.of(
                    "--no-trace-header",
                    "--smtp-port=0",
                    "--hostname=mx.burnbox.test",
                    "--domains=burnbox.test,Other.Test",
                    "--threads=" + threads,
                    "--trusted-networks=127.0.0.1"),
                Stream.of(options))
            .toArray(String[]::new));
  }

  static SmtpIntake start(
      IntakeSettings settings, MessageAcceptor acceptor, MeterRegistry registry) {
    SmtpIntake intake =
        new SmtpIntake(settings, InetAddress.getLoopbackAddress(), acceptor, registry);
    try {
      intake.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return intake;
  }

  static void stop(SmtpIntake intake) {
    if (intake != null) {
      intake.stop(Duration.ofSeconds(2));
    }
  }

  /** A counter's count, 0 if absent; {@code tag} may be null for an untagged counter. */
  static double count(MeterRegistry registry, String name, String tag, String value) {
    var search = registry.find(name);
    var counter = (tag == null ? search : search.tag(tag, value)).counter();
    return counter == null ? 0 : counter.count();
  }
}
