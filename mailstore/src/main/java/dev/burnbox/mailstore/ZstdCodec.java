package dev.burnbox.mailstore;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdException;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * zstd (through zstd-jni) as a {@link BodyCodec}: plain, with one fixed dictionary, or adaptive
 * (starts plain and trains dictionaries from recent mail with a {@link DictionaryTrainer}).
 *
 * <p><b>Stored form.</b> {@link StoredForm}'s header (tag {@code 'Z'}, or {@code 'S'} for {@link
 * #encodeAtRest}; raw length), the varint id of the dictionary used (0: none, see {@link
 * ZstdDictionaries}), then a zstd frame without magic number, content size or dictionary id (the
 * header has them) and with zstd's 4-byte content checksum: 7-8 bytes of framing for a typical
 * mail. A body names its dictionary, so it decodes after newer dictionaries are trained; a damaged
 * body fails the checksum or a size check and throws {@link DamagedBodyException}. Only the codec
 * object that wrote a body with a dictionary can read it (dictionaries live in memory, like the
 * store).
 *
 * <p>Thread-safe: zstd contexts are not, so each call takes one from a bounded {@link ContextPool}
 * (default: 2 per core kept idle) and gives it back; the dictionary is read once per call, so a
 * call racing with a new dictionary uses the old one consistently.
 */
public final class ZstdCodec implements BodyCodec {
  /**
   * The level for a store whose mail is never re-encoded at rest (the Redis store's): with a
   * trained dictionary, 7% smaller than level 3 and still faster than Deflate level 6 to encode
   * ({@code docs/benchmarks.md}, "Mail store compression"); decoding speed does not depend on the
   * level.
   */
  public static final int RECOMMENDED_LEVEL = 6;

  /**
   * The level the memory store's default codec compresses at on the way in: zstd's default. Mail is
   * re-encoded at {@link #REST_LEVEL} while the service's CPU is idle ({@link InboxStore#settle}),
   * so the intake's level only decides what a burst costs while it lasts: on unseen corpus mail
   * with a trained dictionary, 8% more bytes than level 6 for about a third of its CPU (28 against
   * 80 µs a 5 KB mail; {@code docs/benchmarks.md}, "Mail compressed at zstd's default on its way
   * in").
   */
  public static final int INTAKE_LEVEL = 3;

  /**
   * The level of {@link #encodeAtRest}: zstd's strongest below its "ultra" levels. On unseen mail
   * with a trained 448 KiB dictionary it stored 5% fewer bytes than level 6, at about 15 times the
   * time (1.7-2.2 ms a mail against 0.12; {@code docs/benchmarks.md}, "Mail at rest").
   */
  public static final int REST_LEVEL = 19;

  /** Idle contexts kept per direction by default. */
  public static final int DEFAULT_POOL_CAPACITY = 2 * Runtime.getRuntime().availableProcessors();

  private static final String NAME = "zstd";

  private final int level;
  private final String name;
  private final ZstdDictionaries dictionaries;
  private final DictionaryTrainer trainer;
  private final ContextPool<ZstdCompressCtx> compressors;
  private final ContextPool<ZstdDecompressCtx> decompressors;
  // encodeAtRest's own context, its dictionary loaded once (zstd digests it for the level): guarded
  // by itself; null until first used
  private ZstdCompressCtx restContext;
  private int restDictionaryId = -1;

  private ZstdCodec(int level, String suffix, byte[] dictionary, int poolCapacity) {
    this(level, suffix, dictionary, poolCapacity, null, null);
  }

  private ZstdCodec(
      int level,
      String suffix,
      byte[] dictionary,
      int poolCapacity,
      DictionaryTrainer.Policy policy,
      Executor trainingExecutor) {
    if (level < 1 || level > Zstd.maxCompressionLevel()) {
      throw new IllegalArgumentException(
          "zstd level must be 1 to " + Zstd.maxCompressionLevel() + ": " + level);
    }
    this.level = level;
    this.name = NAME + "-" + level + suffix;
    this.dictionaries = new ZstdDictionaries(level);
    if (dictionary != null) {
      dictionaries.add(dictionary);
    }
    this.trainer =
        policy == null ? null : new DictionaryTrainer(policy, dictionaries, trainingExecutor);
    this.compressors =
        new ContextPool<>(poolCapacity, ZstdCompressCtx::new, ZstdCompressCtx::reset);
    this.decompressors =
        new ContextPool<>(poolCapacity, ZstdDecompressCtx::new, ZstdDecompressCtx::reset);
  }

