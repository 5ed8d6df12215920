package dev.burnbox.mailstore;

import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The zstd dictionaries of one {@link ZstdCodec}, by id: id 0 is "no dictionary", and ids 1, 2, ...
 * are the dictionaries added in that order. The latest one is {@link #current() current}: new
 * bodies are compressed with it.
 *
 * <p><b>Retention.</b> Every dictionary added stays available for decompression for the life of
 * this object, so every body ever stored stays decodable; {@link #count()} is bounded by whoever
 * adds them ({@link DictionaryTrainer} stops at its {@code maxDictionaries}). Memory, native,
 * measured as process RSS for a 448 KiB dictionary: a decompression dictionary about 0.9 MiB (its
 * copy plus entropy tables), kept for every id; only the current dictionary also holds a
 * compression form, about 3.3 MiB at level 6, and a superseded one is freed by the garbage
 * collector once no call uses it. With the default policy (at most 16 dictionaries of 448 KiB at
 * level 6, one per 100,000 bodies) that is at most about 18 MiB, whatever the number of bodies
 * stored (a 112 KiB dictionary: about 140 KiB and 0.2-0.8 MiB). On the heap: the current
 * dictionary's content, for {@link ZstdCodec#encodeAtRest} to compress at its own level.
 *
 * <p>Thread-safe: {@link #current()} is one volatile read; {@link #add} is serialised.
 */
final class ZstdDictionaries {
  /**
   * The dictionary new bodies are compressed with, and its content (for compressing at another
   * level); both null for id 0.
   */
  record Current(int id, ZstdDictCompress compress, byte[] content) {}

  private static final Current NONE = new Current(0, null, null);

  private final int level;
  private final ConcurrentMap<Integer, ZstdDictDecompress> decompress = new ConcurrentHashMap<>();
  private volatile Current current = NONE;
  private volatile long dictionaryBytes;

  /** No dictionary yet; dictionaries added later compress at {@code level}. */
  ZstdDictionaries(int level) {
    this.level = level;
  }

  /** The dictionary to compress with now. */
  Current current() {
    return current;
  }

  /** The decompression form of dictionary {@code id}, or null if there is none by that id. */
  ZstdDictDecompress forDecompression(int id) {
    return decompress.get(id);
  }

  /** Number of dictionaries added so far. */
  int count() {
    return current.id();
  }

  /**
   * Heap the dictionaries hold: the length of every dictionary added (the decompression copies)
   * plus the current one's content once more (their native tables are not counted).
   */
  long dictionaryBytes() {
    byte[] content = current.content();
    return dictionaryBytes + (content == null ? 0 : content.length);
  }

  /** Adds {@code dictionary} (zstd's format or raw content) and makes it current; its id. */
  synchronized int add(byte[] dictionary) {
    int id = current.id() + 1;
    decompress.put(id, new ZstdDictDecompress(dictionary));
    current = new Current(id, new ZstdDictCompress(dictionary, level), dictionary.clone());
    dictionaryBytes += dictionary.length;
    return id;
  }
}
