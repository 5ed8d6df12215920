package dev.burnbox.mailstore;

import dev.burnbox.mailstore.PieceTable.Piece;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Finds, among the most recently stored pieces, one that shares much of its content with new raw
 * bytes: the reference a near-duplicate (the next copy of a campaign, a newsletter's next issue, a
 * resend with another greeting or tracking link) is compressed against.
 *
 * <p>A message's <em>features</em> are content-defined samples of it: a Gear rolling hash (as in
 * FastCDC) over its bytes (32-byte windows), kept at about one position in {@value #SAMPLE_EVERY}
 * where six bits of the hash are zero, at most {@value #MAX_FEATURES} of them from its start.
 * Messages that share text share the features at the same content whatever its offset. The index is
 * a fixed-size table: each feature's bucket holds the last {@value #WAYS} features that fell in it,
 * each with the ring position of the piece that had it, and a ring of the last {@code ring} pieces
 * added maps positions to pieces. A lookup lets each feature vote for the pieces that had it and
 * returns the piece with most votes (at least {@value #MIN_VOTES}). Nothing in it grows with the
 * number of pieces stored: {@link #heapBytes} is fixed at construction.
 *
 * <p>What it saves is measured in {@code docs/benchmarks.md} ("Near-duplicates stored as what
 * differs"), on mail the store has never seen and on the store benchmarks' workload.
 *
 * <p>Not thread-safe: {@link PieceTable}'s owner guards it. {@link #features} is a pure function
 * and runs outside any lock, O(n) in the message's length; {@link #similarTo} and {@link #add} are
 * O(features x ways).
 */
final class SimilarPieces {
  /** One position in this many is sampled as a feature (the top six bits of its hash zero). */
  static final int SAMPLE_EVERY = 64;

  /** Features taken from the start of a message at most: about 16 KiB of text. */
  static final int MAX_FEATURES = 256;

  /** Pieces remembered per feature bucket. */
  static final int WAYS = 4;

  /** Votes a candidate needs: one shared feature can be chance. */
  static final int MIN_VOTES = 2;

  private static final long SAMPLE_MASK = (long) (SAMPLE_EVERY - 1) << 26;

  private static final long[] GEAR = gear();

  // WAYS entries per bucket, newest first: a feature in the high half, its piece's ring position in
  // the low half (0 = empty)
  private final long[] buckets;
  private final int bucketMask;
  private final Piece[] ring;
  private final int[] ringPositions; // the position each ring slot holds, to spot stale buckets
  private int next = 1; // the next ring position; positions start at 1

  /**
   * An index of the last {@code ring} pieces added, with {@code buckets} feature buckets.
   *
   * @throws IllegalArgumentException unless both are powers of two, {@code ring} at least 2
   */
  SimilarPieces(int buckets, int ring) {
    if (Integer.bitCount(buckets) != 1 || Integer.bitCount(ring) != 1 || ring < 2) {
      throw new IllegalArgumentException("buckets and ring must be powers of two: " + buckets);
    }
    this.buckets = new long[buckets * WAYS];
    this.bucketMask = buckets - 1;
    this.ring = new Piece[ring];
    this.ringPositions = new int[ring];
  }

  /** An index sized for a store of {@code maxBytes}: about 1/256 of it, at most 1.1 MiB. */
  static SimilarPieces forBudget(long maxBytes) {
    long scaled = Long.highestOneBit(Math.max(1, maxBytes / 256 / (WAYS * 8)));
    int buckets = (int) Math.clamp(scaled, 64, 1 << 15);
    return new SimilarPieces(buckets, Math.max(2, buckets / 8));
  }

  /** Heap this index holds: its two tables and the ring, whatever is stored. */
  long heapBytes() {
    return 16L + 8L * buckets.length + 16 + 4L * ring.length + 16 + 4L * ringPositions.length;
  }

  /** The distinct features of {@code raw[from, to)}, sorted; at most {@value #MAX_FEATURES}. */
  static int[] features(byte[] raw, int from, int to) {
    int[] out = new int[Math.min(MAX_FEATURES, (to - from) / SAMPLE_EVERY * 2 + 8)];
    int n = 0;
    long hash = 0;
    for (int i = from; i < to && n < out.length; i++) {
      hash = (hash << 1) + GEAR[raw[i] & 0xFF];
      // bit k of a Gear hash depends on the last k + 1 bytes: sample and keep the low 32 bits
      if ((hash & SAMPLE_MASK) == 0 && i - from >= 31) {
        out[n++] = (int) hash;
      }
    }
    Arrays.sort(out, 0, n);
    int distinct = 0;
    for (int i = 0; i < n; i++) {
      if (distinct == 0 || out[distinct - 1] != out[i]) {
        out[distinct++] = out[i];
      }
    }
    return Arrays.copyOf(out, distinct);
  }

  /** The live piece sharing most {@code features}, or null if none shares {@value #MIN_VOTES}. */
  Piece similarTo(int[] features) {
    int[] candidates = new int[features.length * WAYS];
    int n = 0;
    for (int feature : features) {
      int bucket = (feature & bucketMask) * WAYS;
      for (int way = 0; way < WAYS; way++) {
        long entry = buckets[bucket + way];
        int position = (int) entry;
        if (position == 0) {
          break;
        }
        if ((int) (entry >>> 32) == feature && live(position)) {
          candidates[n++] = position;
        }
      }
    }
    Arrays.sort(candidates, 0, n);
    int best = 0;
    int bestVotes = MIN_VOTES;
    for (int i = 0; i < n; ) {
      int j = i;
      while (j < n && candidates[j] == candidates[i]) {
        j++;
      }
      if (j - i >= bestVotes) { // ties go to the newest: positions grow
        best = candidates[i];
        bestVotes = j - i;
      }
      i = j;
    }
    return best == 0 ? null : ring[best & (ring.length - 1)];
  }

  private boolean live(int position) {
    int slot = position & (ring.length - 1);
    return ringPositions[slot] == position && ring[slot] != null;
  }

  /**
   * Remembers {@code piece} under {@code features}, forgetting the oldest piece if the ring is
   * full.
   */
  void add(Piece piece, int[] features) {
    int position = next++;
    if (next == Integer.MAX_VALUE) {
      next = 1; // after 2^31 pieces: older positions in buckets may then alias, costing a bad guess
    }
    int slot = position & (ring.length - 1);
    if (ring[slot] != null) {
      ring[slot].similarSlot = -1;
    }
    ring[slot] = piece;
    ringPositions[slot] = position;
    piece.similarSlot = slot;
    for (int feature : features) {
      int bucket = (feature & bucketMask) * WAYS;
      System.arraycopy(buckets, bucket, buckets, bucket + 1, WAYS - 1);
      buckets[bucket] = (long) feature << 32 | position;
    }
  }

  /** Forgets {@code piece} (its last use is gone): it is never returned again. */
  void remove(Piece piece) {
    if (piece.similarSlot >= 0) {
      ring[piece.similarSlot] = null;
      piece.similarSlot = -1;
    }
  }

  /** Gear's table: a random 64-bit value per byte value, fixed by a seed. */
  private static long[] gear() {
    SplittableRandom random = new SplittableRandom(0x6275726e626f78L); // "burnbox"
    long[] gear = new long[256];
    for (int i = 0; i < gear.length; i++) {
      gear[i] = random.nextLong();
    }
    return gear;
  }
}