  /**
   * zstd at {@code level}, no dictionary.
   *
   * @throws IllegalArgumentException unless {@code level} is 1 to zstd's maximum (22)
   */
  public static ZstdCodec plain(int level) {
    return new ZstdCodec(level, "", null, DEFAULT_POOL_CAPACITY);
  }

  /**
   * zstd at {@code level} with {@code dictionary} (e.g. from {@code ZstdDictTrainer}) as id 1,
   * keeping up to {@code poolCapacity} idle contexts per direction (0: a context per call).
   *
   * @throws IllegalArgumentException if {@code level} or {@code poolCapacity} is out of range
   */
  public static ZstdCodec withDictionary(int level, byte[] dictionary, int poolCapacity) {
    return new ZstdCodec(level, "+dict", dictionary.clone(), poolCapacity);
  }

  /**
   * zstd at {@code level} that starts without a dictionary and trains them as {@code policy} says,
   * on {@code trainingExecutor}.
   *
   * @throws IllegalArgumentException if {@code level} is out of range
   */
  static ZstdCodec adaptive(int level, DictionaryTrainer.Policy policy, Executor trainingExecutor) {
    return new ZstdCodec(level, "+trained", null, DEFAULT_POOL_CAPACITY, policy, trainingExecutor);
  }

  /**
   * zstd at {@code level} that starts without a dictionary and trains them from the bodies it
   * encodes on {@code trainingExecutor}, with the measured default policy (448 KiB dictionaries,
   * the first after 1,000 bodies, from an 8 MiB reservoir; {@code docs/benchmarks.md}). A store
   * built without a codec gets this policy scaled down to its budget.
   *
   * @throws IllegalArgumentException if {@code level} is out of range
   */
  public static ZstdCodec adaptive(int level, Executor trainingExecutor) {
    return adaptive(level, DictionaryTrainer.Policy.defaults(), trainingExecutor);
  }

  @Override
  public byte[] encode(byte[] raw) {
    ZstdDictionaries.Current dictionary = dictionaries.current();
    byte[] stored;
    try {
      stored =
          compress(
              raw,
              StoredForm.ZSTD,
              dictionary.id(),
              level,
              context -> {
                if (dictionary.compress() != null) {
                  context.loadDict(dictionary.compress());
                }
              });
    } finally {
      Reference.reachabilityFence(dictionary);
    }
    if (trainer != null) {
      trainer.record(raw);
    }
    return stored;
  }

