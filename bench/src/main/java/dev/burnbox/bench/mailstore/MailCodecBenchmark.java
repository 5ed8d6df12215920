package dev.burnbox.bench.mailstore;

import dev.burnbox.mailstore.BodyCodec;
import java.util.Arrays;
import java.util.List;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Encode and decode speed of the mail store's body codecs on one thread, on real mail: one
 * operation encodes (or decodes) every test mail of {@link RawMailCorpus} once, each on its own as
 * the store does; MB/s = {@link RawMailCorpus#testBytes()} / time per operation (the report does
 * the division). Setup fails the run unless every test mail decodes to exactly its raw bytes, so a
 * broken codec cannot post a number.
 *
 * <p>Run: {@code bench/run-codec-bench.sh} (builds, runs this and {@link MailCodecReport}), or
 * {@code java -jar bench/target/benchmarks.jar MailCodecBenchmark -p codec=zstd-3,deflate-6} from
 * the repository root after {@code bench/fetch-corpus.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class MailCodecBenchmark {
  /** A {@link BenchCodec} label. */
  @Param({
    "deflate-1",
    "deflate-6",
    "lz4",
    "zstd-1",
    "zstd-3",
    "zstd-1+dict64k",
    "zstd-3+dict32k",
    "zstd-3+dict64k",
    "zstd-3+dict112k",
    "zstd-6+dict112k",
    "zstd-9+dict112k",
    "zstd-19+dict112k",
    "zstd-3+dict112k/per-call",
    "zstd-6+trained"
  })
  public String codec;

  private BodyCodec bodyCodec;
  private byte[][] raw;
  private byte[][] stored;

  /** Loads the corpus, makes the codec and checks that it round-trips every test mail. */
  @Setup(Level.Trial)
  public void setUp() {
    RawMailCorpus corpus = RawMailCorpus.locate();
    bodyCodec = BenchCodec.byLabel(codec).create(corpus);
    List<byte[]> test = corpus.test();
    raw = test.toArray(byte[][]::new);
    stored = new byte[raw.length][];
    for (int i = 0; i < raw.length; i++) {
      stored[i] = bodyCodec.encode(raw[i]);
      if (!Arrays.equals(bodyCodec.decode(stored[i]), raw[i])) {
        throw new IllegalStateException(codec + " does not round-trip test mail " + i);
      }
    }
    System.out.println("[setup] " + codec + ": " + corpus.describe());
  }

  /** Encodes every test mail. */
  @Benchmark
  public void encode(Blackhole blackhole) {
    for (byte[] mail : raw) {
      blackhole.consume(bodyCodec.encode(mail));
    }
  }

  /** Decodes every test mail. */
  @Benchmark
  public void decode(Blackhole blackhole) {
    for (byte[] form : stored) {
      blackhole.consume(bodyCodec.decode(form));
    }
  }
}
