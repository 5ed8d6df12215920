package dev.burnbox.bench.report;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.bench.MailCorpus;
import dev.burnbox.bench.matcher.MatcherFootprint.Footprint;
import dev.burnbox.bench.matcher.MatcherThroughputBenchmark;
import dev.burnbox.matcher.MatcherKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Turns the matcher benchmarks' JMH JSON results and {@code MatcherFootprint} output into the
 * generated section of {@code docs/benchmarks.md} and the PNG chart {@code
 * docs/matcher-throughput.png}: the machine and JDK, throughput per implementation, term count, set
 * kind and text (MB/s of 10^6 chars, and mails/s of 2,048-char mails) with ratios to the
 * calibration loop and to {@code hankcs} from the same run, build time and retained heap, whether
 * the targets are met, and what share of a core Mailinator's load would take.
 *
 * <p>"Ours" are the {@link MatcherKind}s other than {@code org-ahocorasick}, which wraps a library.
 *
 * <p>Run by {@code bench/run-matcher-bench.sh}; by hand: {@code java -cp
 * bench/target/benchmarks.jar dev.burnbox.bench.report.MatcherBenchReport --jmh A.json [--jmh
 * B.json] [--footprint F.json] --markdown docs/benchmarks.md --chart docs/matcher-throughput.png
 * --command "..."}.
 */
public final class MatcherBenchReport {
  static final String THROUGHPUT = "MatcherThroughputBenchmark.scan";
  static final String BUILD = "MatcherBuildBenchmark.build";
  static final String HANKCS = "hankcs";
  static final String CALIBRATION = "calibration";
  static final String REFERENCE = "org-ahocorasick";

  /** Mailinator's published load: 185 mails/s, about 380 KB/s. */
  static final double MAILINATOR_CHARS_PER_SECOND = 380_000;

  static final double BUILD_TARGET_MS = 100;
  static final long HEAP_TARGET_BYTES = 4L << 20;

  private final List<JmhResult> results;
  private final List<Footprint> footprints;
  private final Map<String, String> header;

  /**
   * A report over the given results.
   *
   * @param header lines of the "run" list, label to value (date, machine, command...)
   */
  MatcherBenchReport(
      List<JmhResult> results, List<Footprint> footprints, Map<String, String> header) {
    this.results = List.copyOf(results);
    this.footprints = List.copyOf(footprints);
    this.header = new LinkedHashMap<>(header);
  }

