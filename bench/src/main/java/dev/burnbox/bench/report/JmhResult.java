package dev.burnbox.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry of JMH's JSON result file ({@code -rf json}): a benchmark method at one combination of
 * parameters, with its primary score and the run's settings.
 *
 * @param benchmark class simple name and method, e.g. {@code MatcherThroughputBenchmark.scan}
 * @param mode JMH's mode label: {@code thrpt}, {@code avgt}, {@code ss}...
 * @param params the {@code @Param} values
 * @param score the primary score
 * @param error its 99.9% confidence half-width, NaN when JMH had too few samples
 * @param unit the score's unit, e.g. {@code ops/s} or {@code ms/op}
 * @param settings JDK, VM and iteration settings, as JMH wrote them, for the report's header
 */
public record JmhResult(
    String benchmark,
    String mode,
    Map<String, String> params,
    double score,
    double error,
    String unit,
    Map<String, String> settings) {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> SETTINGS =
      List.of(
          "jmhVersion",
          "jdkVersion",
          "vmName",
          "vmVersion",
          "forks",
          "warmupIterations",
          "warmupTime",
          "measurementIterations",
          "measurementTime",
          "threads");

  /** Reads a JMH JSON result file. */
  public static List<JmhResult> read(Path file) throws IOException {
    return parse(JSON.readTree(file.toFile()));
  }

  /** Parses the text of a JMH JSON result file. */
  public static List<JmhResult> parse(String json) throws IOException {
    return parse(JSON.readTree(json));
  }

  private static List<JmhResult> parse(JsonNode root) {
    if (!root.isArray()) {
      throw new IllegalArgumentException("not a JMH JSON result: the top level is not an array");
    }
    List<JmhResult> out = new ArrayList<>();
    for (JsonNode entry : root) {
      String benchmark = entry.path("benchmark").asText();
      String[] parts = benchmark.split("\\.");
      String shortName =
          parts.length >= 2 ? parts[parts.length - 2] + "." + parts[parts.length - 1] : benchmark;
      Map<String, String> params = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> param : entry.path("params").properties()) {
        params.put(param.getKey(), param.getValue().asText());
      }
      Map<String, String> settings = new LinkedHashMap<>();
      for (String key : SETTINGS) {
        if (entry.has(key)) {
          settings.put(key, entry.get(key).asText());
        }
      }
      JsonNode metric = entry.path("primaryMetric");
      out.add(
          new JmhResult(
              shortName,
              entry.path("mode").asText(),
              params,
              number(metric.path("score")),
              number(metric.path("scoreError")),
              metric.path("scoreUnit").asText(),
              settings));
    }
    return out;
  }

  /** JMH writes NaN and infinities as strings. */
  private static double number(JsonNode node) {
    if (node.isNumber()) {
      return node.asDouble();
    }
    try {
      return Double.parseDouble(node.asText());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  /** The value of a parameter, or null. */
  public String param(String name) {
    return params.get(name);
  }
}
