package dev.burnbox.bench.mime;

import dev.burnbox.server.mime.DecodedMail;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.mime.MimeLimits;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
 * Full decode of real mail to {@link DecodedMail} on one thread, by parser: one operation decodes
 * every mail of {@link MimeBenchMails} once; msgs/s and MB/s = mails and bytes / time per operation
 * ({@link MimeBenchReport} does the division).
 *
 * <ul>
 *   <li>{@code mime4j}: {@link MailDecoder}, what the service uses: mime4j's token stream.
 *   <li>{@code mime4j-dom}: {@link Mime4jDomDecoder}: mime4j-dom's message tree, then a walk.
 *   <li>{@code jakarta}: {@link JakartaMailDecoder} with the {@code
 *       jakarta.mail.util.StreamProvider} system property set to Angus's provider (the
 *       DEPENDENCIES.md trick), Jakarta's best case.
 *   <li>{@code jakarta-lookup}: the same without the property, so every multipart call looks the
 *       provider up through ServiceLoader, as an application that does not know the trick.
 * </ul>
 *
 * <p>{@code decodeAndScanText} adds {@link DecodedMail#scanText()} (jsoup on the HTML parts), the
 * scanner's full cost per message. Run: {@code bench/run-mime-bench.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class MimeDecodeBenchmark {
  @Param({"mime4j", "mime4j-dom", "jakarta", "jakarta-lookup"})
  public String impl;

  private byte[][] mails;
  private Function<byte[], DecodedMail> decoder;

  /** Loads the corpus and makes the decoder (setting or clearing the provider property). */
  @Setup(Level.Trial)
  public void setUp() {
    MimeBenchMails corpus = MimeBenchMails.locate();
    mails = corpus.mails().toArray(byte[][]::new);
    decoder = decoder(impl);
    System.out.println("[setup] " + impl + ": " + corpus.describe());
  }

  /** The decoder labelled {@code impl}; sets or clears the provider property to match. */
  static Function<byte[], DecodedMail> decoder(String impl) {
    switch (impl) {
      case "mime4j" -> {
        return MailDecoder.withDefaults()::decode;
      }
      case "mime4j-dom" -> {
        return new Mime4jDomDecoder(MimeLimits.DEFAULTS)::decode;
      }
      case "jakarta" -> {
        System.setProperty(
            JakartaMailDecoder.STREAM_PROVIDER_PROPERTY, JakartaMailDecoder.ANGUS_STREAM_PROVIDER);
        return new JakartaMailDecoder(MimeLimits.DEFAULTS)::decode;
      }
      case "jakarta-lookup" -> {
        System.clearProperty(JakartaMailDecoder.STREAM_PROVIDER_PROPERTY);
        return new JakartaMailDecoder(MimeLimits.DEFAULTS)::decode;
      }
      default -> throw new IllegalArgumentException("unknown impl " + impl);
    }
  }

  /** Decodes every mail. */
  @Benchmark
  public void decode(Blackhole blackhole) {
    for (byte[] mail : mails) {
      blackhole.consume(decoder.apply(mail));
    }
  }

  /** Decodes every mail and builds the text the spam matcher scans. */
  @Benchmark
  public void decodeAndScanText(Blackhole blackhole) {
    for (byte[] mail : mails) {
      blackhole.consume(decoder.apply(mail).scanText());
    }
  }
}
