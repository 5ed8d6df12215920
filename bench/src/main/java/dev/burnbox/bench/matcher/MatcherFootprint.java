package dev.burnbox.bench.matcher;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.burnbox.bench.TermSetKind;
import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.TermSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.openjdk.jol.info.GraphLayout;

/**
 * Retained heap of every compiled matcher and peer, measured with JOL: the total size of the object
 * graph reachable from the compiled object, with and without the {@link TermSet} it shares with its
 * caller (the peers do not keep one). Deterministic, so measured once rather than under JMH.
 *
 * <p>Writes a JSON array of {@link Footprint}s. Run: {@code java -cp bench/target/benchmarks.jar
 * dev.burnbox.bench.matcher.MatcherFootprint OUT.json [IMPL,... [TERMS,...]]}; {@code
 * bench/run-matcher-bench.sh} does.
 */
public final class MatcherFootprint {

  /**
   * One measurement.
   *
   * @param impl implementation name
   * @param terms number of terms
   * @param set term set kind
   * @param retainedBytes everything reachable from the compiled object
   * @param withoutTermSetBytes the same minus what is reachable from the {@link TermSet}
   */
  public record Footprint(
      String impl, int terms, String set, long retainedBytes, long withoutTermSetBytes) {}

  private MatcherFootprint() {}

  /** Measures and writes; see the class comment for the arguments. */
  public static void main(String[] args) throws IOException {
    // JOL cannot read record field offsets through Unsafe on recent JDKs without this.
    if (System.getProperty("jol.magicFieldOffset") == null) {
      System.setProperty("jol.magicFieldOffset", "true");
    }
    if (args.length < 1) {
      System.err.println("usage: MatcherFootprint OUT.json [IMPL,... [TERMS,...]]");
      System.exit(2);
    }
    List<String> impls =
        args.length > 1 ? Arrays.asList(args[1].split(",")) : BenchImplementation.names();
    int[] termCounts =
        args.length > 2
            ? Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray()
            : new int[] {10, 100, 1000, 10000};
    List<Footprint> out = new ArrayList<>();
    for (TermSetKind kind : TermSetKind.values()) {
      for (int count : termCounts) {
        TermSet terms = TermSet.of(kind.terms(count), MatchOptions.IGNORE_CASE);
        for (String impl : impls) {
          out.add(measure(impl, terms, kind.paramName()));
        }
      }
    }
    Path file = Path.of(args[0]);
    if (file.toAbsolutePath().getParent() != null) {
      Files.createDirectories(file.toAbsolutePath().getParent());
    }
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), out);
    System.out.println("footprints written to " + file);
  }

  /** Compiles {@code terms} with {@code impl} and measures what it retains. */
  static Footprint measure(String impl, TermSet terms, String set) {
    Object compiled = BenchImplementation.compile(impl, terms).compiled();
    GraphLayout all = GraphLayout.parseInstance(compiled);
    GraphLayout own = all.subtract(GraphLayout.parseInstance(terms));
    return new Footprint(impl, terms.size(), set, all.totalSize(), own.totalSize());
  }
}
