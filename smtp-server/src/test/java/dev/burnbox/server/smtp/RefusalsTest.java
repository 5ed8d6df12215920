package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.net.InetAddresses;
import dev.burnbox.server.logging.LogCapture;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RefusalsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final AtomicLong nanos = new AtomicLong();
  private final Refusals refusals = new Refusals(registry, nanos::get);
  private final InetAddress client = InetAddresses.forString("192.0.2.1");
  private final LogCapture lines = LogCapture.of(Refusals.class);

  @AfterEach
  void release() {
    lines.close();
  }

  @Test
  void countsEveryRefusalButLogsOneLinePerReasonPerWindow() {
    for (int i = 0; i < 100; i++) {
      refusals.record(Refusal.RATE_LIMITED, client, "s@example.org");
    }
    refusals.record(Refusal.UNSERVED_DOMAIN, client, "x@elsewhere.test");
    assertThat(lines.events()).hasSize(2);
    nanos.addAndGet(TimeUnit.SECONDS.toNanos(Refusals.LOG_WINDOW_SECONDS));
    refusals.record(Refusal.RATE_LIMITED, client, "s@example.org");

    assertThat(lines.events()).hasSize(3);
    assertThat(lines.messages().getLast())
        .contains(
            "rate_limited", "192.0.2.1", "450 4.7.0", "99 more rate_limited refusals not logged");
    assertThat(registry.get("burnbox.refusals").tag("reason", "rate_limited").counter().count())
        .isEqualTo(101);
  }

  @Test
  void keepsClientTextToOneShortPrintableLine() {
    refusals.record(Refusal.SYNTAX, client, "EHLO \u0007bell " + "x".repeat(500));
    String line = lines.messages().getFirst();
    assertThat(line).doesNotContain("\u0007").hasSizeLessThan(300);
  }

  @Test
  void returnsTheReplyOfTheReason() {
    assertThat(refusals.record(Refusal.TOO_MANY_RECIPIENTS, client, ""))
        .hasToString("452 4.5.3 Too many recipients");
  }
}
