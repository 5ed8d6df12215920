package dev.burnbox.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Describes the machine a report is written on: CPU model, core count, OS. */
public final class Machine {
  private Machine() {}

  /** E.g. {@code AMD EPYC 7B13, 2 cores available to the JVM, Linux 6.1 (amd64)}. */
  public static String describe() {
    return String.format(
        "%s, %d cores available to the JVM, %s %s (%s)",
        cpuModel(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        System.getProperty("os.arch"));
  }

  private static String cpuModel() {
    Path cpuinfo = Path.of("/proc/cpuinfo");
    try {
      if (Files.isReadable(cpuinfo)) {
        List<String> lines = Files.readAllLines(cpuinfo);
        for (String line : lines) {
          if (line.startsWith("model name")) {
            return line.substring(line.indexOf(':') + 1).trim();
          }
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown CPU";
  }
}
