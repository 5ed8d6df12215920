package dev.burnbox.bench.matcher;

import dev.burnbox.matcher.MatcherKind;

/**
 * Prints the implementation names the matcher benchmarks accept, comma-separated, for {@code -p
 * impl=...}: every {@link MatcherKind} of this build, then {@code hankcs} and {@code calibration}.
 * With {@code --kinds}, only the matcher kinds. {@code bench/run-matcher-bench.sh} uses it so that
 * new kinds are benchmarked without code changes.
 */
public final class MatcherImplementations {
  private MatcherImplementations() {}

  /** Prints the list. */
  public static void main(String[] args) {
    boolean kindsOnly = args.length > 0 && args[0].equals("--kinds");
    System.out.println(
        String.join(
            ",",
            BenchImplementation.names().stream()
                .filter(n -> !kindsOnly || !n.equals(BenchImplementation.HANKCS))
                .filter(n -> !kindsOnly || !n.equals(BenchImplementation.CALIBRATION))
                .toList()));
  }
}
