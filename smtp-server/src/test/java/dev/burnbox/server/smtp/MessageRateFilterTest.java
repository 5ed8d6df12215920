package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.net.InetAddresses;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MessageRateFilterTest {
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final InetAddress client = InetAddresses.forString("192.0.2.1");

  private void advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }

  @Test
  void allowsTheRatePerMinuteThenRefuses() {
    MessageRateFilter filter = new MessageRateFilter(3, nanos::get);
    assertThat(filter.tryAcquire(client)).isTrue();
    assertThat(filter.tryAcquire(client)).isTrue();
    assertThat(filter.tryAcquire(client)).isTrue();
    assertThat(filter.tryAcquire(client)).isFalse();
    assertThat(filter.tryAcquire(InetAddresses.forString("192.0.2.2"))).isTrue();
  }

  @Test
  void refillsContinuouslyAndForgetsAfterAMinute() {
    MessageRateFilter filter = new MessageRateFilter(60, nanos::get);
    for (int i = 0; i < 60; i++) {
      assertThat(filter.tryAcquire(client)).isTrue();
    }
    assertThat(filter.tryAcquire(client)).isFalse();
    advance(Duration.ofSeconds(1));
    assertThat(filter.tryAcquire(client)).isTrue();
    assertThat(filter.tryAcquire(client)).isFalse();
    advance(Duration.ofMinutes(2));
    for (int i = 0; i < 60; i++) {
      assertThat(filter.tryAcquire(client)).isTrue();
    }
    assertThat(filter.tryAcquire(client)).isFalse();
  }

  @Test
  void zeroMeansNoLimit() {
    MessageRateFilter filter = new MessageRateFilter(0, nanos::get);
    for (int i = 0; i < 1000; i++) {
      assertThat(filter.tryAcquire(client)).isTrue();
    }
  }
}
