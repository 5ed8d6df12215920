package dev.burnbox.mailstore;

import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The memory store's pieces: each message's raw bytes, encoded, shared by every delivery that holds
 * them and dropped with their last use. A piece is either stored alone or, where the codec can and
 * it is smaller, against a <em>base</em>: a piece stored alone that {@link SimilarPieces} found to
 * share much of its content (a near-duplicate). A base is held for as long as a piece stored
 * against it is, so reading any piece decodes at most two.
 *
 * <p>Pieces stored alone are {@link Keyed}: found by their SHA-256, so that an exact resend stores
 * nothing new, and remembered as bases. Pieces stored against a base (deltas: a campaign's next
 * copy, a resend whose trace header differs) are neither: a message that is a delta of a held base
 * is encoded again against it (a splice of a few dozen bytes, or a small zstd frame), which costs
 * less than what registering every delta would (its hash inline and a table slot, 40-60 bytes, for
 * a resend that the per-delivery trace header makes rare).
 *
 * <p>Keeps the byte counts of what it holds: raw, encoded, and their cost to the budget (encoded
 * bytes plus {@value #PIECE_OVERHEAD} per piece stored alone and {@value #DELTA_OVERHEAD} per
 * delta, the object and the array's header and padding; plus {@value #SLOT_BYTES} per slot of the
 * lookup table and the similarity index's fixed tables).
 *
 * <p>The lookup is a {@link ProbeTable} of piece references (8 to 32 bytes per piece, where a
 * {@code HashMap} node and slot took about 40), keyed by the SHA-256's first 64 bits XOR a seed
 * drawn per table: a sender can choose messages whose hashes share bits, but cannot aim them at one
 * run of slots without the seed.
 *
 * <p>Not thread-safe: {@link MemoryInboxStore}'s lock guards it. Lookup, acquire and release are
 * O(1) expected (amortized over the table's doubling and halving); {@link #referenceFor} and
 * acquiring a piece stored alone are O(features).
 */
final class PieceTable {
  /**
   * Estimated heap per piece stored alone besides its encoded bytes and its table slots: the piece
   * object (64 bytes with compressed references, its hash inline) and the stored array's header
   * (16) and padding (at most 7); checked with JOL.
   */
  static final int PIECE_OVERHEAD = 88;

  /**
   * Estimated heap per delta besides its encoded bytes: the piece object (32 bytes) and the stored
   * array's header (16) and padding (at most 7); checked with JOL.
   */
  static final int DELTA_OVERHEAD = 56;

  /** Heap per slot of the lookup table: one compressed reference. */
  static final int SLOT_BYTES = 4;

  /** Slots of the smallest table. */
  static final int MIN_CAPACITY = ProbeTable.MIN_CAPACITY;

  private final long seed = ThreadLocalRandom.current().nextLong();
  private final ProbeTable<Keyed> table = new ProbeTable<>(p -> p.hash0 ^ seed);
  private final SimilarPieces similar; // null: pieces are all stored alone
  private int deltas;
  private long rawBytes;
  private long encodedBytes;

  /** A table whose pieces may be encoded against bases that {@code similar} finds, if not null. */
  PieceTable(SimilarPieces similar) {
    this.similar = similar;
  }

  /**
   * A stored message, shared by every delivery that holds it; {@code uses} counts the deliveries
   * using it and, for a piece stored alone, the deltas stored against it.
   */
  static sealed class Piece permits Keyed {
    // replaced only by a smaller form of the same raw bytes (settle), so a reader outside the lock
    // decodes either form to the same bytes
    volatile byte[] stored;
    final int rawLength;
    final Keyed base; // null: stored alone; else stored against this piece's raw bytes
    int uses;

    Piece(byte[] stored, int rawLength, Keyed base) {
      this.stored = stored;
      this.rawLength = rawLength;
      this.base = base;
    }

    /** The piece stored alone that reading this one decodes: its base, or itself. */
    Keyed alone() {
      return base != null ? base : (Keyed) this;
    }

    long cost() {
      return PieceTable.cost(base, stored);
    }
  }

  /** A piece stored alone: found by the SHA-256 of its raw bytes, held inline, and a base. */
  static final class Keyed extends Piece {
    final long hash0;
    final long hash1;
    final long hash2;
    final long hash3;
    int similarSlot = -1; // where SimilarPieces remembers it, if it does

    Keyed(Part part, byte[] stored) {
      super(stored, part.length(), null);
      this.hash0 = part.hash0;
      this.hash1 = part.hash1;
      this.hash2 = part.hash2;
      this.hash3 = part.hash3;
    }

    boolean holds(Part part) {
      return hash0 == part.hash0
          && hash1 == part.hash1
          && hash2 == part.hash2
          && hash3 == part.hash3;
    }
  }

  /**
   * A delivery's raw bytes on their way to a {@link Piece}: hashed, and sampled for similar pieces,
   * outside the lock; then, if no piece holds them, given a base under the lock and encoded outside
   * it.
   */
  static final class Part {
    final byte[] raw;
    final long hash0; // the SHA-256 of raw, to look a piece stored alone up with
    final long hash1;
    final long hash2;
    final long hash3;
    final int[] features; // SimilarPieces.features, or null if the table does not use them
    Keyed base; // the piece to encode against, chosen under the lock; null: alone
    byte[] stored; // encoded outside the lock, against base if it is not null

    Part(byte[] raw, boolean sampled) {
      this.raw = raw;
      ByteBuffer hash = ByteBuffer.wrap(Hashing.sha256().hashBytes(raw).asBytes());
      this.hash0 = hash.getLong();
      this.hash1 = hash.getLong();
      this.hash2 = hash.getLong();
      this.hash3 = hash.getLong();
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
   * The piece stored alone that holds {@code part}'s bytes, or null if none does.
   *
   * @throws IllegalStateException if a piece of another length has the same SHA-256
   */
  Keyed find(Part part) {
    Keyed piece = get(part);
    if (piece != null && piece.rawLength != part.length()) {
      throw new IllegalStateException("SHA-256 collision between parts of different lengths");
    }
    return piece;
  }

  /** A held piece stored alone that shares much of {@code part}'s content, or null. */
  Keyed referenceFor(Part part) {
    return similar == null ? null : similar.similarTo(part.features);
  }

  /**
   * Whether {@link #acquire} can store {@code part} as it is: it is encoded, and its base, if any,
   * is still held (a base found earlier may have been released since).
   */
  boolean canStore(Part part) {
    return part.stored != null && (part.base == null || part.base.uses > 0);
  }

  /** What {@link #acquire} adds to {@link #costBytes} for {@code part} when no piece holds it. */
  static long costOf(Part part) {
    return cost(part.base, part.stored);
  }

  /**
   * What a piece of {@code stored} bytes costs the budget: stored against {@code base}, or alone.
   */
  private static long cost(Keyed base, byte[] stored) {
    return (base == null ? PIECE_OVERHEAD : DELTA_OVERHEAD) + (long) stored.length;
  }

  /**
   * The piece stored alone holding {@code part}'s bytes, or else a new piece of its {@code stored}
   * bytes (which {@link #canStore} must allow); counts a use.
   */
  Piece acquire(Part part) {
    Piece piece = get(part);
    if (piece == null) {
      if (part.base == null) {
        Keyed alone = new Keyed(part, part.stored);
        table.add(alone);
        if (similar != null) {
          similar.add(alone, part.features);
        }
        piece = alone;
      } else {
        piece = new Piece(part.stored, part.length(), part.base);
        part.base.uses++;
        deltas++;
      }
      rawBytes += piece.rawLength;
      encodedBytes += piece.stored.length;
    }
    piece.uses++;
    return piece;
  }

  /** Counts a use of {@code piece} gone, dropping the piece with its last use. */
  void release(Piece piece) {
    if (--piece.uses == 0) {
      encodedBytes -= piece.stored.length;
      rawBytes -= piece.rawLength;
      if (piece instanceof Keyed alone) {
        table.remove(alone);
        if (similar != null) {
          similar.remove(alone);
        }
      } else {
        deltas--;
        release(piece.base);
      }
    }
  }

  /**
   * Replaces the stored form of held piece {@code piece} with {@code smaller}, a shorter encoding
   * of the same raw bytes (against the same base, if it has one).
   */
  void settle(Piece piece, byte[] smaller) {
    if (piece.uses == 0 || smaller.length >= piece.stored.length) {
      throw new IllegalArgumentException("not a held piece, or not smaller");
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

  /** Pieces held: stored alone and deltas. */
  int size() {
    return table.size() + deltas;
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
        + (long) DELTA_OVERHEAD * deltas
        + (long) SLOT_BYTES * table.capacity()
        + (similar == null ? 0 : similar.heapBytes());
  }

  /**
   * Throws {@link AssertionError} unless the pieces held are exactly those of {@code usesByPiece}
   * and the bases of those, each with that use count plus one per delta stored against it; the
   * table holds exactly the pieces stored alone, each under its own hash; and the byte counts are
   * their sums. For tests.
   */
  void checkInvariants(Map<Piece, Integer> usesByPiece) {
    Map<Piece, Integer> uses = new IdentityHashMap<>(usesByPiece);
    List<Keyed> inTable = new ArrayList<>();
    table.forEach(inTable::add);
    int size = table.size();
    int capacity = table.capacity();
    check(inTable.size() == size, "table holds " + inTable.size() + " pieces, size says " + size);
    check(
        capacity >= 2 * size && (capacity == MIN_CAPACITY || capacity <= 8 * size),
        "piece table of " + capacity + " slots for " + size + " pieces");
    int deltasHeld = 0;
    for (Piece p : usesByPiece.keySet()) {
      if (p.base != null) {
        deltasHeld++;
        check(get(p.base) == p.base, "a delta's base is not in the table");
        uses.merge(p.base, 1, Integer::sum);
      } else {
        check(p instanceof Keyed k && get(k) == k, "a piece stored alone is not in the table");
      }
    }
    check(deltasHeld == deltas, "deltas " + deltas + " != " + deltasHeld);
    check(uses.size() == size + deltas, "pieces held without deliveries");
    long expectRaw = 0;
    long expectEncoded = 0;
    for (Piece p : uses.keySet()) {
      check(uses.get(p) == p.uses, "piece's use count is wrong");
      expectRaw += p.rawLength;
      expectEncoded += p.stored.length;
    }
    check(expectEncoded == encodedBytes, "encodedBytes " + encodedBytes + " != " + expectEncoded);
    check(expectRaw == rawBytes, "rawBytes " + rawBytes + " != " + expectRaw);
  }

  /** The piece stored alone with {@code part}'s hash, or null. */
  private Keyed get(Part part) {
    for (int i = table.start(part.hash0 ^ seed); ; i = table.next(i)) {
      Keyed p = table.at(i);
      if (p == null || p.holds(part)) {
        return p;
      }
    }
  }

  /** {@code piece} itself if the table holds it. */
  private Keyed get(Keyed piece) {
    for (int i = table.start(piece.hash0 ^ seed); ; i = table.next(i)) {
      Keyed p = table.at(i);
      if (p == null || p == piece) {
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
