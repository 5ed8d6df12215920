package dev.burnbox.matcher;

import java.lang.management.ManagementFactory;

/**
 * Measures what a scan allocates with the JVM's per-thread allocation counter, for the tests that
 * check that scans without occurrences allocate nothing.
 */
final class AllocationMeter {
  private AllocationMeter() {}

  /**
   * Bytes allocated by the current thread while running {@code scan} {@code times} times: the least
   * of three measurements, after one unmeasured run. The first call through a new lambda links it,
   * and under JUnit in the interpreter ({@code -Xint}) one measurement in many picks up ~5 KiB that
   * a plain {@code main} never shows; a scan that allocates shows up in all three.
   */
  static long allocatedBytes(Runnable scan, int times) {
    com.sun.management.ThreadMXBean bean =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().threadId();
    scan.run();
    long least = Long.MAX_VALUE;
    for (int attempt = 0; attempt < 3; attempt++) {
      long before = bean.getThreadAllocatedBytes(thread);
      for (int i = 0; i < times; i++) {
        scan.run();
      }
      least = Math.min(least, bean.getThreadAllocatedBytes(thread) - before);
    }
    return least;
  }
}
