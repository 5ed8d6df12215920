package dev.burnbox.bench.matcher;

import dev.burnbox.bench.TermSetKind;
import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.TermSet;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Build time of every matcher and peer: the average time to compile an already-built {@link
 * TermSet} (case-insensitive) into a matcher, after JIT warm-up. Building the {@link TermSet}
 * itself is shared by every matcher and not included. For the peer {@code hankcs} the time includes
 * putting the folded patterns into the {@code TreeMap} it builds from; for {@code calibration} it
 * is filling its table.
 *
 * <p>For a cold, first-build figure run it in single-shot mode: {@code java -jar
 * bench/target/benchmarks.jar MatcherBuildBenchmark -bm ss -f 5 -wi 0 -i 1}. Retained heap is
 * measured separately, by {@link MatcherFootprint}. Run with {@code bench/run-matcher-bench.sh}, or
 * {@code java -jar bench/target/benchmarks.jar MatcherBuildBenchmark -p terms=10000 -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class MatcherBuildBenchmark {
  /** See {@link MatcherThroughputBenchmark#impl}. */
  @Param({"naive", "org-ahocorasick", "hankcs", "calibration"})
  public String impl;

  /** Number of terms. */
  @Param({"10", "100", "1000", "10000"})
  public int terms;

  /** {@link TermSetKind#paramName()}. */
  @Param({"realistic", "hitHeavy"})
  public String set;

  private TermSet termSet;

  /** Builds the term set. */
  @Setup(Level.Trial)
  public void setUp() {
    termSet = TermSet.of(TermSetKind.fromParamName(set).terms(terms), MatchOptions.IGNORE_CASE);
  }

  /** Compiles the term set once; returns the compiled object to JMH. */
  @Benchmark
  public Object build() {
    return BenchImplementation.compile(impl, termSet).compiled();
  }
}
