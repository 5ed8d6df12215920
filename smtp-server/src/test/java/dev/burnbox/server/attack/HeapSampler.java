package dev.burnbox.server.attack;

/**
 * Reads the service's heap in use ({@code jvm_memory_used_bytes{area="heap"}} on {@code /metrics})
 * every 250 ms on its own thread and keeps the largest value seen since {@link #startPhase()}.
 */
final class HeapSampler implements AutoCloseable {
  private final Thread thread;
  private volatile double phaseMax;
  private volatile double overallMax;

  HeapSampler(AttackedService service) {
    thread =
        Thread.ofPlatform()
            .daemon()
            .name("heap-sampler")
            .start(
                () -> {
                  while (!Thread.currentThread().isInterrupted()) {
                    try {
                      double used = service.metrics().heapUsed();
                      phaseMax = Math.max(phaseMax, used);
                      overallMax = Math.max(overallMax, used);
                      Thread.sleep(250);
                    } catch (InterruptedException e) {
                      return;
                    } catch (Exception e) {
                      // the service is busy or gone; the test's own checks say which
                    }
                  }
                });
  }

  void startPhase() {
    phaseMax = 0;
  }

  long phaseMaxMiB() {
    return (long) phaseMax >> 20;
  }

  long overallMaxMiB() {
    return (long) overallMax >> 20;
  }

  @Override
  public void close() throws InterruptedException {
    thread.interrupt();
    thread.join(5000);
  }
}
