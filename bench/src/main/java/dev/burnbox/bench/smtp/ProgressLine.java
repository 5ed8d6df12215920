package dev.burnbox.bench.smtp;

import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * A progress line on stderr, redrawn every half second while a phase runs: label, elapsed of
 * planned seconds as a bar, messages accepted so far and the rate. Closing it prints the final
 * state and a line end.
 */
final class ProgressLine implements AutoCloseable {
  private static final int BAR = 20;

  private final String label;
  private final double plannedSeconds;
  private final LongSupplier accepted;
  private final long started = System.nanoTime();
  private final Thread drawer;
  private final PrintStream out = System.err;

  ProgressLine(String label, double plannedSeconds, LongSupplier accepted) {
    this.label = label;
    this.plannedSeconds = plannedSeconds;
    this.accepted = accepted;
    this.drawer =
        Thread.ofPlatform()
            .daemon()
            .name("progress")
            .start(
                () -> {
                  try {
                    while (true) {
                      draw();
                      Thread.sleep(500);
                    }
                  } catch (InterruptedException stop) {
                    // closed
                  }
                });
  }

  private synchronized void draw() {
    double elapsed = (System.nanoTime() - started) / 1e9;
    int filled = (int) Math.min(BAR, Math.round(BAR * elapsed / Math.max(0.001, plannedSeconds)));
    long count = accepted.getAsLong();
    out.printf(
        "\r%-34s [%s%s] %5.1f/%.0f s %,10d mails %,8.0f/s",
        label,
        "#".repeat(filled),
        " ".repeat(BAR - filled),
        elapsed,
        plannedSeconds,
        count,
        count / Math.max(0.001, elapsed));
    out.flush();
  }

  @Override
  public void close() {
    drawer.interrupt();
    try {
      drawer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    draw();
    out.println();
  }
}
