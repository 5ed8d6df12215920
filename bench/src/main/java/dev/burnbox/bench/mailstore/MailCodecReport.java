package dev.burnbox.bench.mailstore;

import dev.burnbox.bench.report.JmhResult;
import dev.burnbox.bench.report.Machine;
import dev.burnbox.mailstore.BodyCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the markdown tables of {@code docs/benchmarks.md}'s "Mail store compression" section: each
 * {@link BenchCodec}'s compression ratio on the test mails of {@link RawMailCorpus} (computed here,
 * deterministic), its encode and decode MB/s from {@link MailCodecBenchmark}'s JMH JSON, every
 * figure also as a ratio to {@code deflate-6} of the same run; then {@link MailDedupEstimate}'s
 * figures for deduplication finer than whole bodies.
 *
 * <p>Usage: {@code MailCodecReport --jmh <result.json> --out <report.md> [--command <text>]}; run
 * by {@code bench/run-codec-bench.sh}. Single-threaded; fails if a codec does not round-trip.
 */
public final class MailCodecReport {
  private static final BenchCodec BASELINE = BenchCodec.DEFLATE_6;
  private static final BenchCodec CHUNK_CODEC = BenchCodec.ZSTD_3_DICT112;

  private MailCodecReport() {}

  /** Entry point; see the class comment. */
  public static void main(String[] args) throws IOException {
    Path jmh = null;
    Path out = null;
    String command = "bench/run-codec-bench.sh";
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--jmh" -> jmh = Path.of(args[i + 1]);
        case "--out" -> out = Path.of(args[i + 1]);
        case "--command" -> command = args[i + 1];
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (jmh == null || out == null) {
      throw new IllegalArgumentException("usage: --jmh <result.json> --out <report.md>");
    }
    String report = report(RawMailCorpus.locate(), JmhResult.read(jmh), command);
    Files.writeString(out, report, StandardCharsets.UTF_8);
    System.out.print(report);
  }

  /** Stored totals of one codec over the test mails. */
  private record Sizes(long stored, long storedHeap) {}

