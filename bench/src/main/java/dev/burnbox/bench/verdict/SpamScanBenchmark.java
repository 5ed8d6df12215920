package dev.burnbox.bench.verdict;

import dev.burnbox.bench.MailCorpus;
import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.TermCounts;
import dev.burnbox.matcher.TermMatcher;
import dev.burnbox.matcher.TermSet;
import dev.burnbox.matcher.TextNormalizer;
import dev.burnbox.server.mime.DecodedMail.ScanParts;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.wordlists.SpamModel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the spam verdict costs per mail, stage by stage, with the shipped model: the mails are the
 * bodies the SMTP blast sends ({@value #MAILS} corpus bodies cut to {@value #MAIL_CHARS} chars, ham
 * and spam alternating, as {@code SmtpLoadBench}'s 2 KB mails), one operation scans them all, so µs
 * per mail = µs per operation / {@value #MAILS}.
 *
 * <ul>
 *   <li>{@code normalize}: {@link TextNormalizer#normalize} of each body.
 *   <li>{@code match}: the model's matcher over the already normalised bodies, a sink that only
 *       sums term ids (the matcher's own cost).
 *   <li>{@code count}: the same, counting each term's matches in an array by term.
 *   <li>{@code distinct}: the same, also listing the distinct terms found (what scoring needs: the
 *       first match of a term is a branch no predictor guesses).
 *   <li>{@code counted}: what {@code distinct} computes, through {@link TermMatcher#count} (which
 *       the Aho-Corasick matcher runs as two walks side by side on texts of 256 chars and more).
 *   <li>{@code verdict}: {@link SpamScanner#score}, the whole scoring of a mail (normalise, match,
 *       count, score).
 *   <li>{@code copy}: {@link SpamScanner#scan(ScanParts)} of mails it has scanned before: a
 *       campaign's copies, whose verdicts it keeps (a hash and one comparison of the text). The
 *       intake looks copies up the same way, by their decoded text ({@link
 *       SpamScanner#scan(dev.burnbox.server.mime.DecodedMail)}).
 * </ul>
 *
 * <p>With {@code cache=cold}, each mail is preceded by a pass over 4 MiB of other memory, as the
 * rest of the intake (zstd's tables above all) leaves the caches for the next scan in the service;
 * the pass costs the same in every stage, so compare stages within one {@code cache} setting.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar SpamScanBenchmark -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class SpamScanBenchmark {
  /** Mails per operation. */
  public static final int MAILS = 64;

  /** Length of each body, in chars (a 2 KB blast mail less its headers). */
  public static final int MAIL_CHARS = 1900;

  /** The stage measured (see the class comment). */
  @Param({"normalize", "match", "count", "distinct", "counted", "verdict", "copy"})
  public String stage;

  /** {@code hot}, or {@code cold}: the caches emptied before each mail (see the class comment). */
  @Param({"hot", "cold"})
  public String cache;

  private final long[] otherWork = new long[4 << 17]; // 4 MiB
  private long touched;

  private String[] bodies;
  private String[] normalized;
  private ScanParts[] parts;
  private TermMatcher matcher;
  private SpamScanner scanner;

  /** Cuts the mails and compiles the shipped model. */
  @Setup
  public void setUp() {
    MailCorpus corpus = MailCorpus.locate();
    List<String> mixed = new ArrayList<>();
    for (int i = 0; i < Math.min(corpus.hamBodies().size(), corpus.spamBodies().size()); i++) {
      mixed.add(corpus.hamBodies().get(i));
      mixed.add(corpus.spamBodies().get(i));
    }
    bodies = MailCorpus.batch(mixed, MAILS, MAIL_CHARS);
    TextNormalizer normalizer = TextNormalizer.standard();
    normalized = new String[MAILS];
    parts = new ScanParts[MAILS];
    for (int i = 0; i < MAILS; i++) {
      normalized[i] = normalizer.normalize(bodies[i]).text();
      parts[i] = new ScanParts("load test mail %04d".formatted(i), bodies[i], "");
    }
    SpamModel model = SpamModel.defaults();
    Set<String> terms = new LinkedHashSet<>();
    for (SpamModel.WeightedTerm term : model.terms()) {
      terms.add(normalizer.normalizeTerm(term.term()));
    }
    matcher = TermMatcher.best(TermSet.of(terms, MatchOptions.EXACT));
    scanner = SpamScanner.of(null, null, model);
  }

  /** Walks the other-work buffer when {@code cache=cold}, one cache line in eight bytes. */
  private void evict() {
    if (cache.equals("cold")) {
      long[] buffer = otherWork;
      for (int i = 0; i < buffer.length; i += 8) {
        buffer[i] += i;
      }
      touched += buffer[touched == 0 ? 8 : 16];
    }
  }

  /** One operation: the stage over every mail; returns a checksum so nothing is optimised away. */
  @Benchmark
  public long run() {
    long sum = touched;
    switch (stage) {
      case "normalize" -> {
        for (String body : bodies) {
          evict();
          sum += TextNormalizer.standard().normalize(body).text().length();
        }
      }
      case "match" -> {
        int[] count = {0};
        for (String text : normalized) {
          evict();
          matcher.forEachMatch(text, (term, start, end) -> count[0] += term);
        }
        sum = count[0];
      }
      case "count" -> {
        int[] counts = new int[matcher.terms().size()];
        for (String text : normalized) {
          evict();
          matcher.forEachMatch(text, (term, start, end) -> counts[term]++);
        }
        sum = counts[7];
      }
      case "distinct" -> {
        int[] counts = new int[matcher.terms().size()];
        int[] touched = new int[counts.length];
        int[] size = {0};
        for (String text : normalized) {
          evict();
          matcher.forEachMatch(
              text,
              (term, start, end) -> {
                if (counts[term]++ == 0) {
                  touched[size[0]++] = term;
                }
              });
          for (int i = 0; i < size[0]; i++) {
            counts[touched[i]] = 0;
          }
          sum += size[0];
          size[0] = 0;
        }
      }
      case "counted" -> {
        TermCounts counts = new TermCounts(matcher.terms().size());
        for (String text : normalized) {
          evict();
          matcher.count(text, counts);
          sum += counts.distinct();
          counts.clear();
        }
      }
      case "verdict" -> {
        for (ScanParts mail : parts) {
          evict();
          sum += Double.doubleToLongBits(scanner.score(mail).score());
        }
      }
      case "copy" -> {
        for (ScanParts mail : parts) {
          evict();
          // the copy's own strings (not yet hashed), as each delivery decodes them afresh
          ScanParts copy =
              new ScanParts(
                  new String(mail.subject().toCharArray()),
                  new String(mail.body().toCharArray()),
                  mail.markup());
          sum += Double.doubleToLongBits(scanner.scan(copy).score());
        }
      }
      default -> throw new IllegalArgumentException("unknown stage " + stage);
    }
    return sum;
  }
}
