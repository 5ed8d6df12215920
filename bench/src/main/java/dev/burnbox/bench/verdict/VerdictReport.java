package dev.burnbox.bench.verdict;

import dev.burnbox.bench.report.Machine;
import dev.burnbox.bench.smtp.SmtpBenchReport;
import dev.burnbox.wordlists.SpamModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Writes the "Spam verdicts" section of {@code docs/benchmarks.md} and {@code docs/verdict-roc.png}
 * from the score files of one {@code bench/run-verdict-bench.sh} run.
 */
final class VerdictReport {
  static final String BEGIN = "<!-- verdict-bench:begin -->";
  static final String END = "<!-- verdict-bench:end -->";
  private static final double[] RATES = {0.001, 0.005, 0.01};

  /** One system's out-of-fold scores, its default threshold and its cost. */
  private record Row(
      String name,
      double[] scores,
      double threshold,
      String thresholdText,
      double mailsPerCoreSecond) {}

  private VerdictReport() {}

  static void write(Path out, Path docs, String command) throws IOException {
    List<String[]> burnbox = tsv(out.resolve("burnbox-scores.tsv"));
    int n = burnbox.size();
    boolean[] spam = new boolean[n];
    Map<String, Integer> index = new HashMap<>();
    double[] builtin = new double[n];
    double[] model = new double[n];
    double[] capped = new double[n];
    double[] markup = new double[n];
    for (int i = 0; i < n; i++) {
      String[] r = burnbox.get(i);
      index.put(r[0], i);
      spam[i] = r[1].equals("spam");
      builtin[i] = Double.parseDouble(r[3]);
      model[i] = Double.parseDouble(r[4]);
      capped[i] = Double.parseDouble(r[5]);
      markup[i] = Double.parseDouble(r[6]);
    }
    Map<String, String> cost = costs(out.resolve("burnbox-cost.tsv"));
    double modelRate = n / Double.parseDouble(cost.get("model"));
    double builtinRate = n / Double.parseDouble(cost.get("builtin"));

    double modelThreshold =
        new RocMetrics(model, spam)
            .thresholdForFalsePositiveRate(VerdictBench.TARGET_FALSE_POSITIVES);
    double cappedThreshold =
        new RocMetrics(capped, spam)
            .thresholdForFalsePositiveRate(VerdictBench.TARGET_FALSE_POSITIVES);
    List<Row> rows = new ArrayList<>();
    rows.add(
        new Row(
            "Burnbox, built-in list of 482 terms (the old verdict)",
            builtin,
            0,
            "score >= 5",
            builtinRate));
    rows.add(
        new Row(
            "**Burnbox, learned model** (10,000 n-grams, tf-idf over the smoothed length)",
            model,
            modelThreshold,
            String.format(Locale.ROOT, "p >= %.4f", SpamModel.probability(modelThreshold)),
            modelRate));
    rows.add(
        new Row(
            "the same with capped counts min(n, 3) instead of 1 + ln n",
            capped,
            cappedThreshold,
            "0.5% FP",
            Double.NaN));
    rows.add(
        new Row(
            "the same with the HTML markup part too (not shipped: see above)",
            markup,
            new RocMetrics(markup, spam)
                .thresholdForFalsePositiveRate(VerdictBench.TARGET_FALSE_POSITIVES),
            "0.5% FP",
            Double.NaN));

    Path sa = out.resolve("sa");
    String saNote;
    double saLocalRate = Double.NaN;
    if (Files.exists(sa.resolve("spamassassin-scores.tsv"))) {
      double[] local = new double[n];
      double[] bayes = new double[n];
      java.util.Arrays.fill(local, Double.NaN);
      java.util.Arrays.fill(bayes, Double.NaN);
      for (String[] r : tsv(sa.resolve("spamassassin-scores.tsv"))) {
        Integer i = index.get(r[0]);
        if (i != null) {
          local[i] = parseOrNaN(r[3]);
          bayes[i] = parseOrNaN(r[4]);
        }
      }
      Map<String, Double> saRates = saRates(sa.resolve("spamassassin-timing.tsv"));
      saLocalRate = saRates.getOrDefault("local", Double.NaN);
      rows.add(new Row("SpamAssassin, local rules", local, 5, "score >= 5", saLocalRate));
      rows.add(
          new Row(
              "SpamAssassin, local rules + Bayes trained on the same 4 folds",
              bayes,
              5,
              "score >= 5",
              saRates.getOrDefault("bayes", Double.NaN)));
      String version =
          Files.exists(sa.resolve("spamassassin-version.txt"))
              ? Files.readString(sa.resolve("spamassassin-version.txt")).strip().replace('\n', ' ')
              : "SpamAssassin";
      saNote =
          "- **Peer:** "
              + version
              + ", `spamd -L` (no network tests), run by"
              + " `bench/verdict/spamassassin-peer.sh` on the same folds\n";
    } else {
      saNote =
          "- **Peer:** SpamAssassin was not available in this run (see the run's log); its"
              + " rows are missing\n";
    }

    StringBuilder md = new StringBuilder();
    md.append(
        "_Generated by `bench/run-verdict-bench.sh`; edits between the markers are lost._\n\n");
    md.append("- **Date:** ")
        .append(
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
                .format(Instant.now().atZone(ZoneOffset.UTC)))
        .append("\n- **Command:** `")
        .append(command)
        .append("`\n");
    md.append("- **Machine:** ").append(Machine.describe()).append("\n");
    md.append(
        String.format(
            Locale.ROOT,
            "- **Mail:** SpamAssassin public corpus, easy-ham-2 (%d ham) and spam-2 (%d spam) only;"
                + " 5 folds per group (seed %d); every figure is out-of-fold: each mail scored by a"
                + " model trained on the other four folds\n",
            count(spam, false),
            count(spam, true),
            LabelledMail.FOLD_SEED));
    md.append(saNote);
    md.append(
        "- **Default threshold:** for the learned models, the one that flags at most 0.5% of"
            + " ham in this cross-validation (the shipped model's `#! threshold` is chosen the same"
            + " way); SpamAssassin's own 5.0; the old list's score 5\n\n");
    md.append(
        "| system | ROC AUC | recall at 0.1% FP | at 0.5% FP | at 1% FP | default threshold |"
            + " spam caught | ham flagged | precision | mails/s per core |\n");
    md.append("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|\n");
    for (Row row : rows) {
      RocMetrics roc = new RocMetrics(row.scores(), spam);
      md.append("| ").append(row.name());
      md.append(String.format(Locale.ROOT, " | %.4f", roc.auc()));
      for (double rate : RATES) {
        md.append(
            String.format(Locale.ROOT, " | %.1f%%", 100 * roc.recallAtFalsePositiveRate(rate)));
      }
      md.append(" | ").append(row.thresholdText());
      md.append(
          String.format(
              Locale.ROOT,
              " | %.1f%% | %.2f%% | %.2f%%",
              100 * roc.recallAt(row.threshold()),
              100 * roc.falsePositiveRateAt(row.threshold()),
              100 * roc.precisionAt(row.threshold())));
      md.append(
          Double.isNaN(row.mailsPerCoreSecond())
              ? " | - |\n"
              : String.format(Locale.ROOT, " | %,.0f |\n", row.mailsPerCoreSecond()));
    }
    md.append("\n");
    if (!Double.isNaN(saLocalRate)) {
      md.append(
          String.format(
              Locale.ROOT,
              "Decode and verdict with the learned model: %,.0f mails/s per core, %.0fx"
                  + " SpamAssassin's local rules in the same run (%,.1f mails/s per core).\n",
              modelRate,
              modelRate / saLocalRate,
              saLocalRate));
    }
    md.append("\nCost of the learned model (per fold): ").append(cost.get("folds")).append("\n");
    md.append("\n").append(cost.get("note")).append("\n");
    if (Files.exists(out.resolve("normalisation.txt"))) {
      md.append("\n").append(Files.readString(out.resolve("normalisation.txt"))).append("\n");
    }
    md.append("\n![ROC curves](verdict-roc.png)\n");

    Files.createDirectories(docs);
    drawRoc(rows, spam, docs.resolve("verdict-roc.png"));
    Files.writeString(out.resolve("report.md"), md);
    Path benchmarks = docs.resolve("benchmarks.md");
    String document =
        Files.exists(benchmarks) ? Files.readString(benchmarks, StandardCharsets.UTF_8) : "";
    Files.writeString(
        benchmarks,
        SmtpBenchReport.replaceSection(
            document,
            BEGIN,
            END,
            "## Spam verdicts\n\nGenerated by `bench/run-verdict-bench.sh`; see `bench/README.md`.\n\n",
            md.toString()),
        StandardCharsets.UTF_8);
    System.out.print(md);
  }

