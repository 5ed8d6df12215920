package dev.burnbox.mailstore;

import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * The memory store's distinct pieces: each header block and body is held once, encoded, however
 * many deliveries contain it, found by the SHA-256 of its raw bytes, and dropped with its last use.
 * Keeps the byte counts of what it holds: raw, encoded, and their cost to the budget (encoded bytes
 * plus {@value #PIECE_OVERHEAD} per piece: the object with its hash inline, the array header, the
 * map node and slot).
 *
 * <p>Not thread-safe: {@link MemoryInboxStore}'s lock guards it. Lookup, acquire and release are
 * O(1).
 */
final class PieceTable {
  /** Estimated heap per piece besides its encoded bytes (checked with JOL). */
  static final int PIECE_OVERHEAD = 144;

  private final HashMap<Piece, Piece> pieces = new HashMap<>(); // a piece is its own key
  private long rawBytes;
  private long encodedBytes;

  /**
   * A stored header block or body, shared by every delivery whose raw bytes contain it; {@code
   * uses} counts the deliveries using it (twice for a delivery whose header block and body are
   * equal).
   */
  static final class Piece {
    // the SHA-256 of the raw bytes, held inline: pieces are equal when their hashes are
    final long hash0;
    final long hash1;
    final long hash2;
    final long hash3;
    final byte[] stored; // null in a lookup key
    final int rawLength;
    int uses;

    Piece(byte[] sha256, byte[] stored, int rawLength) {
      ByteBuffer hash = ByteBuffer.wrap(sha256);
      this.hash0 = hash.getLong();
      this.hash1 = hash.getLong();
      this.hash2 = hash.getLong();
      this.hash3 = hash.getLong();
      this.stored = stored;
      this.rawLength = rawLength;
    }

    Piece(Piece key, byte[] stored) {
      this.hash0 = key.hash0;
      this.hash1 = key.hash1;
      this.hash2 = key.hash2;
      this.hash3 = key.hash3;
      this.stored = stored;
      this.rawLength = key.rawLength;
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

  /** One part of a delivery's raw bytes (header block or body) on its way to a {@link Piece}. */
  static final class Part {
    final byte[] raw;
    final int from;
    final int to;
    final Piece key; // the hash and length, to look the piece up with
    boolean missing; // no piece holds these bytes: set under the lock
    byte[] stored; // encoded outside the lock once missing

    Part(byte[] raw, int from, int to) {
      this.raw = raw;
      this.from = from;
      this.to = to;
      this.key =
          new Piece(Hashing.sha256().hashBytes(raw, from, to - from).asBytes(), null, to - from);
    }

    int length() {
      return to - from;
    }
  }

  /**
   * The piece holding {@code part}'s bytes, or null if none does.
   *
   * @throws IllegalStateException if a piece of another length has the same SHA-256
   */
  Piece find(Part part) {
    Piece piece = pieces.get(part.key);
    if (piece != null && piece.rawLength != part.length()) {
      throw new IllegalStateException("SHA-256 collision between parts of different lengths");
    }
    return piece;
  }

  /**
   * The piece holding {@code part}'s bytes, stored now (its {@code stored} bytes, which must be
   * encoded by then) if none does; counts a use.
   */
  Piece acquire(Part part) {
    Piece piece = pieces.get(part.key);
    if (piece == null) {
      piece = new Piece(part.key, part.stored);
      pieces.put(piece, piece);
      rawBytes += piece.rawLength;
      encodedBytes += piece.stored.length;
    }
    piece.uses++;
    return piece;
  }

  /** Counts a use of {@code piece} gone, dropping the piece with its last use. */
  void release(Piece piece) {
    if (--piece.uses == 0) {
      pieces.remove(piece);
      encodedBytes -= piece.stored.length;
      rawBytes -= piece.rawLength;
    }
  }

  /** Raw size of the pieces held, each once. */
  long rawBytes() {
    return rawBytes;
  }

  /** Encoded size of the pieces held. */
  long encodedBytes() {
    return encodedBytes;
  }

  /** What the pieces cost the budget: encoded bytes plus the overhead of each. */
  long costBytes() {
    return encodedBytes + (long) PIECE_OVERHEAD * pieces.size();
  }

  /**
   * Throws {@link AssertionError} unless the pieces held are exactly those of {@code usesByPiece},
   * each with that use count, under its own hash, and the byte counts are their sums. For tests.
   */
  void checkInvariants(Map<Piece, Integer> usesByPiece) {
    check(usesByPiece.size() == pieces.size(), "pieces held without deliveries");
    long expectRaw = 0;
    long expectEncoded = 0;
    for (Piece p : pieces.values()) {
      check(usesByPiece.getOrDefault(p, 0) == p.uses, "piece's use count is wrong");
      check(pieces.get(p) == p, "piece under another hash");
      expectRaw += p.rawLength;
      expectEncoded += p.stored.length;
    }
    check(expectEncoded == encodedBytes, "encodedBytes " + encodedBytes + " != " + expectEncoded);
    check(expectRaw == rawBytes, "rawBytes " + rawBytes + " != " + expectRaw);
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new AssertionError(message);
    }
  }
}