  /** True: see {@link #encodeAgainst}. */
  @Override
  public boolean encodesAgainstReferences() {
    return true;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The reference is zstd's dictionary, as raw content: tag {@code 'R'}, the raw length, then a
   * frame as {@link #encode} writes it. Null for an empty reference, or one that begins with zstd's
   * dictionary magic number (zstd would read it as a trained dictionary). Bodies encoded this way
   * are sampled for dictionary training as {@link #encode}'s are: they are recent mail too, and the
   * reservoir the store's budget reserves then fills as it always did (a message also encoded alone
   * is sampled twice, which weighs it double in the next training; harmless, and cheaper than
   * remembering what was sampled).
   *
   * <p>A message that is its reference with a few short stretches replaced (a copy of the same mail
   * whose {@code Received:} and {@code Date:} fields, message id or recipient differ) is stored as
   * a {@link Splice} of it instead, with no zstd call: finding one costs a few comparisons of the
   * two arrays, where zstd would spend most of its time building match tables from the reference,
   * for a frame no smaller. A splice is not sampled for training: it is its reference, which was,
   * and a campaign's copies would otherwise fill the reservoir with one mail and set off trainings
   * (0.6 s of a core each) of dictionaries that only that mail's copies, stored as splices, match.
   */
  @Override
  public byte[] encodeAgainst(byte[] raw, byte[] reference) {
    if (reference.length == 0 || startsWithDictionaryMagic(reference)) {
      return null;
    }
    byte[] spliced = Splice.encode(raw, reference);
    if (spliced != null) {
      return spliced;
    }
    byte[] stored =
        compress(
            raw,
            StoredForm.ZSTD_AGAINST,
            -1,
            Math.min(level, REFERENCE_LEVEL),
            context -> context.loadDict(reference));
    if (trainer != null) {
      trainer.record(raw);
    }
    return stored;
  }

  private static boolean startsWithDictionaryMagic(byte[] bytes) {
    return bytes.length >= 4
        && (bytes[0] & 0xFF | (bytes[1] & 0xFF) << 8 | (bytes[2] & 0xFF) << 16 | bytes[3] << 24)
            == DICTIONARY_MAGIC;
  }

  /**
   * The level {@link #encodeAgainst} compresses at, at most: zstd builds its match tables from the
   * raw reference on every call, which at level 6 costs more than compressing alone with a trained
   * dictionary's prebuilt tables.
   */
  static final int REFERENCE_LEVEL = 3;

  /** zstd's magic number of a trained dictionary, little-endian at its start. */
  private static final int DICTIONARY_MAGIC = 0xEC30A437;

  /**
   * {@link StoredForm}'s header ({@code tag}, length, a dictionary id unless negative) and a frame
   * at {@code atLevel}.
   */
  private byte[] compress(
      byte[] raw,
      byte tag,
      int dictionaryId,
      int atLevel,
      Consumer<ZstdCompressCtx> loadDictionary) {
    ZstdCompressCtx context = compressors.take();
    try {
      configure(context, atLevel);
      loadDictionary.accept(context);
      return frame(raw, tag, dictionaryId, context);
    } finally {
      compressors.give(context);
    }
  }

  /**
   * {@link StoredForm}'s header ({@code tag}, length, a dictionary id unless negative) and a frame
   * of {@code raw} made by {@code context}, configured and with its dictionary loaded.
   */
  private static byte[] frame(byte[] raw, byte tag, int dictionaryId, ZstdCompressCtx context) {
    StoredForm.checkRawLength(raw);
    byte[] out =
        new byte
            [1
                + StoredForm.varintSize(raw.length)
                + (dictionaryId < 0 ? 0 : StoredForm.varintSize(dictionaryId))
                + (int) Zstd.compressBound(raw.length)];
    out[0] = tag;
    int pos = StoredForm.writeVarint(out, 1, raw.length);
    if (dictionaryId >= 0) {
      pos = StoredForm.writeVarint(out, pos, dictionaryId);
    }
    pos += context.compressByteArray(out, pos, out.length - pos, raw, 0, raw.length);
    return Arrays.copyOf(out, pos);
  }

  /** The frame parameters every stored form uses: the header carries what the frame leaves out. */
  private static void configure(ZstdCompressCtx context, int atLevel) {
    context
        .setLevel(atLevel)
        .setChecksum(true)
        .setMagicless(true)
        .setContentSize(false)
        .setDictID(false);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Tag {@code 'S'}, then the fields of {@link #encode}'s form: the current dictionary at level
   * {@value #REST_LEVEL}. Null if this codec's own level is not below that. Calls are serialised:
   * one context keeps the dictionary digested for the level (about 10 MiB of native memory, not
   * counted in {@link #retainedBytes}), so only the first call after a new dictionary pays for it.
   */
  @Override
  public byte[] encodeAtRest(byte[] raw) {
    if (level >= REST_LEVEL) {
      return null;
    }
    ZstdDictionaries.Current dictionary = dictionaries.current();
    synchronized (this) {
      if (restContext == null || restDictionaryId != dictionary.id()) {
        if (restContext != null) {
          restContext.close();
        }
        restContext = new ZstdCompressCtx();
        configure(restContext, REST_LEVEL);
        if (dictionary.content() != null) {
          restContext.loadDict(dictionary.content());
        }
        restDictionaryId = dictionary.id();
      }
      return frame(raw, StoredForm.ZSTD_AT_REST, dictionary.id(), restContext);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Tag {@code 'Q'}, then the fields of {@link #encodeAgainst}'s zstd form, at level {@value
   * #REST_LEVEL} (never a splice: a splice is already as small). Null if this codec's own level is
   * not below that, or for a reference {@link #encodeAgainst} would not use. Not sampled for
   * training.
   */
  @Override
  public byte[] encodeAgainstAtRest(byte[] raw, byte[] reference) {
    if (level >= REST_LEVEL || reference.length == 0 || startsWithDictionaryMagic(reference)) {
      return null;
    }
    return compress(
        raw,
        StoredForm.ZSTD_AGAINST_AT_REST,
        -1,
        REST_LEVEL,
        context -> context.loadDict(reference));
  }

  /** True for what {@link #encodeAtRest} and {@link #encodeAgainstAtRest} write, and splices. */
  @Override
  public boolean isAtRest(byte[] stored) {
    return stored.length > 0
        && (stored[0] == StoredForm.ZSTD_AT_REST
            || stored[0] == StoredForm.ZSTD_AGAINST_AT_REST
            || stored[0] == StoredForm.SPLICE);
  }

  @Override
  public byte[] decode(byte[] stored) {
    StoredForm.Reader reader =
        new StoredForm.Reader(
            stored, isAtRest(stored) ? StoredForm.ZSTD_AT_REST : StoredForm.ZSTD, NAME);
    int length = reader.rawLength();
    int id = reader.varint("dictionary id");
    ZstdDictDecompress dictionary = id == 0 ? null : dictionaries.forDecompression(id);
    if (id != 0 && dictionary == null) {
      throw new DamagedBodyException(
          String.format(
              "%s: stored body names dictionary %d, but this codec has %d: damaged, or"
                  + " written by another codec instance",
              NAME, id, dictionaries.count()));
    }
    try {
      return decompress(
          stored,
          reader.position(),
          length,
          context -> {
            if (dictionary != null) {
              context.loadDict(dictionary);
            }
          });
    } finally {
      Reference.reachabilityFence(dictionary);
    }
  }

  @Override
  public byte[] decodeAgainst(byte[] stored, byte[] reference) {
    if (stored.length > 0 && stored[0] == StoredForm.SPLICE) {
      return Splice.decode(stored, reference, NAME);
    }
    StoredForm.Reader reader =
        new StoredForm.Reader(
            stored,
            stored.length > 0 && stored[0] == StoredForm.ZSTD_AGAINST_AT_REST
                ? StoredForm.ZSTD_AGAINST_AT_REST
                : StoredForm.ZSTD_AGAINST,
            NAME);
    int length = reader.rawLength();
    return decompress(stored, reader.position(), length, context -> context.loadDict(reference));
  }

  /** The {@code length} raw bytes of the frame at {@code payload} in {@code stored}. */
  private byte[] decompress(
      byte[] stored, int payload, int length, Consumer<ZstdDecompressCtx> loadDictionary) {
    byte[] raw = new byte[length];
    ZstdDecompressCtx context = decompressors.take();
    try {
      context.setMagicless(true);
      loadDictionary.accept(context);
      int n = context.decompressByteArray(raw, 0, length, stored, payload, stored.length - payload);
      if (n != length) {
        throw new DamagedBodyException(
            NAME + ": stored body is damaged: " + n + " raw bytes, expected " + length);
      }
    } catch (ZstdException e) {
      throw new DamagedBodyException(NAME + ": stored body is damaged: " + e.getMessage(), e);
    } finally {
      decompressors.give(context);
    }
    return raw;
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * The trainer's reserved reservoir (adaptive codecs, until training stops) plus the length of
   * every dictionary; zstd's native tables (about 3 MiB at most with the default policy, see {@link
   * ZstdDictionaries}) are outside the Java heap and not counted.
   */
  @Override
  public long retainedBytes() {
    return (trainer == null ? 0 : trainer.retainedBytes()) + dictionaries.dictionaryBytes();
  }

  /** Number of dictionaries this codec has (trained or given); bodies name one of them or none. */
  public int dictionaryCount() {
    return dictionaries.count();
  }

  /** Why the last dictionary training of an adaptive codec failed, if one has. */
  public Optional<String> lastTrainingFailure() {
    return Optional.ofNullable(trainer == null ? null : trainer.lastFailure());
  }

  /** The trainer of an adaptive codec, else null. */
  DictionaryTrainer trainer() {
    return trainer;
  }
}
