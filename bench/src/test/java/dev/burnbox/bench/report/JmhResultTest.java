package dev.burnbox.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading JMH's JSON result format, from a sample written by JMH 1.37 (scores edited). */
class JmhResultTest {

  static String sample() throws IOException {
    try (InputStream in = JmhResultTest.class.getResourceAsStream("/jmh-sample.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void readsEveryEntryWithItsParamsScoreAndUnit() throws IOException {
    List<JmhResult> results = JmhResult.parse(sample());

    assertThat(results).hasSize(8);
    JmhResult first = results.get(0);
    assertThat(first.benchmark()).isEqualTo("MatcherThroughputBenchmark.scan");
    assertThat(first.mode()).isEqualTo("thrpt");
    assertThat(first.params())
        .containsExactly(
            Map.entry("impl", "org-ahocorasick"),
            Map.entry("set", "hitHeavy"),
            Map.entry("terms", "1000"),
            Map.entry("text", "spam"));
    assertThat(first.score()).isEqualTo(100.0);
    assertThat(first.error()).isEqualTo(5.0);
    assertThat(first.unit()).isEqualTo("ops/s");
    assertThat(first.settings())
        .containsEntry("jdkVersion", "25.0.3")
        .containsEntry("jmhVersion", "1.37")
        .containsEntry("forks", "1");
  }

  @Test
  void readsNanErrorsAsNan() throws IOException {
    JmhResult calibration =
        JmhResult.parse(sample()).stream()
            .filter(r -> "calibration".equals(r.param("impl")))
            .filter(r -> r.benchmark().endsWith(".scan"))
            .findFirst()
            .orElseThrow();

    assertThat(calibration.error()).isNaN();
  }

  @Test
  void readsBuildResultsInTheirOwnMode() throws IOException {
    List<JmhResult> builds =
        JmhResult.parse(sample()).stream()
            .filter(r -> r.benchmark().equals("MatcherBuildBenchmark.build"))
            .toList();

    assertThat(builds).hasSize(4).allSatisfy(r -> assertThat(r.mode()).isEqualTo("avgt"));
    assertThat(builds).allSatisfy(r -> assertThat(r.unit()).isEqualTo("ms/op"));
  }

  @Test
  void rejectsSomethingElse() {
    assertThatThrownBy(() -> JmhResult.parse("{\"benchmark\": \"x\"}"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
