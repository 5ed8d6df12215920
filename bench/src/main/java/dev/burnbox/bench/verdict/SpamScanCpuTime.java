package dev.burnbox.bench.verdict;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * One stage of {@link SpamScanBenchmark}, timed by this thread's CPU time instead of the wall
 * clock: on a machine shared with other work, wall-clock averages move with everyone else's load,
 * while the CPU a thread spent on its own work moves much less (cache misses caused by neighbours
 * still count). Warms up for 4 s, then times {@code samples} runs of 20 operations each and prints
 * the median and the fastest in µs per mail. {@code bench/run-verdict-ab.sh} runs it for builds of
 * several commits taking turns.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar dev.burnbox.bench.verdict.SpamScanCpuTime
 * STAGE hot|cold [SAMPLES]} (stages as in {@link SpamScanBenchmark}; samples default 15).
 */
public final class SpamScanCpuTime {
  private SpamScanCpuTime() {}

  public static void main(String[] args) {
    if (args.length < 2) {
      System.err.println("usage: SpamScanCpuTime STAGE hot|cold [SAMPLES]");
      System.exit(2);
    }
    SpamScanBenchmark bench = new SpamScanBenchmark();
    bench.stage = args[0];
    bench.cache = args[1];
    bench.setUp();
    int samples = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sink = 0;
    long warmUntil = System.nanoTime() + 4_000_000_000L;
    while (System.nanoTime() < warmUntil) {
      sink += bench.run();
    }
    double[] microsPerMail = new double[samples];
    for (int s = 0; s < samples; s++) {
      long start = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < 20; i++) {
        sink += bench.run();
      }
      long nanos = threads.getCurrentThreadCpuTime() - start;
      microsPerMail[s] = nanos / 1e3 / 20 / SpamScanBenchmark.MAILS;
    }
    Arrays.sort(microsPerMail);
    System.out.printf(
        Locale.ROOT,
        "%s %s: median %.1f, fastest %.1f µs per mail (thread CPU; checksum %d)%n",
        args[0],
        args[1],
        microsPerMail[samples / 2],
        microsPerMail[0],
        sink & 0xff);
  }
}
