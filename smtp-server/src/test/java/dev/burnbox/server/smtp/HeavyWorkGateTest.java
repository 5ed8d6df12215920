package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class HeavyWorkGateTest {
  private static final int LARGE = HeavyWorkGate.LARGE_MESSAGE_BYTES;

  @Test
  void smallMessagesPassWhileLargeOnesHoldEveryPermit() throws Exception {
    HeavyWorkGate gate = new HeavyWorkGate(1);
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread large =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    gate.run(
                        LARGE,
                        () -> {
                          holding.countDown();
                          await(release);
                          return null;
                        });
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    assertThat(holding.await(5, TimeUnit.SECONDS)).isTrue();

    assertThat(gate.run(LARGE - 1, () -> "small")).isEqualTo("small");
    AtomicBoolean secondLargeRan = new AtomicBoolean();
    CompletableFuture<Void> secondLarge =
        CompletableFuture.runAsync(
            () -> {
              try {
                gate.run(LARGE, () -> secondLargeRan.getAndSet(true));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    Thread.sleep(200);
    assertThat(secondLargeRan).as("a second large message waits for the permit").isFalse();

    release.countDown();
    secondLarge.get(5, TimeUnit.SECONDS);
    assertThat(secondLargeRan).isTrue();
    large.join();
  }

  @Test
  void keepsOneCarrierOutOfHeavyWork() {
    int carriers =
        Integer.getInteger(
            "jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
    HeavyWorkGate gate = HeavyWorkGate.forThisMachine();
    assertThat(gate.permits()).isEqualTo(Math.max(1, carriers - 1));
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
