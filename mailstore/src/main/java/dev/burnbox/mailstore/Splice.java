package dev.burnbox.mailstore;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A message stored as a few edits of a reference it resembles: a copy of the same mail whose {@code
 * Received:} and {@code Date:} fields, message id, greeting or tracking links differ. This is
 * {@link StoredForm#SPLICE}, written by {@link ZstdCodec#encodeAgainst} when it applies, which
 * costs a few comparisons of the two byte arrays where zstd would build its match tables from the
 * whole reference for a frame no smaller.
 *
 * <p><b>Form.</b> Tag {@code 'P'}, the raw length, the number of edits, then each edit as three
 * varints: bytes of the reference kept, bytes of it skipped, bytes inserted. Then the CRC-32C of
 * the raw bytes (4 bytes, little-endian: so that damage or the wrong reference is detected, as
 * zstd's checksum detects it) and the inserted bytes of every edit in order. After the last edit
 * the rest of the reference is kept.
 *
 * <p><b>Finding the edits.</b> Between the longest common prefix and suffix, greedy, front to back:
 * the longest run of equal bytes, then the nearest place where the two arrays agree again for
 * {@value #SYNC} bytes, looked for within {@value #REACH} bytes of either (the least {@link #cost}
 * wins): the cheapest places one by one, then through a hash table of the reference's next {@value
 * #SYNC}-byte sequences. A message that needs more than {@value #MAX_EDITS} edits or {@value
 * #MAX_INSERTED} inserted bytes is no splice, unless what lies between prefix and suffix is at most
 * that many bytes: one edit then, as also when that inserts fewer bytes than the edits found. Time:
 * linear in the message, plus at most {@value #MAX_EDITS} searches, each of about 2 x {@value
 * #REACH} table operations.
 *
 * <p>Stateless and thread-safe.
 */
final class Splice {
  /** The most edits a splice holds. */
  static final int MAX_EDITS = 16;

  /**
   * The most bytes a splice inserts in all: beyond that, zstd's compression of what differs is
   * worth its time.
   */
  static final int MAX_INSERTED = 256;

  /** How far ahead of a difference the two arrays are searched for agreement again. */
  static final int REACH = 128;

  /** How many equal bytes count as agreement again. */
  static final int SYNC = 8;

  /**
   * Places of agreement up to this {@link #cost} are tried one by one before the hash table is
   * built: about 80 comparisons.
   */
  private static final int QUICK_COST = 16;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle CHECKSUM =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private Splice() {}

  /**
   * {@code raw} as edits of {@code reference} in {@link StoredForm#SPLICE} form, or null if it
   * differs from it too much for one.
   */
  static byte[] encode(byte[] raw, byte[] reference) {
    StoredForm.checkRawLength(raw);
    int prefix = equalRun(raw, 0, raw.length, reference, 0, reference.length);
    int suffix = commonSuffix(raw, reference, Math.min(raw.length, reference.length) - prefix);
    int rawEnd = raw.length - suffix;
    int referenceEnd = reference.length - suffix;
    Edits edits = new Edits();
    if (rawEnd > prefix || referenceEnd > prefix) {
      // what differs lies between the common prefix and suffix: as a few edits, or one stretch
      boolean found = edits.find(raw, rawEnd, reference, referenceEnd, prefix);
      int stretch = rawEnd - prefix;
      if ((!found || edits.inserted > stretch) && stretch <= MAX_INSERTED) {
        edits = new Edits();
        edits.add(prefix, referenceEnd - prefix, stretch);
      } else if (!found) {
        return null;
      }
    }
    return edits.write(raw);
  }

  /** The edits of one splice as they are found, at most {@value #MAX_EDITS}. */
  private static final class Edits {
    private final int[] values = new int[3 * MAX_EDITS];
    private int count;
    private int inserted;
    private Grams grams;

    void add(int keep, int skip, int insert) {
      values[3 * count] = keep;
      values[3 * count + 1] = skip;
      values[3 * count + 2] = insert;
      count++;
      inserted += insert;
    }

    /**
     * Finds edits that turn {@code reference} up to {@code referenceEnd} into {@code raw} up to
     * {@code rawEnd}, both equal for their first {@code from} bytes; false if this takes more than
     * a splice holds.
     */
    boolean find(byte[] raw, int rawEnd, byte[] reference, int referenceEnd, int from) {
      int i = from;
      int j = from;
      int keep = from;
      while (true) {
        int run = equalRun(raw, i, rawEnd, reference, j, referenceEnd);
        keep += run;
        i += run;
        j += run;
        if (i == rawEnd && j == referenceEnd) {
          return true; // the last run and the suffix are the rest of the reference, kept
        }
        if (count == MAX_EDITS) {
          return false;
        }
        if (grams == null) {
          grams = new Grams();
        }
        long sync = resync(raw, i, rawEnd, reference, j, referenceEnd, grams);
        if (sync < 0) {
          return false;
        }
        int insert = (int) (sync >>> 32);
        int skip = (int) sync;
        if (inserted + insert > MAX_INSERTED) {
          return false;
        }
        add(keep, skip, insert);
        keep = 0;
        i += insert;
        j += skip;
      }
    }

    /** The splice of {@code raw} these edits make. */
    byte[] write(byte[] raw) {
      int size = 1 + StoredForm.varintSize(raw.length) + StoredForm.varintSize(count);
      for (int e = 0; e < 3 * count; e++) {
        size += StoredForm.varintSize(values[e]);
      }
      byte[] out = new byte[size + Integer.BYTES + inserted];
      out[0] = StoredForm.SPLICE;
      int pos = StoredForm.writeVarint(out, 1, raw.length);
      pos = StoredForm.writeVarint(out, pos, count);
      for (int e = 0; e < 3 * count; e++) {
        pos = StoredForm.writeVarint(out, pos, values[e]);
      }
      CHECKSUM.set(out, pos, crc32c(raw));
      pos += Integer.BYTES;
      for (int e = 0, at = 0; e < count; e++) {
        at += values[3 * e];
        System.arraycopy(raw, at, out, pos, values[3 * e + 2]);
        pos += values[3 * e + 2];
        at += values[3 * e + 2];
      }
      return out;
    }
  }

  /**
   * The raw bytes of a {@link StoredForm#SPLICE} of {@code reference}.
   *
   * @throws DamagedBodyException if {@code stored} is damaged or was spliced from another reference
   */
  static byte[] decode(byte[] stored, byte[] reference, String codec) {
    StoredForm.Reader reader = new StoredForm.Reader(stored, StoredForm.SPLICE, codec);
    int length = reader.rawLength();
    int count = reader.varint("edit count");
    if (count > MAX_EDITS) {
      throw damaged(codec, count + " edits, more than a splice holds");
    }
    int[] edits = new int[3 * count];
    long keptAndSkipped = 0;
    long inserted = 0;
    for (int e = 0; e < edits.length; e++) {
      edits[e] = reader.varint("edit");
      if (e % 3 == 2) {
        inserted += edits[e];
      } else {
        keptAndSkipped += edits[e];
      }
    }
    int checksumAt = reader.position();
    int literals = checksumAt + Integer.BYTES;
    if (keptAndSkipped > reference.length
        || literals + inserted != stored.length
        || length != inserted + (reference.length - keptAndSkipped) + kept(edits)) {
      throw damaged(codec, "its edits do not fit a " + reference.length + "-byte reference");
    }
    byte[] raw = new byte[length];
    int out = 0;
    int from = 0;
    for (int e = 0; e < count; e++) {
      int keep = edits[3 * e];
      System.arraycopy(reference, from, raw, out, keep);
      out += keep;
      from += keep + edits[3 * e + 1];
      int insert = edits[3 * e + 2];
      System.arraycopy(stored, literals, raw, out, insert);
      literals += insert;
      out += insert;
    }
    System.arraycopy(reference, from, raw, out, reference.length - from);
    if ((int) CHECKSUM.get(stored, checksumAt) != crc32c(raw)) {
      throw damaged(codec, "it fails its checksum");
    }
    return raw;
  }

  private static long kept(int[] edits) {
    long kept = 0;
    for (int e = 0; e < edits.length; e += 3) {
      kept += edits[e];
    }
    return kept;
  }

  private static DamagedBodyException damaged(String codec, String why) {
    return new DamagedBodyException(
        codec + ": stored splice is damaged or read against another reference: " + why);
  }

  /**
   * How many bytes {@code a} from {@code i} and {@code b} from {@code j} have alike, before {@code
   * aEnd} and {@code bEnd}.
   */
  private static int equalRun(byte[] a, int i, int aEnd, byte[] b, int j, int bEnd) {
    int run = Arrays.mismatch(a, i, aEnd, b, j, bEnd);
    return run < 0 ? Math.min(aEnd - i, bEnd - j) : run;
  }

  /** How many bytes {@code a} and {@code b} end with alike, at most {@code max}. */
  private static int commonSuffix(byte[] a, byte[] b, int max) {
    int n = 0;
    // whole blocks through the vectorised mismatch, then byte by byte
    while (n + 64 <= max
        && Arrays.mismatch(a, a.length - n - 64, a.length - n, b, b.length - n - 64, b.length - n)
            < 0) {
      n += 64;
    }
    while (n < max && a[a.length - 1 - n] == b[b.length - 1 - n]) {
      n++;
    }
    return n;
  }

  /**
   * Where {@code raw} from {@code i} and {@code reference} from {@code j}, which differ there,
   * agree again before {@code rawEnd} and {@code referenceEnd}: the bytes of raw to insert (high
   * int) and of the reference to skip (low int) before the next {@value #SYNC} equal bytes, each at
   * most {@value #REACH}, or before the end of both, at the least {@link #cost} this search finds;
   * -1 if it finds none. The reference's {@value #SYNC}-byte sequences within reach go into a small
   * hash table (the nearest of equal ones kept), which each of raw's within reach is then looked up
   * in.
   */
  private static long resync(
      byte[] raw, int i, int rawEnd, byte[] reference, int j, int referenceEnd, Grams grams) {
    int rawLeft = rawEnd - i;
    int referenceLeft = referenceEnd - j;
    // both ends: insert the rest of raw, skip the rest of the reference
    int bestInsert = rawLeft <= REACH + SYNC ? rawLeft : -1;
    int bestSkip = referenceLeft;
    int maxInsert = Math.min(REACH, rawLeft - SYNC);
    int maxSkip = Math.min(REACH, referenceLeft - SYNC);
    // the cheapest places first, one comparison each: a changed digit, date or id is found here
    for (int cost = 1; cost <= QUICK_COST; cost++) {
      if (bestInsert >= 0 && cost(bestInsert, bestSkip) <= cost) {
        return (long) bestInsert << 32 | bestSkip;
      }
      for (int insert = 0; 2 * insert <= cost; insert++) {
        int skip = cost - 2 * insert;
        if (insert <= maxInsert
            && skip <= maxSkip
            && (long) LONGS.get(raw, i + insert) == (long) LONGS.get(reference, j + skip)) {
          return (long) insert << 32 | skip;
        }
      }
    }
    if (maxInsert >= 0 && maxSkip >= 0) {
      grams.index(reference, j, maxSkip);
      for (int insert = 0; insert <= maxInsert; insert++) {
        if (bestInsert >= 0 && 2 * insert >= cost(bestInsert, bestSkip)) {
          break; // every later agreement costs more than the best one
        }
        int skip = grams.find((long) LONGS.get(raw, i + insert));
        if (skip >= 0
            && (insert > 0 || skip > 0)
            && (bestInsert < 0 || cost(insert, skip) < cost(bestInsert, bestSkip))) {
          bestInsert = insert;
          bestSkip = skip;
        }
      }
    }
    return bestInsert < 0 ? -1 : (long) bestInsert << 32 | bestSkip;
  }

  /**
   * What an edit costs, to choose between places of agreement: a byte inserted is stored, a byte
   * skipped is not, but the nearer place is more likely the true one.
   */
  private static int cost(int insert, int skip) {
    return 2 * insert + skip;
  }

  /**
   * Where in the reference, from a position {@code j} on, each {@value #SYNC}-byte sequence within
   * reach first occurs: an open-addressing table of offsets, whose keys are read back from the
   * reference. One per {@link #encode} call, refilled for each search.
   */
  private static final class Grams {
    private static final int SLOTS = 256; // about twice the most entries, REACH + 1
    private final int[] offsets = new int[SLOTS]; // offset + 1; 0 is an empty slot
    private byte[] reference;
    private int from;

    /** Indexes the sequences at {@code from + 0} to {@code from + maxOffset}. */
    void index(byte[] reference, int from, int maxOffset) {
      this.reference = reference;
      this.from = from;
      Arrays.fill(offsets, 0);
      for (int offset = maxOffset; offset >= 0; offset--) { // nearest last, so it is the one kept
        long key = (long) LONGS.get(reference, from + offset);
        int slot = slot(key);
        while (offsets[slot] != 0 && key(slot) != key) {
          slot = (slot + 1) & (SLOTS - 1);
        }
        offsets[slot] = offset + 1;
      }
    }

    /** The offset where {@code key} first occurs, or -1. */
    int find(long key) {
      for (int slot = slot(key); offsets[slot] != 0; slot = (slot + 1) & (SLOTS - 1)) {
        if (key(slot) == key) {
          return offsets[slot] - 1;
        }
      }
      return -1;
    }

    private long key(int slot) {
      return (long) LONGS.get(reference, from + offsets[slot] - 1);
    }

    private static int slot(long key) {
      return (int) ((key * 0x9E3779B97F4A7C15L) >>> 56); // the top 8 bits: 256 slots
    }
  }

  private static int crc32c(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    return (int) crc.getValue();
  }
}
