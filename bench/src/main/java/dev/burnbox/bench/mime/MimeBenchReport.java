package dev.burnbox.bench.mime;

import dev.burnbox.bench.report.JmhResult;
import dev.burnbox.bench.report.Machine;
import dev.burnbox.server.mime.DecodedMail;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Markdown for docs/benchmarks.md ("MIME decoding"): msgs/s and MB/s per parser from {@link
 * MimeDecodeBenchmark}'s JMH JSON, as ratios to Jakarta Mail with the provider property measured in
 * the same run; then how far the two parsers agree, field by field, on the SpamAssassin corpus, and
 * how many rows of the odd-MIME test corpus's expectations each meets.
 *
 * <p>Usage: {@code MimeBenchReport --jmh FILE[,FILE...] --out FILE --command TEXT [--odd-corpus
 * DIR]}.
 */
public final class MimeBenchReport {
  private static final String BASELINE = "jakarta";
  private static final List<String> IMPLS = List.of("mime4j", "mime4j-dom", "jakarta");

  private MimeBenchReport() {}

  public static void main(String[] args) throws IOException {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i], args[i + 1]);
    }
    Path oddCorpus =
        Path.of(options.getOrDefault("--odd-corpus", "smtp-server/src/test/resources/mime-corpus"));
    MimeBenchMails corpus = MimeBenchMails.locate();
    StringBuilder md = new StringBuilder();
    md.append("- **Date:** ")
        .append(
            ZonedDateTime.now(ZoneOffset.UTC)
                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")))
        .append(" UTC\n- **Command:** `")
        .append(options.getOrDefault("--command", "bench/run-mime-bench.sh"))
        .append("`\n- **Machine:** ")
        .append(Machine.describe())
        .append("\n- **Mail:** ")
        .append(corpus.describe())
        .append("\n\n");
    List<JmhResult> results = new ArrayList<>();
    for (String file : options.get("--jmh").split(",")) {
      results.addAll(JmhResult.read(Path.of(file)));
    }
    speed(results, corpus, md);
    agreement(corpus, md);
    expectations(oddCorpus, md);
    Files.writeString(Path.of(options.get("--out")), md);
    System.out.print(md);
  }

  private static void speed(List<JmhResult> results, MimeBenchMails corpus, StringBuilder md) {
    md.append("| benchmark | parser | ms per corpus pass | msgs/s | MB/s | vs ")
        .append(BASELINE)
        .append(" |\n|---|---|---:|---:|---:|---:|\n");
    for (JmhResult result : results) {
      double baseline =
          results.stream()
              .filter(r -> r.benchmark().equals(result.benchmark()))
              .filter(r -> BASELINE.equals(r.param("impl")))
              .mapToDouble(JmhResult::score)
              .findFirst()
              .orElse(Double.NaN);
      double seconds = result.score() / 1000;
      md.append(
          String.format(
              "| %s | %s | %,.0f ± %,.0f | %,.0f | %,.1f | %.2fx |%n",
              result.benchmark().replace("MimeDecodeBenchmark.", ""),
              result.param("impl"),
              result.score(),
              result.error(),
              corpus.mails().size() / seconds,
              corpus.bytes() / 1e6 / seconds,
              baseline / result.score()));
    }
    md.append('\n');
  }

  private static void agreement(MimeBenchMails corpus, StringBuilder md) {
    Function<byte[], DecodedMail> mime4j = MimeDecodeBenchmark.decoder("mime4j");
    Function<byte[], DecodedMail> jakarta = MimeDecodeBenchmark.decoder("jakarta");
    Map<String, Integer> differences = new LinkedHashMap<>();
    for (String field : List.of("subject", "from", "to", "date", "text", "html", "attachments")) {
      differences.put(field, 0);
    }
    int malformedMime4j = 0;
    int malformedJakarta = 0;
    int identical = 0;
    for (byte[] raw : corpus.mails()) {
      DecodedMail a = mime4j.apply(raw);
      DecodedMail b = jakarta.apply(raw);
      malformedMime4j += a.malformed() ? 1 : 0;
      malformedJakarta += b.malformed() ? 1 : 0;
      boolean same = true;
      same &= count(differences, "subject", a.subject().equals(b.subject()));
      same &= count(differences, "from", a.from().equals(b.from()));
      same &= count(differences, "to", a.to().equals(b.to()));
      same &= count(differences, "date", a.date().equals(b.date()));
      same &= count(differences, "text", a.text().strip().equals(b.text().strip()));
      same &= count(differences, "html", a.html().strip().equals(b.html().strip()));
      same &= count(differences, "attachments", a.attachments().equals(b.attachments()));
      identical += same ? 1 : 0;
    }
    md.append(
        String.format(
            "Agreement on the corpus (same field rules, only the parser differs): %,d of %,d mails"
                + " decode identically; mails that differ, by field: %s. Malformed: mime4j %d,"
                + " jakarta %d.%n%n",
            identical, corpus.mails().size(), differences, malformedMime4j, malformedJakarta));
  }

  private static boolean count(Map<String, Integer> differences, String field, boolean same) {
    if (!same) {
      differences.merge(field, 1, Integer::sum);
    }
    return same;
  }

  /** Checks both parsers against the odd-MIME corpus's expectations.tsv (the unit test's rules). */
  private static void expectations(Path dir, StringBuilder md) throws IOException {
    Path table = dir.resolve("expectations.tsv");
    if (!Files.isRegularFile(table)) {
      md.append("(no ").append(table).append(": odd-MIME comparison skipped)\n");
      return;
    }
    Map<String, List<String>> failures = new LinkedHashMap<>();
    int rows = 0;
    for (String line : Files.readAllLines(table, StandardCharsets.UTF_8)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      rows++;
      String[] cells = line.split("\t", -1);
      byte[] raw = Files.readAllBytes(dir.resolve(cells[0]));
      for (String impl : IMPLS) {
        String miss = miss(MimeDecodeBenchmark.decoder(impl).apply(raw), cells);
        if (miss != null) {
          failures.computeIfAbsent(impl, k -> new ArrayList<>()).add(cells[0] + " (" + miss + ")");
        }
      }
    }
    for (String impl : IMPLS) {
      List<String> failed = failures.getOrDefault(impl, List.of());
      md.append(
          String.format(
              "- %s meets %d of %d odd-MIME expectations%s%n",
              impl,
              rows - failed.size(),
              rows,
              failed.isEmpty() ? "" : "; misses: " + String.join(", ", failed)));
    }
  }

  private static String miss(DecodedMail mail, String[] cells) {
    String scan = mail.scanText();
    if (!mail.subject().equals(cells[1])) {
      return "subject \"" + mail.subject() + "\"";
    }
    if (!mail.from().equals(cells[2])) {
      return "from \"" + mail.from() + "\"";
    }
    for (String snippet : snippets(cells[3])) {
      if (!scan.contains(snippet)) {
        return "scan text lacks \"" + snippet.replace("\n", "\\n") + "\"";
      }
    }
    for (String snippet : snippets(cells[4])) {
      if (scan.contains(snippet)) {
        return "scan text has \"" + snippet.replace("\n", "\\n") + "\"";
      }
    }
    if (mail.attachments().size() != Integer.parseInt(cells[5])) {
      return mail.attachments().size() + " attachments";
    }
    if (mail.malformed() != Boolean.parseBoolean(cells[6])) {
      return "malformed " + mail.malformed();
    }
    return null;
  }

  private static List<String> snippets(String cell) {
    if (cell.equals("-") || cell.isEmpty()) {
      return List.of();
    }
    return List.of(cell.replace("\\n", "\n").split(";;"));
  }
}
