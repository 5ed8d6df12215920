package dev.burnbox.mailstore;

import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The memory store's distinct pieces: each message's raw bytes are held once, encoded, however many
 * deliveries contain them, found by their SHA-256, and dropped with their last use. A piece is
 * either encoded alone or, where the codec can and it is smaller, against a <em>base</em>: another
 * piece, itself encoded alone, that {@link SimilarPieces} found to share much of its content (a
 * near-duplicate). A base is held for as long as a piece encoded against it is, so reading any
 * piece decodes at most two. Keeps the byte counts of what it holds: raw, encoded, and their cost
 * to the budget (encoded bytes plus {@value #PIECE_OVERHEAD} per piece, the object with its hash
 * inline and the array's header and padding; plus {@value #SLOT_BYTES} per slot of the lookup table
 * and the similarity index's fixed tables).
 *
 * <p>The lookup is a {@link ProbeTable} of piece references (8 to 32 bytes per piece, where a
 * {@code HashMap} node and slot took about 40), keyed by the SHA-256's first 64 bits XOR a seed
 * drawn per table: a sender can choose messages whose hashes share bits, but cannot aim them at one
 * run of slots without the seed.
 *
 * <p>Not thread-safe: {@link MemoryInboxStore}'s lock guards it. Lookup, acquire and release are
 * O(1) expected (amortized over the table's doubling and halving); {@link #referenceFor} and
 * acquiring a piece encoded alone are O(features).
 */
final class PieceTable {
  /**
   * Estimated heap per piece besides its encoded bytes and its table slots: the piece object (64
   * bytes with compressed references) and the stored array's header (16) and padding (at most 7);
   * checked with JOL.
   */
  static final int PIECE_OVERHEAD = 88;

  /** Heap per slot of the lookup table: one compressed reference. */
  static final int SLOT_BYTES = 4;

  /** Slots of the smallest table. */
  static final int MIN_CAPACITY = ProbeTable.MIN_CAPACITY;

  private final long seed = ThreadLocalRandom.current().nextLong();
  private final ProbeTable<Piece> table = new ProbeTable<>(p -> p.hash0 ^ seed);
  private final SimilarPieces similar; // null: pieces are all encoded alone
  private long rawBytes;
  private long encodedBytes;

  /** A table whose pieces may be encoded against bases that {@code similar} finds, if not null. */
  PieceTable(SimilarPieces similar) {
    this.similar = similar;
  }

  /**
   * A stored message, shared by every delivery of the same raw bytes; {@code uses} counts the
   * deliveries using it and the pieces encoded against it.
   */
  static final class Piece {
    // the SHA-256 of the raw bytes, held inline: pieces are equal when their hashes are
    final long hash0;
    final long hash1;
    final long hash2;
    final long hash3;
    // null in a lookup key; replaced only by a smaller form of the same raw bytes (settle), so a
    // reader outside the lock decodes either form to the same bytes
    volatile byte[] stored;
    final int rawLength;
    final Piece base; // null: stored alone; else stored against this piece's raw bytes
    int uses;
    int similarSlot = -1; // where SimilarPieces remembers it, if it does

    Piece(byte[] sha256, int rawLength) {
      ByteBuffer hash = ByteBuffer.wrap(sha256);
      this.hash0 = hash.getLong();
      this.hash1 = hash.getLong();
      this.hash2 = hash.getLong();
      this.hash3 = hash.getLong();
      this.stored = null;
      this.rawLength = rawLength;
      this.base = null;
    }

    Piece(Piece key, byte[] stored, Piece base) {
      this.hash0 = key.hash0;
      this.hash1 = key.hash1;
      this.hash2 = key.hash2;
      this.hash3 = key.hash3;
      this.stored = stored;
      this.rawLength = key.rawLength;
      this.base = base;
    }

    long cost() {
      return PIECE_OVERHEAD + (long) stored.length;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Piece p
          && hash0 == p.hash0
          && hash1 == p.hash1
          && hash2 == p.hash2
          && hash3 == p.hash3;
    }

    @Override
    public int hashCode() {
      return (int) hash0;
    }
  }

  /**
   * A delivery's raw bytes on their way to a {@link Piece}: hashed, and sampled for similar pieces,
   * outside the lock; then, if no piece holds them, given a base under the lock and encoded outside
   * it.
   */
  static final class Part {
    final byte[] raw;
    final Piece key; // the hash and length, to look the piece up with
    final int[] features; // SimilarPieces.features, or null if the table does not use them
    Piece base; // the piece to encode against, chosen under the lock; null: alone
    byte[] stored; // encoded outside the lock, against base if it is not null

    Part(byte[] raw, boolean sampled) {
      this.raw = raw;
      this.key = new Piece(Hashing.sha256().hashBytes(raw).asBytes(), raw.length);
      this.features = sampled ? SimilarPieces.features(raw, 0, raw.length) : null;
    }

    int length() {
      return raw.length;
    }
  }

  /** Whether {@link #referenceFor} may find bases: parts must then be {@code sampled}. */
  boolean findsBases() {
    return similar != null;
  }

  /**
   * The piece holding {@code part}'s bytes, or null if none does.
   *
   * @throws IllegalStateException if a piece of another length has the same SHA-256
   */
  Piece find(Part part) {
    Piece piece = get(part.key);
    if (piece != null && piece.rawLength != part.length()) {
      throw new IllegalStateException("SHA-256 collision between parts of different lengths");
    }
    return piece;
  }

  /** A held piece stored alone that shares much of {@code part}'s content, or null. */
  Piece referenceFor(Part part) {
    return similar == null ? null : similar.similarTo(part.features);
  }

  /**
   * Whether {@link #acquire} can store {@code part} as it is: it is encoded, and its base, if any,
   * is still held (a base found earlier may have been released since).
   */
  boolean canStore(Part part) {
    return part.stored != null && (part.base == null || part.base.uses > 0);
  }

  /**
   * The piece holding {@code part}'s bytes, stored now (its {@code stored} bytes, which {@link
   * #canStore} must allow) if none does; counts a use.
   */
  Piece acquire(Part part) {
    Piece piece = get(part.key);
    if (piece == null) {
      piece = new Piece(part.key, part.stored, part.base);
      table.add(piece);
      rawBytes += piece.rawLength;
      encodedBytes += piece.stored.length;
      if (piece.base != null) {
        piece.base.uses++;
      } else if (similar != null) {
        similar.add(piece, part.features);
      }
    }
    piece.uses++;
    return piece;
  }

  /** Counts a use of {@code piece} gone, dropping the piece with its last use. */
  void release(Piece piece) {
    if (--piece.uses == 0) {
      table.remove(piece);
      encodedBytes -= piece.stored.length;
      rawBytes -= piece.rawLength;
      if (piece.base != null) {
        release(piece.base);
      } else if (similar != null) {
        similar.remove(piece);
      }
    }
  }

  /**
   * Replaces the stored form of held piece {@code piece}, stored alone, with {@code smaller}, a
   * shorter encoding of the same raw bytes.
   */
  void settle(Piece piece, byte[] smaller) {
    if (piece.uses == 0 || piece.base != null || smaller.length >= piece.stored.length) {
      throw new IllegalArgumentException("not a held piece stored alone, or not smaller");
    }
    encodedBytes -= piece.stored.length - smaller.length;
    piece.stored = smaller;
  }

  /** Raw size of the pieces held, each once. */
  long rawBytes() {
    return rawBytes;
  }

  /** Encoded size of the pieces held. */
  long encodedBytes() {
    return encodedBytes;
  }

  /** Pieces held. */
  int size() {
    return table.size();
  }

  /** Slots of the lookup table now. */
  int capacity() {
    return table.capacity();
  }

  /**
   * What the pieces cost the budget: encoded bytes plus the overhead of each, the lookup table and
   * the similarity index.
   */
  long costBytes() {
    return encodedBytes
        + (long) PIECE_OVERHEAD * table.size()
        + (long) SLOT_BYTES * table.capacity()
        + (similar == null ? 0 : similar.heapBytes());
  }

  /**
   * Throws {@link AssertionError} unless the pieces held are exactly those of {@code usesByPiece}
   * and the bases of those, each with that use count plus one per piece encoded against it, under
   * its own hash, and the byte counts are their sums. For tests.
   */
  void checkInvariants(Map<Piece, Integer> usesByPiece) {
    Map<Piece, Integer> uses = new HashMap<>(usesByPiece);
    List<Piece> held = new ArrayList<>();
    table.forEach(held::add);
    int size = table.size();
    int capacity = table.capacity();
    check(held.size() == size, "table holds " + held.size() + " pieces, size says " + size);
    check(
        capacity >= 2 * size && (capacity == MIN_CAPACITY || capacity <= 8 * size),
        "piece table of " + capacity + " slots for " + size + " pieces");
    for (Piece p : held) {
      if (p.base != null) {
        check(p.base.base == null, "a base is itself encoded against a base");
        check(get(p.base) == p.base, "a piece's base is not held");
        uses.merge(p.base, 1, Integer::sum);
      }
    }
    check(uses.size() == size, "pieces held without deliveries");
    long expectRaw = 0;
    long expectEncoded = 0;
    for (Piece p : held) {
      check(uses.getOrDefault(p, 0) == p.uses, "piece's use count is wrong");
      check(get(p) == p, "piece under another hash");
      expectRaw += p.rawLength;
      expectEncoded += p.stored.length;
    }
    check(expectEncoded == encodedBytes, "encodedBytes " + encodedBytes + " != " + expectEncoded);
    check(expectRaw == rawBytes, "rawBytes " + rawBytes + " != " + expectRaw);
  }

  /** The held piece with {@code key}'s hash, or null. */
  private Piece get(Piece key) {
    for (int i = table.start(key.hash0 ^ seed); ; i = table.next(i)) {
      Piece p = table.at(i);
      if (p == null || p.equals(key)) {
        return p;
      }
    }
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new AssertionError(message);
    }
  }
}
