package dev.burnbox.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.bench.matcher.MatcherFootprint.Footprint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report over the committed JMH sample: org-ahocorasick 100, hankcs 200, calibration 400 and
 * naive 1,000 ops/s on hit-heavy spam at 1,000 terms; one op is 128 x 2,048 chars, 0.262144 MB.
 */
class MatcherBenchReportTest {

  private static MatcherBenchReport report() throws IOException {
    List<Footprint> footprints =
        List.of(
            new Footprint("naive", 10000, "hitHeavy", 2_000_000, 16),
            new Footprint("hankcs", 10000, "hitHeavy", 9_000_000, 9_000_000));
    return new MatcherBenchReport(
        JmhResult.parse(JmhResultTest.sample()), footprints, Map.of("Command", "`test`"));
  }

  @Test
  void convertsOperationsToMegabytesAndMailsPerSecond() throws IOException {
    JmhResult hankcs = JmhResult.parse(JmhResultTest.sample()).get(1);

    assertThat(hankcs.param("impl")).isEqualTo("hankcs");
    assertThat(MatcherBenchReport.megabytesPerSecond(hankcs)).isCloseTo(52.4288, within());
    assertThat(MatcherBenchReport.mailsPerSecond(hankcs)).isCloseTo(25_600, within());
  }

  @Test
  void tablesThroughputWithRatiosToCalibrationAndHankcs() throws IOException {
    String md = report().render("matcher-throughput.png");

    assertThat(md)
        .contains("- **Command:** `test`")
        .contains("#### hitHeavy terms, spam text")
        .contains("| naive | 1,000 | 262 | 1.31 | 128,000 | 2.50x | 5.00x |")
        .contains("| hankcs | 1,000 | 52.4 | 1.31 | 25,600 | 0.50x | 1.00x |")
        .contains("| calibration | 1,000 | 105 | - | 51,200 | 1.00x | 2.00x |")
        .contains("![Throughput by term count](matcher-throughput.png)");
  }

  @Test
  void evaluatesTheTargets() throws IOException {
    String md = report().render("chart.png");

    assertThat(md)
        .contains(
            "| hit-heavy: best of ours >= 4x hankcs | hitHeavy, 1,000, spam | naive 262 MB/s"
                + " | hankcs 52.4 MB/s | 5.00x | yes |")
        .contains(
            "| hit-heavy: best of ours >= 0.8x calibration | hitHeavy, 1,000, spam | naive 262 MB/s"
                + " | calibration 105 MB/s | 2.50x | yes |")
        .contains(
            "| build < 100 ms at 10,000 terms (slowest set) | naive | 0.05 ms | 100 ms | | yes |")
        .contains(
            "| heap < 4 MiB at 10,000 terms (largest set, TermSet included) | naive | 1.91 MiB");
    // org-ahocorasick wraps a library: never "ours", so it has no target rows of its own.
    assertThat(md).doesNotContain("| org-ahocorasick | 5.50 ms");
  }

  @Test
  void drawsOnePointPerThroughputResult(@TempDir Path dir) throws IOException {
    List<ThroughputChart.Point> points = report().chartPoints();
    Path png = dir.resolve("chart.png");

    ThroughputChart.write(points, png);

    assertThat(points).hasSize(4);
    assertThat(Files.size(png)).isGreaterThan(1_000);
    assertThat(Files.readAllBytes(png)).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-6);
  }
}