  /** Entry point; see the class comment for the arguments. */
  public static void main(String[] args) throws IOException {
    List<Path> jmh = new ArrayList<>();
    Path footprint = null;
    Path markdown = Path.of("docs/benchmarks.md");
    Path chart = Path.of("docs/matcher-throughput.png");
    String command = "(not given)";
    Path jmhCommands = null;
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--jmh" -> jmh.add(Path.of(Objects.requireNonNull(value, "--jmh FILE")));
        case "--footprint" ->
            footprint = Path.of(Objects.requireNonNull(value, "--footprint FILE"));
        case "--markdown" -> markdown = Path.of(Objects.requireNonNull(value, "--markdown FILE"));
        case "--chart" -> chart = Path.of(Objects.requireNonNull(value, "--chart FILE"));
        case "--command" -> command = Objects.requireNonNull(value, "--command TEXT");
        case "--jmh-commands" ->
            jmhCommands = Path.of(Objects.requireNonNull(value, "--jmh-commands FILE"));
        default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
      }
      i++;
    }
    List<JmhResult> results = new ArrayList<>();
    for (Path file : jmh) {
      if (Files.exists(file)) {
        results.addAll(JmhResult.read(file));
      } else {
        System.err.println("warning: no JMH results in " + file);
      }
    }
    List<Footprint> footprints =
        footprint != null && Files.exists(footprint)
            ? new ObjectMapper()
                .readValue(footprint.toFile(), new TypeReference<List<Footprint>>() {})
            : List.of();

    Map<String, String> header = new LinkedHashMap<>();
    header.put(
        "Date",
        ZonedDateTime.now(ZoneOffset.UTC)
            .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")));
    header.put("Command", "`" + command + "`");
    if (jmhCommands != null && Files.exists(jmhCommands)) {
      StringBuilder lines = new StringBuilder("which ran:\n");
      for (String line : Files.readAllLines(jmhCommands)) {
        lines.append("  - `").append(line.replaceFirst("^\\+ ", "")).append("`\n");
      }
      header.put("Steps", lines.toString().stripTrailing());
    }
    header.put("Machine", Machine.describe());
    results.stream().findFirst().ifPresent(r -> header.put("JDK", jdk(r)));
    header.put("Mail", MailCorpus.locate().source());

    MatcherBenchReport report = new MatcherBenchReport(results, footprints, header);
    String chartName =
        markdown.toAbsolutePath().getParent().relativize(chart.toAbsolutePath()).toString();
    MarkdownSection.update(markdown, report.render(chartName));
    List<ThroughputChart.Point> points = report.chartPoints();
    if (!points.isEmpty()) {
      ThroughputChart.write(points, chart);
      System.out.println("chart written to " + chart);
    }
    System.out.println("report written to " + markdown);
  }

  private static String jdk(JmhResult r) {
    Map<String, String> s = r.settings();
    return String.format(
        "%s (%s %s), JMH %s; forks %s, warm-up %s x %s, measurement %s x %s",
        s.get("jdkVersion"),
        s.get("vmName"),
        s.get("vmVersion"),
        s.get("jmhVersion"),
        s.get("forks"),
        s.get("warmupIterations"),
        s.get("warmupTime"),
        s.get("measurementIterations"),
        s.get("measurementTime"));
  }

  /** The markdown between the markers; {@code chart} is the PNG's path relative to the file. */
  String render(String chart) {
    StringBuilder md = new StringBuilder();
    md.append(
        "_Generated by `bench/run-matcher-bench.sh`; edits between the markers are lost._\n\n");
    header.forEach((k, v) -> md.append("- **").append(k).append(":** ").append(v).append('\n'));
    md.append(
        String.format(
            Locale.ROOT,
            "- **Units:** one operation scans %d mails of %,d chars; MB/s = 10^6 chars/s (the mail"
                + " is almost all ASCII, so about 10^6 bytes/s); mails/s = operations/s x %d."
                + " Case-insensitive. \"Ours\" = every matcher kind except `%s` (a library"
                + " wrapper). Every implementation's occurrences were checked against `%s` before"
                + " timing.%n%n",
            MatcherThroughputBenchmark.MAILS,
            MatcherThroughputBenchmark.MAIL_CHARS,
            MatcherThroughputBenchmark.MAILS,
            REFERENCE,
            REFERENCE));
    renderTargets(md);
    renderMailinator(md);
    renderThroughput(md);
    renderBuildAndHeap(md);
    if (!chartPoints().isEmpty()) {
      md.append("![Throughput by term count](").append(chart).append(")\n");
    }
    return md.toString();
  }

  // ---- data access

  private List<JmhResult> throughput() {
    return results.stream().filter(r -> r.benchmark().equals(THROUGHPUT)).toList();
  }

  private Optional<JmhResult> throughput(String impl, int terms, String set, String text) {
    return throughput().stream()
        .filter(r -> impl.equals(r.param("impl")))
        .filter(r -> String.valueOf(terms).equals(r.param("terms")))
        .filter(r -> set.equals(r.param("set")))
        .filter(r -> text.equals(r.param("text")))
        .findFirst();
  }

  /** MB/s (10^6 chars) of a throughput result. */
  static double megabytesPerSecond(JmhResult r) {
    return opsPerSecond(r.score(), r.unit())
        * MatcherThroughputBenchmark.MAILS
        * MatcherThroughputBenchmark.MAIL_CHARS
        / 1e6;
  }

  static double mailsPerSecond(JmhResult r) {
    return opsPerSecond(r.score(), r.unit()) * MatcherThroughputBenchmark.MAILS;
  }

  static double opsPerSecond(double score, String unit) {
    return switch (unit) {
      case "ops/s" -> score;
      case "ops/ms" -> score * 1e3;
      case "ops/us" -> score * 1e6;
      case "ops/min" -> score / 60;
      default -> throw new IllegalArgumentException("not a throughput unit: " + unit);
    };
  }

  static double milliseconds(double score, String unit) {
    return switch (unit) {
      case "ms/op" -> score;
      case "us/op" -> score / 1e3;
      case "ns/op" -> score / 1e6;
      case "s/op" -> score * 1e3;
      default -> throw new IllegalArgumentException("not a time unit: " + unit);
    };
  }

  static boolean isOurs(String impl) {
    if (REFERENCE.equals(impl)) {
      return false;
    }
    for (MatcherKind kind : MatcherKind.values()) {
      if (kind.cliName().equals(impl)) {
        return true;
      }
    }
    return false;
  }

  private TreeSet<Integer> termCounts(Predicate<JmhResult> filter) {
    TreeSet<Integer> out = new TreeSet<>();
    results.stream().filter(filter).forEach(r -> out.add(Integer.parseInt(r.param("terms"))));
    return out;
  }

  private List<String> distinct(String param, List<JmhResult> from) {
    List<String> out = new ArrayList<>();
    for (JmhResult r : from) {
      if (r.param(param) != null && !out.contains(r.param(param))) {
        out.add(r.param(param));
      }
    }
    return out;
  }

  /** Implementations in a stable order: matcher kinds, then hankcs, calibration, then others. */
  private List<String> implementations(List<JmhResult> from) {
    List<String> order = new ArrayList<>();
    for (MatcherKind kind : MatcherKind.values()) {
      order.add(kind.cliName());
    }
    order.add(HANKCS);
    order.add(CALIBRATION);
    List<String> present = distinct("impl", from);
    List<String> out = new ArrayList<>(order.stream().filter(present::contains).toList());
    present.stream().filter(i -> !out.contains(i)).sorted().forEach(out::add);
    return out;
  }

  private Optional<JmhResult> bestOfOurs(int terms, String set, String text) {
    return throughput().stream()
        .filter(r -> isOurs(r.param("impl")))
        .filter(r -> String.valueOf(terms).equals(r.param("terms")))
        .filter(r -> set.equals(r.param("set")))
        .filter(r -> text.equals(r.param("text")))
        .max(Comparator.comparingDouble(MatcherBenchReport::megabytesPerSecond));
  }

  // ---- sections

  private void renderTargets(StringBuilder md) {
    md.append("### Targets\n\n");
    md.append("| target | set, terms, text | best of ours | compared with | ratio | met |\n");
    md.append("|---|---|---|---|---:|:-:|\n");
    List<String> texts = distinct("text", throughput());
    for (int terms : new int[] {1000, 10000}) {
      for (String text : texts) {
        ratioTarget(
            md, "hit-heavy: best of ours >= 4x hankcs", "hitHeavy", terms, text, HANKCS, 4.0, true);
        ratioTarget(
            md,
            "hit-heavy: best of ours >= 0.8x calibration",
            "hitHeavy",
            terms,
            text,
            CALIBRATION,
            0.8,
            true);
      }
    }
    for (int terms : new int[] {100, 1000}) {
      for (String text : texts) {
        ratioTarget(
            md,
            "realistic: best of ours faster than calibration",
            "realistic",
            terms,
            text,
            CALIBRATION,
            1.0,
            false);
      }
    }
    if (texts.isEmpty()) {
      md.append("| throughput targets | - | not measured | | | |\n");
    }
    for (String impl :
        implementations(results).stream().filter(MatcherBenchReport::isOurs).toList()) {
      Optional<Double> worstBuild =
          results.stream()
              .filter(r -> r.benchmark().equals(BUILD))
              .filter(r -> impl.equals(r.param("impl")) && "10000".equals(r.param("terms")))
              .map(r -> milliseconds(r.score(), r.unit()))
              .max(Double::compare);
      md.append("| build < 100 ms at 10,000 terms (slowest set) | ").append(impl).append(" | ");
      md.append(worstBuild.map(ms -> fmt(ms) + " ms").orElse("not measured"))
          .append(" | 100 ms | | ");
      md.append(worstBuild.map(ms -> ms < BUILD_TARGET_MS ? "yes" : "**no**").orElse("-"))
          .append(" |\n");
    }
    for (String impl :
        footprints.stream()
            .map(Footprint::impl)
            .distinct()
            .filter(MatcherBenchReport::isOurs)
            .toList()) {
      // the TermSet is the caller's input, shared with whatever else scans it; report both readings
      heapTarget(md, impl, "TermSet included", Footprint::retainedBytes);
      heapTarget(md, impl, "own structures, TermSet excluded", Footprint::withoutTermSetBytes);
    }
    md.append('\n');
  }

  private void heapTarget(
      StringBuilder md, String impl, String reading, ToLongFunction<Footprint> bytes) {
    Optional<Long> worstHeap =
        footprints.stream()
            .filter(f -> f.impl().equals(impl) && f.terms() == 10000)
            .map(bytes::applyAsLong)
            .max(Long::compare);
    md.append("| heap < 4 MiB at 10,000 terms (largest set, ")
        .append(reading)
        .append(") | ")
        .append(impl);
    md.append(" | ")
        .append(worstHeap.map(b -> mib(b)).orElse("not measured"))
        .append(" | 4 MiB | | ");
    md.append(worstHeap.map(b -> b < HEAP_TARGET_BYTES ? "yes" : "**no**").orElse("-"))
        .append(" |\n");
  }

  private void ratioTarget(
      StringBuilder md,
      String target,
      String set,
      int terms,
      String text,
      String versus,
      double threshold,
      boolean inclusive) {
    Optional<JmhResult> best = bestOfOurs(terms, set, text);
    Optional<JmhResult> other = throughput(versus, terms, set, text);
    if (best.isEmpty() && other.isEmpty()) {
      return;
    }
    md.append("| ").append(target).append(" | ");
    md.append(set).append(", ").append(String.format(Locale.ROOT, "%,d", terms)).append(", ");
    md.append(text).append(" | ");
    md.append(
        best.map(b -> b.param("impl") + " " + fmt(megabytesPerSecond(b)) + " MB/s")
            .orElse("not measured"));
    md.append(" | ").append(versus).append(' ');
    md.append(other.map(o -> fmt(megabytesPerSecond(o)) + " MB/s").orElse("not measured"))
        .append(" | ");
    if (best.isPresent() && other.isPresent()) {
      double ratio = megabytesPerSecond(best.get()) / megabytesPerSecond(other.get());
      boolean met = inclusive ? ratio >= threshold : ratio > threshold;
      md.append(String.format(Locale.ROOT, "%.2fx", ratio)).append(" | ");
      md.append(met ? "yes" : "**no**");
    } else {
      md.append(" | -");
    }
    md.append(" |\n");
  }

  private void renderMailinator(StringBuilder md) {
    md.append("### Mailinator's load on one core\n\n");
    md.append(
        "Mailinator reported 185 mails/s, about 380 KB/s. At the best speed of our matchers on the"
            + " realistic set, scanning that takes this share of one core:\n\n");
    List<String> texts =
        distinct("text", throughput()).stream().filter(t -> !t.equals("random")).toList();
    TreeSet<Integer> counts =
        termCounts(r -> r.benchmark().equals(THROUGHPUT) && "realistic".equals(r.param("set")));
    if (texts.isEmpty() || counts.isEmpty()) {
      md.append("_No realistic-set results on mail text in this run._\n\n");
      return;
    }
    md.append("| terms |");
    texts.forEach(t -> md.append(' ').append(t).append(" |"));
    md.append("\n|---:|");
    texts.forEach(t -> md.append("---:|"));
    md.append('\n');
    for (int terms : counts) {
      md.append("| ").append(String.format(Locale.ROOT, "%,d", terms)).append(" |");
      for (String text : texts) {
        md.append(' ');
        md.append(
            bestOfOurs(terms, "realistic", text)
                .map(
                    b ->
                        String.format(
                            Locale.ROOT,
                            "%.3f%% (%s)",
                            100 * MAILINATOR_CHARS_PER_SECOND / (megabytesPerSecond(b) * 1e6),
                            b.param("impl")))
                .orElse("-"));
        md.append(" |");
      }
      md.append('\n');
    }
    md.append('\n');
  }

  private void renderThroughput(StringBuilder md) {
    List<JmhResult> all = throughput();
    md.append("### Throughput\n\n");
    if (all.isEmpty()) {
      md.append("_No throughput results in this run._\n\n");
      return;
    }
    for (String set : distinct("set", all)) {
      for (String text : distinct("text", all)) {
        List<JmhResult> panel =
            all.stream()
                .filter(r -> set.equals(r.param("set")) && text.equals(r.param("text")))
                .toList();
        if (panel.isEmpty()) {
          continue;
        }
        md.append("#### ").append(set).append(" terms, ").append(text).append(" text\n\n");
        md.append(
            "| implementation | terms | MB/s | ± (99.9%) | mails/s | vs calibration | vs hankcs"
                + " |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (String impl : implementations(panel)) {
          for (int terms : termCounts(r -> panel.contains(r) && impl.equals(r.param("impl")))) {
            JmhResult r = throughput(impl, terms, set, text).orElseThrow();
            double mbps = megabytesPerSecond(r);
            double error = Double.isNaN(r.error()) ? Double.NaN : mbps * r.error() / r.score();
            md.append("| ")
                .append(impl)
                .append(" | ")
                .append(String.format(Locale.ROOT, "%,d", terms));
            md.append(" | ")
                .append(fmt(mbps))
                .append(" | ")
                .append(Double.isNaN(error) ? "-" : fmt(error));
            md.append(" | ").append(String.format(Locale.ROOT, "%,.0f", mailsPerSecond(r)));
            md.append(" | ").append(ratio(mbps, throughput(CALIBRATION, terms, set, text)));
            md.append(" | ")
                .append(ratio(mbps, throughput(HANKCS, terms, set, text)))
                .append(" |\n");
          }
        }
        md.append('\n');
      }
    }
  }

  private static String ratio(double mbps, Optional<JmhResult> other) {
    return other
        .map(o -> String.format(Locale.ROOT, "%.2fx", mbps / megabytesPerSecond(o)))
        .orElse("-");
  }

  private void renderBuildAndHeap(StringBuilder md) {
    md.append("### Build time and retained heap\n\n");
    List<JmhResult> builds = results.stream().filter(r -> r.benchmark().equals(BUILD)).toList();
    if (builds.isEmpty() && footprints.isEmpty()) {
      md.append("_Not measured in this run._\n\n");
      return;
    }
    md.append("Build: average time to compile a ready `TermSet` (JMH `")
        .append(builds.isEmpty() ? "-" : builds.get(0).mode())
        .append(
            "`). Heap: JOL's total size of everything reachable from the compiled matcher, with and"
                + " without the `TermSet` it shares with the caller.\n\n");
    md.append("| implementation | set | terms | build (ms) | ± | heap | heap without TermSet |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|\n");
    List<String> impls = new ArrayList<>(implementations(builds));
    footprints.stream()
        .map(Footprint::impl)
        .filter(i -> !impls.contains(i))
        .distinct()
        .forEach(impls::add);
    List<String> sets = new ArrayList<>(distinct("set", builds));
    footprints.stream()
        .map(Footprint::set)
        .filter(s -> !sets.contains(s))
        .distinct()
        .forEach(sets::add);
    for (String impl : impls) {
      for (String set : sets) {
        TreeSet<Integer> counts =
            termCounts(
                r ->
                    r.benchmark().equals(BUILD)
                        && impl.equals(r.param("impl"))
                        && set.equals(r.param("set")));
        footprints.stream()
            .filter(f -> f.impl().equals(impl) && f.set().equals(set))
            .forEach(f -> counts.add(f.terms()));
        for (int terms : counts) {
          Optional<JmhResult> build =
              builds.stream()
                  .filter(r -> impl.equals(r.param("impl")) && set.equals(r.param("set")))
                  .filter(r -> String.valueOf(terms).equals(r.param("terms")))
                  .findFirst();
          Optional<Footprint> heap =
              footprints.stream()
                  .filter(f -> f.impl().equals(impl) && f.set().equals(set) && f.terms() == terms)
                  .findFirst();
          md.append("| ").append(impl).append(" | ").append(set).append(" | ");
          md.append(String.format(Locale.ROOT, "%,d", terms)).append(" | ");
          md.append(build.map(b -> fmt(milliseconds(b.score(), b.unit()))).orElse("-"))
              .append(" | ");
          md.append(
              build
                  .filter(b -> !Double.isNaN(b.error()))
                  .map(b -> fmt(milliseconds(b.error(), b.unit())))
                  .orElse("-"));
          md.append(" | ").append(heap.map(f -> mib(f.retainedBytes())).orElse("-"));
          md.append(" | ")
              .append(heap.map(f -> mib(f.withoutTermSetBytes())).orElse("-"))
              .append(" |\n");
        }
      }
    }
    md.append('\n');
  }

  /** One point per throughput result, a panel per (set, text). */
  List<ThroughputChart.Point> chartPoints() {
    List<ThroughputChart.Point> points = new ArrayList<>();
    List<JmhResult> all = throughput();
    for (String set : distinct("set", all)) {
      for (String text : distinct("text", all)) {
        String panel = set + " terms, " + text + " text";
        List<JmhResult> inPanel =
            all.stream()
                .filter(r -> set.equals(r.param("set")) && text.equals(r.param("text")))
                .toList();
        for (String impl : implementations(inPanel)) {
          for (JmhResult r : inPanel) {
            if (impl.equals(r.param("impl"))) {
              points.add(
                  new ThroughputChart.Point(
                      impl, panel, Integer.parseInt(r.param("terms")), megabytesPerSecond(r)));
            }
          }
        }
      }
    }
    return points;
  }

  static String fmt(double value) {
    if (Double.isNaN(value)) {
      return "-";
    }
    return String.format(
        Locale.ROOT, value >= 100 ? "%,.0f" : value >= 10 ? "%.1f" : "%.2f", value);
  }

  static String mib(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    return bytes >= 1 << 20
        ? String.format(Locale.ROOT, "%.2f MiB", bytes / (double) (1 << 20))
        : String.format(Locale.ROOT, "%,.1f KiB", bytes / 1024.0);
  }
}
