package dev.burnbox.bench.smtp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a local process's CPU time and resident set size from {@code /proc} (Linux only). A probe
 * of process id -1, or of a process that has gone, reads NaN.
 */
public final class ProcessProbe {
  private static final double CLOCK_TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux/amd64

  private final long pid;

  /** A probe of process {@code pid}; -1 for "not measurable" (e.g. a remote server). */
  public ProcessProbe(long pid) {
    this.pid = pid;
  }

  /** Process id probed, -1 if none. */
  public long pid() {
    return pid;
  }

  /** User plus system CPU seconds the process has used so far, NaN if unknown. */
  public double cpuSeconds() {
    if (pid < 0) {
      return Double.NaN;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // fields after the command name, which is in parentheses and may hold spaces
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long utime = Long.parseLong(fields[11]);
      long stime = Long.parseLong(fields[12]);
      return (utime + stime) / CLOCK_TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /** Resident set size in MiB (VmRSS), NaN if unknown. */
  public double rssMebibytes() {
    if (pid < 0) {
      return Double.NaN;
    }
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
        }
      }
    } catch (IOException | RuntimeException e) {
      // fall through
    }
    return Double.NaN;
  }
}
