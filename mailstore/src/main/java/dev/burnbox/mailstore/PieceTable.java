package dev.burnbox.mailstore;

import com.google.common.hash.HashCode;
import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The memory store's pieces: messages' raw bytes, encoded and stored alone, each shared by every
 * delivery that holds them and dropped with their last use. A delivery whose bytes are encoded
 * against a <em>base</em> (a piece that {@link SimilarPieces} found to share much of its content: a
 * near-duplicate) keeps that <em>delta</em> itself; the table counts it and holds its base for as
 * long as the delivery holds the delta, so reading any message decodes at most two byte arrays.
 *
 * <p>Pieces are found by a 128-bit murmur3 hash of their bytes and their length, so that an exact
 * resend stores nothing new, and remembered as bases. The hash only names candidates: murmur3's
 * collisions can be made on purpose, so {@link MemoryInboxStore} compares a candidate's bytes with
 * the message's before sharing it, and a message whose hash collides with a held piece's is stored
 * as a piece of its own (the table then holds both under one hash; {@link #find} names the first).
 * Through SMTP no sender can pile such pieces onto one run of slots: murmur3's collisions hold
 * between messages of one prefix, and every delivery starts with its own trace header (a random
 * id); only the store's other callers (tests, restores) could, and they are trusted. Deltas are
 * neither found nor shared: a message that is a delta of a held base is encoded again against it (a
 * splice of a few dozen bytes, or a small zstd frame), which costs less than registering every
 * delta would (its hash inline, a table slot and an object of its own, 60-90 bytes, for a resend
 * that the per-delivery trace header makes rare).
 *
 * <p>Keeps the byte counts of what it holds, deltas included: raw, encoded, and their cost to the
 * budget (encoded bytes plus {@value #PIECE_OVERHEAD} per piece and {@value #DELTA_OVERHEAD} per
 * delta, the objects' headers and padding; each piece's metadata array; plus {@value #SLOT_BYTES}
 * per slot of the lookup table and the similarity index's fixed tables).
 *
 * <p>The lookup is a {@link ProbeTable} of piece references (8 to 32 bytes per piece, where a
 * {@code HashMap} node and slot took about 40), keyed by the hash's first 64 bits XOR a seed drawn
 * per table: a sender can choose messages whose hashes share bits, but cannot aim them at one run
 * of slots without the seed.
 *
 * <p>Not thread-safe: {@link MemoryInboxStore}'s lock guards it. Lookup, use and release are O(1)
 * expected (amortized over the table's doubling and halving); {@link #referenceFor} and adding a
 * piece are O(features).
 */
final class PieceTable {
  /**
   * Estimated heap per piece besides its encoded bytes and its table slots: the piece object (48
   * bytes with compressed references, its hash inline) and the stored array's header (16) and
   * padding (at most 7); checked with JOL.
   */
  static final int PIECE_OVERHEAD = 72;

  /**
   * Estimated heap per delta besides its encoded bytes: the array's header (16) and padding (at
   * most 7); its delivery holds it. Checked with JOL.
   */
  static final int DELTA_OVERHEAD = 24;

  /** Heap per slot of the lookup table: one compressed reference. */
  static final int SLOT_BYTES = 4;

  /** Slots of the smallest table. */
  static final int MIN_CAPACITY = ProbeTable.MIN_CAPACITY;

  private final long seed = ThreadLocalRandom.current().nextLong();
  private final ProbeTable<Piece> table = new ProbeTable<>(p -> p.hash0 ^ seed);
  private final SimilarPieces similar; // null: messages are all stored alone
  private int deltas;
  private long rawBytes;
  private long encodedBytes;
  private long metadataBytes;

  /**
   * A table whose deliveries may be encoded against bases that {@code similar} finds, if not null.
   */
  PieceTable(SimilarPieces similar) {
    this.similar = similar;
  }

  /**
   * A message's bytes stored alone: found by the hash of its raw bytes (held inline) and their
   * length, and a base. {@code uses} counts the deliveries holding it and the deltas stored against
   * it. It keeps the {@code metadata} its first delivery came with, for the deliveries holding it
   * or stored against it to share when theirs are equal (a campaign's copies: the same sender,
   * subject and verdict).
   */
  static final class Piece {
    // replaced only by a smaller form of the same raw bytes (settle), so a reader outside the lock
    // decodes either form to the same bytes
    volatile byte[] stored;
    final int rawLength;
    final long hash0; // the 128-bit hash of its raw bytes
    final long hash1;
    final byte[] metadata;
    int uses;
    int similarSlot = -1; // where SimilarPieces remembers it, if it does

    Piece(Part part, byte[] stored) {
      this.stored = stored;
      this.metadata = part.metadata;
      this.rawLength = part.length();
      this.hash0 = part.hash0;
      this.hash1 = part.hash1;
    }

    /** Whether this piece may hold {@code part}'s bytes: its hash and length are theirs. */
    boolean mayHold(Part part) {
      return hash0 == part.hash0 && hash1 == part.hash1 && rawLength == part.length();
    }

    long cost() {
      return pieceCost(stored, metadata);
    }
  }

  /** The hash pieces are looked up by: 128 bits, equal for equal bytes. */
  static final HashFunction HASH = Hashing.murmur3_128();

  /**
   * A delivery's raw bytes on their way to a {@link Piece} or a delta: hashed, and sampled for
   * similar pieces, outside the lock; then, if a piece may hold them, compared with its bytes
   * outside the lock; if none does, given a base under the lock and encoded outside it.
   */
  static final class Part {
    final byte[] raw;
    final long hash0; // the hash of raw: what a piece is looked up by
    final long hash1;
    final int[] features; // SimilarPieces.features, or null if the table does not use them
    final byte[] metadata; // what a piece stored from this part keeps for its deliveries to share
    Piece candidate; // a piece found by the hash whose bytes are still to be compared, or null
    Piece sameAs; // a piece found by the hash whose bytes are raw, or null
    Piece differsFrom; // a piece found by the hash whose bytes are not raw, or null
    Piece base; // the piece to encode against, chosen under the lock; null: alone
    byte[] stored; // encoded outside the lock, against base if it is not null

    Part(byte[] raw, boolean sampled, byte[] metadata) {
      this(raw, HASH.hashBytes(raw), sampled, metadata);
    }

    /** A part with the given hash of {@code raw}: tests make collisions with it. */
    Part(byte[] raw, HashCode hash, boolean sampled, byte[] metadata) {
      this.raw = raw;
      this.metadata = metadata;
      ByteBuffer bytes = ByteBuffer.wrap(hash.asBytes());
      this.hash0 = bytes.getLong();
      this.hash1 = bytes.getLong();
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
   * The first piece with {@code part}'s hash and length, or null if none has them: a piece that
   * holds its bytes unless the hashes collide, which only comparing the bytes tells.
   */
  Piece find(Part part) {
    for (int i = table.start(part.hash0 ^ seed); ; i = table.next(i)) {
      Piece p = table.at(i);
      if (p == null || p.mayHold(part)) {
        return p;
      }
    }
  }

  /** A held piece that shares much of {@code part}'s content, or null. */
  Piece referenceFor(Part part) {
    return similar == null ? null : similar.similarTo(part.features);
  }

  /**
   * Whether {@code part} can be stored as it is, by {@link #add} or {@link #addDelta}: it is
   * encoded, and its base, if any, is still held (a base found earlier may have been released
   * since).
   */
  boolean canStore(Part part) {
    return part.stored != null && (part.base == null || part.base.uses > 0);
  }

  /** What storing {@code part} as it is adds to {@link #costBytes}. */
  static long costOf(Part part) {
    return part.base == null
        ? pieceCost(part.stored, part.metadata)
        : DELTA_OVERHEAD + (long) part.stored.length;
  }

  /** What a piece of {@code stored} bytes keeping {@code metadata} costs the budget. */
  private static long pieceCost(byte[] stored, byte[] metadata) {
    return PIECE_OVERHEAD + (long) stored.length + arrayBytes(metadata);
  }

  /** The heap a byte array of {@code bytes}'s length takes: a 16-byte header, padded to 8. */
  static long arrayBytes(byte[] bytes) {
    return arrayBytes(bytes.length);
  }

  /** The heap a byte array of {@code length} bytes takes. */
  static long arrayBytes(int length) {
    return (16L + length + 7) & -8L;
  }

  /** Counts one more use of held piece {@code piece}: a delivery that holds its bytes. */
  void use(Piece piece) {
    if (piece.uses == 0) {
      throw new IllegalArgumentException("not a held piece");
    }
    piece.uses++;
  }

  /**
   * A new piece of {@code part}'s bytes stored alone (which {@link #canStore} must allow, with no
   * base and no piece holding them), with one use.
   */
  Piece add(Part part) {
    if (part.base != null || !canStore(part)) {
      throw new IllegalArgumentException("not a part to store alone");
    }
    Piece piece = new Piece(part, part.stored);
    table.add(piece);
    if (similar != null) {
      similar.add(piece, part.features);
    }
    piece.uses = 1;
    count(piece.rawLength, piece.stored.length);
    metadataBytes += arrayBytes(piece.metadata);
    return piece;
  }

  /**
   * Counts {@code part}'s stored bytes, encoded against its base (which {@link #canStore} must
   * allow), as a delta that its delivery keeps, and counts it as a use of that base; returns the
   * base.
   */
  Piece addDelta(Part part) {
    if (part.base == null || !canStore(part)) {
      throw new IllegalArgumentException("not a delta to store");
    }
    part.base.uses++;
    deltas++;
    count(part.length(), part.stored.length);
    return part.base;
  }

  /** Counts a use of {@code piece} gone, dropping the piece with its last use. */
  void release(Piece piece) {
    if (--piece.uses == 0) {
      count(-piece.rawLength, -piece.stored.length);
      metadataBytes -= arrayBytes(piece.metadata);
      table.remove(piece);
      if (similar != null) {
        similar.remove(piece);
      }
    }
  }

  /**
   * Counts a delta of {@code rawLength} raw bytes stored as {@code stored} against {@code base}
   * gone, and with it a use of its base.
   */
  void releaseDelta(Piece base, int rawLength, byte[] stored) {
    deltas--;
    count(-rawLength, -stored.length);
    release(base);
  }

  private void count(long raw, long encoded) {
    rawBytes += raw;
    encodedBytes += encoded;
  }

  /**
   * Replaces the stored form of held piece {@code piece} with {@code smaller}, a shorter encoding
   * of the same raw bytes.
   */
  void settle(Piece piece, byte[] smaller) {
    if (piece.uses == 0 || smaller.length >= piece.stored.length) {
      throw new IllegalArgumentException("not a held piece, or not smaller");
    }
    encodedBytes -= piece.stored.length - smaller.length;
    piece.stored = smaller;
  }

  /**
   * Counts a held delta's {@code before} replaced by {@code smaller}, a shorter encoding of the
   * same raw bytes against the same base; its delivery keeps the new array.
   */
  void settleDelta(byte[] before, byte[] smaller) {
    if (smaller.length >= before.length) {
      throw new IllegalArgumentException("not smaller");
    }
    encodedBytes -= before.length - smaller.length;
  }

  /** Raw size of the pieces and deltas held, each once. */
  long rawBytes() {
    return rawBytes;
  }

  /** Encoded size of the pieces and deltas held. */
  long encodedBytes() {
    return encodedBytes;
  }

  /** Pieces and deltas held. */
  int size() {
    return table.size() + deltas;
  }

  /** Slots of the lookup table now. */
  int capacity() {
    return table.capacity();
  }

  /**
   * What the pieces and deltas cost the budget: encoded bytes plus the overhead of each, the
   * pieces' metadata, the lookup table and the similarity index.
   */
  long costBytes() {
    return encodedBytes
        + metadataBytes
        + (long) PIECE_OVERHEAD * table.size()
        + (long) DELTA_OVERHEAD * deltas
        + (long) SLOT_BYTES * table.capacity()
        + (similar == null ? 0 : similar.heapBytes());
  }

  /**
   * Throws {@link AssertionError} unless the pieces held are exactly those of {@code uses}, each
   * with that use count (deliveries holding it plus deltas against it); the table holds exactly
   * them, each under its own hash; {@code deltaCount} deltas of {@code deltaRawBytes} raw and
   * {@code deltaEncodedBytes} encoded bytes are held; and the byte counts are the sums. For tests.
   */
  void checkInvariants(
      Map<Piece, Integer> uses, int deltaCount, long deltaRawBytes, long deltaEncodedBytes) {
    List<Piece> inTable = new ArrayList<>();
    table.forEach(inTable::add);
    int size = table.size();
    int capacity = table.capacity();
    check(inTable.size() == size, "table holds " + inTable.size() + " pieces, size says " + size);
    check(
        capacity >= 2 * size && (capacity == MIN_CAPACITY || capacity <= 8 * size),
        "piece table of " + capacity + " slots for " + size + " pieces");
    check(uses.size() == size, "table holds " + size + " pieces, " + uses.size() + " are used");
    check(deltaCount == deltas, "deltas " + deltas + " != " + deltaCount);
    long expectRaw = deltaRawBytes;
    long expectEncoded = deltaEncodedBytes;
    long expectMetadata = 0;
    for (Map.Entry<Piece, Integer> e : uses.entrySet()) {
      Piece p = e.getKey();
      check(get(p) == p, "a held piece is not in the table");
      check(e.getValue() == p.uses, "piece's use count is wrong");
      expectRaw += p.rawLength;
      expectEncoded += p.stored.length;
      expectMetadata += arrayBytes(p.metadata);
    }
    check(expectMetadata == metadataBytes, "metadata " + metadataBytes + " != " + expectMetadata);
    check(expectEncoded == encodedBytes, "encodedBytes " + encodedBytes + " != " + expectEncoded);
    check(expectRaw == rawBytes, "rawBytes " + rawBytes + " != " + expectRaw);
  }

  /** {@code piece} itself if the table holds it. */
  private Piece get(Piece piece) {
    for (int i = table.start(piece.hash0 ^ seed); ; i = table.next(i)) {
      Piece p = table.at(i);
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
