package dev.burnbox.bench.matcher;

import dev.burnbox.bench.MailCorpus;
import dev.burnbox.bench.TermSetKind;
import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.MatcherKind;
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
 * Scan throughput of every matcher and peer, case-insensitive ({@link MatchOptions#IGNORE_CASE}).
 *
 * <p>One operation scans a fixed batch of {@value #MAILS} mails of exactly {@value #MAIL_CHARS}
 * chars (256 Ki chars): every occurrence is reported to a {@link MatchTally} sink, counted and
 * checksummed, and the tally is returned to JMH. MB/s = ops/s x {@value #MAILS} x {@value
 * #MAIL_CHARS} / 10^6, so MB means 10^6 chars (mail is almost all ASCII, so about 10^6 bytes);
 * mails/s = ops/s x {@value #MAILS}.
 *
 * <p>Texts: {@code ham} and {@code spam} are the bodies of {@link MailCorpus} (SpamAssassin
 * easy-ham-2 and spam-2, or generated mail-like text without {@code bench/corpus/}) cut into 2 KB
 * mails; {@code random} is {@link NoHitText}, random words with no occurrence at all. Term sets:
 * {@link TermSetKind}.
 *
 * <p>Setup fails the run unless the implementation reports the same occurrence count and checksum
 * as the reference ({@link MatcherKind#ORG_AHOCORASICK}) on the batch, so a broken matcher cannot
 * post a number. The calibration loop reports nothing and is not checked.
 *
 * <p>Run all of it with {@code bench/run-matcher-bench.sh}, or by hand: {@code java -jar
 * bench/target/benchmarks.jar MatcherThroughputBenchmark -p impl=org-ahocorasick,hankcs -p
 * terms=1000 -p set=hitHeavy -p text=spam -f 1 -wi 1 -i 3}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class MatcherThroughputBenchmark {
  /** Mails scanned per operation. */
  public static final int MAILS = 128;

  /** Length of each mail, in chars. */
  public static final int MAIL_CHARS = 2048;

  private static final long RANDOM_TEXT_SEED = 7L;

  /**
   * The implementation: a {@link MatcherKind#cliName()}, {@code hankcs} or {@code calibration}. The
   * list below is the default; {@code run-matcher-bench.sh} passes every current kind with {@code
   * -p impl=...}.
   */
  @Param({"naive", "org-ahocorasick", "hankcs", "calibration"})
  public String impl;

  /** Number of terms. */
  @Param({"10", "100", "1000", "10000"})
  public int terms;

  /** {@link TermSetKind#paramName()}. */
  @Param({"realistic", "hitHeavy"})
  public String set;

  /** Which mails: {@code ham}, {@code spam} or {@code random}. */
  @Param({"ham", "spam", "random"})
  public String text;

  private MailBatch batch;
  private BenchImplementation implementation;

  /** Builds the batch and the implementation, and checks the implementation's matches. */
  @Setup(Level.Trial)
  public void setUp() {
    TermSet termSet =
        TermSet.of(TermSetKind.fromParamName(set).terms(terms), MatchOptions.IGNORE_CASE);
    batch = batch(text, termSet);
    implementation = BenchImplementation.compile(impl, termSet);
    MatchTally expected = tallyOf(BenchImplementation.compile("org-ahocorasick", termSet), batch);
    if (implementation.reportsMatches()) {
      MatchTally actual = tallyOf(implementation, batch);
      if (actual.count() != expected.count() || actual.checksum() != expected.checksum()) {
        throw new IllegalStateException(
            String.format(
                "%s reports %d occurrences (checksum %x) where the reference reports %d (%x):"
                    + " terms=%d set=%s text=%s",
                impl,
                actual.count(),
                actual.checksum(),
                expected.count(),
                expected.checksum(),
                terms,
                set,
                text));
      }
    }
    System.out.printf(
        "%n[setup] reference: %d occurrences in %d mails (%d chars); %s %s; corpus: %s%n",
        expected.count(),
        MAILS,
        batch.chars(),
        impl,
        implementation.reportsMatches() ? "agrees" : "is not checked (finds nothing)",
        Corpus.INSTANCE.source());
  }

  /** Scans the batch once; returns the tally's digest. */
  @Benchmark
  public long scan(Sink sink) {
    MatchTally tally = sink.tally;
    tally.reset();
    implementation.scan(batch, tally);
    return tally.digest();
  }

  /** One tally per benchmark thread, so that {@code -t N} runs do not share counters. */
  @State(Scope.Thread)
  public static class Sink {
    final MatchTally tally = new MatchTally();
  }

  /** The batch for a {@code text} parameter value. */
  static MailBatch batch(String text, TermSet termSet) {
    return MailBatch.of(
        switch (text) {
          case "ham" -> MailCorpus.batch(Corpus.INSTANCE.hamBodies(), MAILS, MAIL_CHARS);
          case "spam" -> MailCorpus.batch(Corpus.INSTANCE.spamBodies(), MAILS, MAIL_CHARS);
          case "random" -> {
            NoHitText random = NoHitText.generate(termSet, MAILS, MAIL_CHARS, RANDOM_TEXT_SEED);
            System.out.printf(
                "%n[setup] random text: %.2f%% of chars replaced to break occurrences%n",
                100 * random.replacedShare());
            yield random.mails();
          }
          default -> throw new IllegalArgumentException("unknown text: " + text);
        });
  }

  private static MatchTally tallyOf(BenchImplementation implementation, MailBatch batch) {
    MatchTally tally = new MatchTally();
    implementation.scan(batch, tally);
    return tally;
  }

  /** The corpus, loaded once per JVM. */
  private static final class Corpus {
    static final MailCorpus INSTANCE = MailCorpus.locate();
  }
}