  private static void drawRoc(List<Row> rows, boolean[] spam, Path png) throws IOException {
    XYChart chart =
        new XYChartBuilder()
            .width(900)
            .height(720)
            .title("Spam vs easy-ham-2, 5-fold cross-validation")
            .xAxisTitle("ham flagged (false positive rate, log scale)")
            .yAxisTitle("spam caught (recall)")
            .build();
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setXAxisMin(0.0005);
    chart.getStyler().setXAxisMax(1.0);
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setYAxisMax(1.0);
    chart.getStyler().setMarkerSize(0);
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
    chart
        .getStyler()
        .setSeriesColors(
            new java.awt.Color[] {
              java.awt.Color.GRAY,
              new java.awt.Color(0, 90, 200),
              new java.awt.Color(120, 170, 230),
              new java.awt.Color(150, 60, 180),
              new java.awt.Color(240, 150, 0),
              new java.awt.Color(200, 0, 0)
            });
    for (Row row : rows) {
      double[][] curve = new RocMetrics(row.scores(), spam).curve();
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (int i = 0; i < curve[0].length; i++) {
        x.add(Math.max(curve[0][i], 0.0005));
        y.add(curve[1][i]);
      }
      XYSeries series = chart.addSeries(row.name().replace("**", ""), x, y);
      series.setMarker(SeriesMarkers.NONE);
      series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
    }
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  private static List<String[]> tsv(Path file) throws IOException {
    List<String[]> rows = new ArrayList<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (String line : lines.subList(1, lines.size())) {
      if (!line.isBlank() && !line.startsWith("#")) {
        rows.add(line.split("\t", -1));
      }
    }
    return rows;
  }

  /** "model" and "builtin" CPU seconds, "folds" (a summary) and "note" from burnbox-cost.tsv. */
  private static Map<String, String> costs(Path file) throws IOException {
    Map<String, String> cost = new HashMap<>();
    StringBuilder folds = new StringBuilder();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.startsWith("# decode+verdict")) {
        java.util.regex.Matcher m =
            java.util.regex.Pattern.compile("model ([0-9.]+), builtin ([0-9.]+)").matcher(line);
        if (m.find()) {
          cost.put("model", m.group(1));
          cost.put("builtin", m.group(2));
        }
        cost.put("note", "Service and trainer agree: " + line.substring(line.indexOf("max")) + ".");
      } else if (!line.startsWith("fold")) {
        String[] f = line.split("\t");
        folds.append(
            String.format(
                Locale.ROOT,
                "%sfold %s: %s terms, compiled in %s ms, %.1f MiB" + " of heap, trained in %s s",
                folds.length() == 0 ? "" : "; ",
                f[0],
                f[1],
                f[2],
                Long.parseLong(f[3]) / 1048576.0,
                f[4]));
      }
    }
    cost.put("folds", folds.append('.').toString());
    return cost;
  }

  private static Map<String, Double> saRates(Path file) throws IOException {
    Map<String, Double> rates = new HashMap<>();
    if (Files.exists(file)) {
      for (String[] r : tsv(file)) {
        if (r.length >= 5) {
          rates.put(r[0], parseOrNaN(r[4]));
        }
      }
    }
    return rates;
  }

  private static double parseOrNaN(String s) {
    try {
      return Double.parseDouble(s.strip());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static int count(boolean[] spam, boolean which) {
    int c = 0;
    for (boolean s : spam) {
      c += s == which ? 1 : 0;
    }
    return c;
  }
}
