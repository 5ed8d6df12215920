package dev.burnbox.bench.mailstore;

import com.github.luben.zstd.Zstd;
import dev.burnbox.mailstore.BodyCodec;
import dev.burnbox.mailstore.DeflateCodec;
import dev.burnbox.mailstore.ZstdCodec;
import java.util.Arrays;
import java.util.List;

/**
 * The codecs {@link MailCodecBenchmark} and {@link MailCodecReport} compare, by the label used as
 * the JMH parameter and in the report. Dictionaries are trained on {@link RawMailCorpus#training()}
 * only (the first {@value #SAMPLE_BYTES} bytes of each mail, as the store's dictionary trainer
 * samples them), and every codec is measured on the later test mails.
 */
enum BenchCodec {
  DEFLATE_1("deflate-1", "JDK Deflater level 1"),
  DEFLATE_6("deflate-6", "JDK Deflater level 6 (the baseline)"),
  LZ4("lz4", "lz4-java fast compressor (JNI)"),
  ZSTD_1("zstd-1", "zstd level 1, no dictionary"),
  ZSTD_3("zstd-3", "zstd level 3 (its default), no dictionary"),
  ZSTD_1_DICT64("zstd-1+dict64k", "zstd level 1, 64 KiB dictionary"),
  ZSTD_3_DICT32("zstd-3+dict32k", "zstd level 3, 32 KiB dictionary"),
  ZSTD_3_DICT64("zstd-3+dict64k", "zstd level 3, 64 KiB dictionary"),
  ZSTD_3_DICT112("zstd-3+dict112k", "zstd level 3, 112 KiB dictionary"),
  ZSTD_6_DICT112("zstd-6+dict112k", "zstd level 6, 112 KiB dictionary"),
  ZSTD_9_DICT112("zstd-9+dict112k", "zstd level 9, 112 KiB dictionary"),
  ZSTD_19_DICT112("zstd-19+dict112k", "zstd level 19 (near its maximum), 112 KiB dictionary"),
  ZSTD_3_DICT112_PER_CALL(
      "zstd-3+dict112k/per-call", "as zstd-3+dict112k, a new native context per call (no pool)"),
  ZSTD_TRAINED(
      "zstd-" + ZstdCodec.RECOMMENDED_LEVEL + "+trained",
      "the store's codec as recommended: ZstdCodec.adaptive at RECOMMENDED_LEVEL, default policy"
          + " (112 KiB), after encoding the training mails");

  /** Bytes of each training mail given to the dictionary trainer. */
  static final int SAMPLE_BYTES = 16 << 10;

  private final String label;
  private final String description;

  BenchCodec(String label, String description) {
    this.label = label;
    this.description = description;
  }

  /** The label, e.g. {@code zstd-3+dict64k}. */
  String label() {
    return label;
  }

  /** One line for the report. */
  String description() {
    return description;
  }

  /** The codec by its label. */
  static BenchCodec byLabel(String label) {
    for (BenchCodec codec : values()) {
      if (codec.label.equals(label)) {
        return codec;
      }
    }
    throw new IllegalArgumentException("no codec labelled " + label);
  }

  /** A fresh codec, its dictionary (if any) trained on {@code corpus}'s training mails. */
  BodyCodec create(RawMailCorpus corpus) {
    return switch (this) {
      case DEFLATE_1 -> new DeflateCodec(1);
      case DEFLATE_6 -> new DeflateCodec(6);
      case LZ4 -> new Lz4BodyCodec();
      case ZSTD_1 -> ZstdCodec.plain(1);
      case ZSTD_3 -> ZstdCodec.plain(3);
      case ZSTD_1_DICT64 -> dictionaryCodec(1, 64, corpus, ZstdCodec.DEFAULT_POOL_CAPACITY);
      case ZSTD_3_DICT32 -> dictionaryCodec(3, 32, corpus, ZstdCodec.DEFAULT_POOL_CAPACITY);
      case ZSTD_3_DICT64 -> dictionaryCodec(3, 64, corpus, ZstdCodec.DEFAULT_POOL_CAPACITY);
      case ZSTD_3_DICT112 -> dictionaryCodec(3, 112, corpus, ZstdCodec.DEFAULT_POOL_CAPACITY);
      case ZSTD_6_DICT112 -> dictionaryCodec(6, 112, corpus, ZstdCodec.DEFAULT_POOL_CAPACITY);
      case ZSTD_9_DICT112 -> dictionaryCodec(9, 112, corpus, ZstdCodec.DEFAULT_POOL_CAPACITY);
      case ZSTD_19_DICT112 -> dictionaryCodec(19, 112, corpus, ZstdCodec.DEFAULT_POOL_CAPACITY);
      case ZSTD_3_DICT112_PER_CALL -> dictionaryCodec(3, 112, corpus, 0);
      case ZSTD_TRAINED -> {
        ZstdCodec codec = ZstdCodec.adaptive(ZstdCodec.RECOMMENDED_LEVEL, Runnable::run);
        for (byte[] mail : corpus.training()) {
          codec.encode(mail);
        }
        if (codec.dictionaryCount() != 1) {
          throw new IllegalStateException(
              "adaptive codec did not train: " + codec.lastTrainingFailure().orElse("?"));
        }
        yield codec;
      }
    };
  }

  private static BodyCodec dictionaryCodec(
      int level, int dictionaryKib, RawMailCorpus corpus, int poolCapacity) {
    return ZstdCodec.withDictionary(
        level, trainDictionary(corpus.training(), dictionaryKib << 10), poolCapacity);
  }

  /** A zstd dictionary of at most {@code bytes} trained on the starts of {@code mails}. */
  static byte[] trainDictionary(List<byte[]> mails, int bytes) {
    byte[][] samples =
        mails.stream()
            .map(m -> Arrays.copyOf(m, Math.min(m.length, SAMPLE_BYTES)))
            .toArray(byte[][]::new);
    byte[] buffer = new byte[bytes];
    long size = Zstd.trainFromBuffer(samples, buffer, false);
    if (Zstd.isError(size)) {
      throw new IllegalStateException("dictionary training failed: " + Zstd.getErrorName(size));
    }
    return Arrays.copyOf(buffer, (int) size);
  }
}