  static String report(RawMailCorpus corpus, List<JmhResult> results, String command) {
    List<byte[]> test = corpus.test();
    long raw = corpus.testBytes();
    long rawHeap = test.stream().mapToLong(m -> MailDedupEstimate.arrayHeapBytes(m.length)).sum();
    Map<BenchCodec, Sizes> sizes = new EnumMap<>(BenchCodec.class);
    Map<BenchCodec, BodyCodec> codecs = new EnumMap<>(BenchCodec.class);
    for (BenchCodec kind : BenchCodec.values()) {
      BodyCodec codec = kind.create(corpus);
      codecs.put(kind, codec);
      long stored = 0;
      long heap = 0;
      for (byte[] mail : test) {
        byte[] form = codec.encode(mail);
        if (!java.util.Arrays.equals(codec.decode(form), mail)) {
          throw new IllegalStateException(kind.label() + " does not round-trip");
        }
        stored += form.length;
        heap += MailDedupEstimate.arrayHeapBytes(form.length);
      }
      sizes.put(kind, new Sizes(stored, heap));
    }
    String settings = "";
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "Command: `%s`. Machine: %s. JDK: %s %s. Date: %s (UTC).%n%n",
            command,
            Machine.describe(),
            System.getProperty("java.vm.name"),
            System.getProperty("java.version"),
            LocalDate.now(ZoneOffset.UTC)));
    md.append("Corpus: ").append(corpus.describe()).append(".\n\n");
    if (!results.isEmpty()) {
      Map<String, String> s = results.get(0).settings();
      settings =
          String.format(
              "JMH %s, %s fork, %s x %s warm-up, %s x %s measured, 1 thread; one operation"
                  + " encodes (decodes) every test mail once, each on its own.",
              s.get("jmhVersion"),
              s.get("forks"),
              s.get("warmupIterations"),
              s.get("warmupTime"),
              s.get("measurementIterations"),
              s.get("measurementTime"));
    }
    md.append(settings).append("\n\n");
    md.append(
        "| codec | ratio | heap ratio | ratio vs deflate-6 | encode MB/s | vs deflate-6 |"
            + " decode MB/s | vs deflate-6 |\n");
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    double baseRatio = (double) raw / sizes.get(BASELINE).stored();
    double baseEncode = speed(results, BASELINE, "encode", raw);
    double baseDecode = speed(results, BASELINE, "decode", raw);
    for (BenchCodec kind : BenchCodec.values()) {
      Sizes size = sizes.get(kind);
      double ratio = (double) raw / size.stored();
      double encode = speed(results, kind, "encode", raw);
      double decode = speed(results, kind, "decode", raw);
      md.append(
          String.format(
              Locale.ROOT,
              "| `%s` | %.2f | %.2f | %.2fx | %s | %s | %s | %s |%n",
              kind.label(),
              ratio,
              (double) rawHeap / size.storedHeap(),
              ratio / baseRatio,
              number(encode),
              times(encode / baseEncode),
              number(decode),
              times(decode / baseDecode)));
    }
    md.append(
        "\nratio = raw bytes / stored bytes over all test mails; heap ratio counts each `byte[]`"
            + " as the JVM lays it out (16-byte header, 8-byte alignment), raw vs stored.\n");
    md.append("\nCodecs:\n\n");
    for (BenchCodec kind : BenchCodec.values()) {
      md.append("- `").append(kind.label()).append("`: ").append(kind.description()).append('\n');
    }
    md.append(dedup(test, rawHeap, codecs.get(CHUNK_CODEC), sizes.get(CHUNK_CODEC)));
    return md.toString();
  }

  private static String dedup(List<byte[]> test, long rawHeap, BodyCodec codec, Sizes perMail) {
    StringBuilder md = new StringBuilder();
    double[] shares = MailDedupEstimate.headerShares(test);
    long[] bodies = MailDedupEstimate.bodyDuplicates(test);
    long total = test.stream().mapToLong(m -> m.length).sum();
    md.append(
        String.format(
            Locale.ROOT,
            "%n**Deduplication beyond whole bodies** (same test mails; pieces compressed with `%s`;"
                + " stored heap includes %d-byte references and %d bytes of index per shared"
                + " piece):%n%n",
            CHUNK_CODEC.label(),
            MailDedupEstimate.REFERENCE_BYTES,
            MailDedupEstimate.INDEX_ENTRY_BYTES));
    md.append(
        String.format(
            Locale.ROOT,
            "- whole-mail duplicates: %d of %,d; mails whose body (after the header block) repeats"
                + " an earlier one's: %d (%.1f%% of the bytes); header blocks are %.1f%% of the"
                + " bytes,"
                + " `Received:` fields %.1f%%, and header fields repeated verbatim from an earlier"
                + " mail %.1f%%.%n%n",
            MailDedupEstimate.wholeMailDuplicates(test),
            test.size(),
            bodies[0],
            100.0 * bodies[1] / total,
            100 * shares[0],
            100 * shares[2],
            100 * shares[1]));
    md.append("| scheme | unique bytes | stored heap | heap ratio | vs per-mail |\n");
    md.append("|---|---:|---:|---:|---:|\n");
    List<String[]> rows = new ArrayList<>();
    rows.add(row("each mail compressed on its own", "100%", perMail.storedHeap(), rawHeap, 1));
    long headers = MailDedupEstimate.sharedHeaderFieldsBytes(test, codec);
    rows.add(
        row(
            "recurring header fields stored once (hindsight: an upper bound)",
            "",
            headers,
            rawHeap,
            (double) perMail.storedHeap() / headers));
    for (int average : new int[] {256, 512, 1024, 4096}) {
      long[] chunked = MailDedupEstimate.chunked(test, average, codec);
      rows.add(
          row(
              "content-defined chunks of ~" + average + " B, each stored once",
              String.format(Locale.ROOT, "%.1f%%", 100.0 * chunked[0] / chunked[1]),
              chunked[2],
              rawHeap,
              (double) perMail.storedHeap() / chunked[2]));
    }
    for (String[] row : rows) {
      md.append("| ").append(String.join(" | ", row)).append(" |\n");
    }
    return md.toString();
  }

  private static String[] row(
      String scheme, String unique, long stored, long rawHeap, double vsPerMail) {
    return new String[] {
      scheme,
      unique,
      String.format(Locale.ROOT, "%,.2f MB", stored / 1e6),
      String.format(Locale.ROOT, "%.2f", (double) rawHeap / stored),
      String.format(Locale.ROOT, "%.2fx", vsPerMail)
    };
  }

  private static double speed(List<JmhResult> results, BenchCodec kind, String op, long raw) {
    for (JmhResult result : results) {
      if (result.benchmark().equals("MailCodecBenchmark." + op)
          && kind.label().equals(result.params().get("codec"))
          && result.unit().equals("ms/op")) {
        return raw / 1e6 / (result.score() / 1e3);
      }
    }
    return Double.NaN;
  }

  private static String number(double value) {
    return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%,.0f", value);
  }

  private static String times(double value) {
    return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2fx", value);
  }
}
