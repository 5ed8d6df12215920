package dev.burnbox.matcher;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Wu-Manber (1994): skips over the text on blocks of {@code B} units, with SHIFT, HASH and PREFIX
 * tables.
 *
 * <p>How it works. Let {@code m} be the shortest pattern's length. Every pattern is aligned on its
 * <em>last</em> unit at the window's end {@code pos} (a mirror image of the paper, which aligns
 * starts; aligning ends makes occurrences come out in the contract's order with no buffer), and
 * only its last {@code m} units, its <em>tail</em>, take part in skipping. The block of {@code B}
 * units ending at {@code pos} is hashed; {@code SHIFT[h]} is how far the window may move before a
 * tail could contain that block at its end (at most {@code m - B + 1}). On 0, {@code HASH[h]} lists
 * the candidate patterns whose tail ends with a block of hash {@code h}, longest first; each is
 * checked first against the first two units of the window (the PREFIX filter, one {@code int}
 * compare) and then unit by unit. The window then moves by {@code SHIFT_AFTER_HIT[h]}, the smallest
 * non-zero distance of that block in any tail, instead of the paper's 1.
 *
 * <p>The block size B (see {@link #chooseBlock}): Wu and Manber suggest {@code B = log_c(2mk)} for
 * k patterns over an alphabet of c symbols, so that a random block rarely occurs in any tail. With
 * c about 20 for mail text, that is 2 for up to a few hundred terms and 3 for thousands. B is
 * capped at {@code m - 1} so the shift can reach 2 ({@code m = 1} gives B = 1, {@code m = 2} gives
 * B = 2).
 *
 * <p>Tables are indexed by a hash of the <em>raw</em> text units (14 bits for B = 2, exact on
 * ASCII; 15 for B = 3; 12 for B = 1), so the skip loop never folds case: when ignoring case, each
 * tail block is entered under every combination of units folding to its units. SHIFT is a {@code
 * byte[]} of 16-32 KiB that stays in L1/L2 cache; shifts are capped at 127.
 *
 * <p>Cost: O(n / (m - B + 1)) when blocks rarely occur in tails, O(n * lmax * k) in the degenerate
 * worst case ({@code "aaaa..."} against many {@code "a..a"} terms). Memory: about 70-160 KiB of
 * tables plus 12 bytes per (pattern, tail-end block variant). Scans without occurrences allocate
 * nothing; occurrences go straight to the sink.
 *
 * <p>Immutable and thread-safe after construction.
 */
final class WuManberMatcher implements TermMatcher {
  /** The effective alphabet size of mail text in the rule for B. */
  private static final double ALPHABET = 20;

  private static final int MAX_SHIFT = Byte.MAX_VALUE;

  /** Hash bits by block size 1, 2, 3. */
  private static final int[] HASH_BITS = {12, 14, 15};

  /** Left shift of each block unit (first to last) in the hash, by block size. */
  private static final int[][] UNIT_SHIFTS = {{0}, {7, 0}, {10, 5, 0}};

  private final TermSet terms;
  private final boolean ignoreCase;
  private final char[] fold;
  private final int minLength;
  private final int block;
  private final int mask;
  private final byte[] shift;

  /** The largest shift, m - B + 1 (capped at 127): what SHIFT holds for blocks in no tail. */
  private final int longestShift;

  private final byte[] shiftAfterHit;
  // HASH: the candidates for hash h are [bucketStart[h], bucketStart[h + 1]) in the cand* arrays.
  private final int[] bucketStart;
  private final int[] candHead;
  private final String[] candPattern;
  private final int[] candTerm;

  WuManberMatcher(TermSet terms) {
    this(terms, chooseBlock(terms.minPatternLength(), terms.patternCount()));
  }

  /** Builds with block size {@code block} (1 to 3, at most the shortest pattern's length). */
  WuManberMatcher(TermSet terms, int block) {
    int m = terms.minPatternLength();
    if (block < 1 || block > 3 || (m > 0 && block > m)) {
      throw new IllegalArgumentException("block " + block + " for shortest pattern " + m);
    }
    this.terms = terms;
    this.ignoreCase = terms.options().ignoreCase();
    this.fold = CaseFolding.charFoldTable();
    this.minLength = m;
    this.block = block;
    int size = 1 << HASH_BITS[block - 1];
    this.mask = size - 1;
    this.shift = new byte[size];
    this.shiftAfterHit = new byte[size];
    this.longestShift = Math.max(1, Math.min(m - block + 1, MAX_SHIFT));
    Arrays.fill(shift, (byte) longestShift);
    Arrays.fill(shiftAfterHit, (byte) longestShift);

    List<List<Integer>> buckets = new ArrayList<>(size);
    for (int h = 0; h < size; h++) {
      buckets.add(null);
    }
    int candidates = 0;
    for (int p = 0; p < terms.patternCount(); p++) {
      String pattern = terms.pattern(p);
      int tailStart = pattern.length() - m;
      for (int d = 0; d <= m - block; d++) {
        int blockStart = tailStart + m - block - d;
        for (int h : blockHashes(pattern, blockStart)) {
          // d < the initial fill <= MAX_SHIFT whenever it is stored, so the cast is exact.
          if (d < shift[h]) {
            shift[h] = (byte) d;
          }
          if (d > 0 && d < shiftAfterHit[h]) {
            shiftAfterHit[h] = (byte) d;
          }
          if (d == 0) {
            if (buckets.get(h) == null) {
              buckets.set(h, new ArrayList<>());
            }
            buckets.get(h).add(p);
            candidates++;
          }
        }
      }
    }
    this.bucketStart = new int[size + 1];
    this.candHead = new int[candidates];
    this.candPattern = new String[candidates];
    this.candTerm = new int[candidates];
    int c = 0;
    for (int h = 0; h < size; h++) {
      bucketStart[h] = c;
      List<Integer> bucket = buckets.get(h);
      if (bucket == null) {
        continue;
      }
      // Longest first: at one end, longer patterns start earlier.
      bucket.sort((a, b) -> terms.pattern(b).length() - terms.pattern(a).length());
      for (int p : bucket) {
        String pattern = terms.pattern(p);
        candHead[c] = headKey(pattern, pattern.length() - m, m);
        candPattern[c] = pattern;
        candTerm[c] = terms.termOfPattern(p);
        c++;
      }
    }
    bucketStart[size] = c;
  }

  /**
   * The block size for a set whose shortest pattern has {@code minLength} units: Wu and Manber's
   * {@code log_c(2 * m * k)} rounded to 2 or 3, capped at {@code m - 1} (but at least 1, and {@code
   * m} for {@code m <= 2}).
   */
  static int chooseBlock(int minLength, int patternCount) {
    if (minLength <= 2) {
      return Math.max(1, minLength);
    }
    double ideal = Math.log(2.0 * minLength * Math.max(1, patternCount)) / Math.log(ALPHABET);
    int b = ideal > 2.5 ? 3 : 2;
    return Math.min(b, minLength - 1);
  }

  /** The block size this matcher was built with. */
  int block() {
    return block;
  }

  /** The distinct table indices the scan may compute for the block at {@code from} of a pattern. */
  private int[] blockHashes(String pattern, int from) {
    int[] hashes = {0};
    int[] unitShifts = UNIT_SHIFTS[block - 1];
    for (int i = 0; i < block; i++) {
      char[] units = FoldPreimages.of(pattern.charAt(from + i), ignoreCase);
      int[] next = new int[hashes.length * units.length];
      int k = 0;
      for (int h : hashes) {
        for (char u : units) {
          next[k++] = h ^ (u << unitShifts[i]);
        }
      }
      hashes = next;
    }
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] &= mask;
    }
    return Arrays.stream(hashes).distinct().toArray();
  }

  /** The PREFIX key: the first two units of a window (one if windows are one unit long). */
  private static int headKey(CharSequence s, int windowStart, int m) {
    return m > 1 ? s.charAt(windowStart) << 16 | s.charAt(windowStart + 1) : s.charAt(windowStart);
  }

  @Override
  public MatcherKind kind() {
    return MatcherKind.WU_MANBER;
  }

  @Override
  public TermSet terms() {
    return terms;
  }

  @Override
  public boolean containsAny(String text) {
    return scan(text, null);
  }

  @Override
  public void forEachMatch(String text, MatchSink sink) {
    scan(text, sink);
  }

  /** Reports occurrences to {@code sink}, or with a null sink stops at the first; true if any. */
  private boolean scan(String text, MatchSink sink) {
    if (minLength == 0) {
      return false;
    }
    // Locals, not fields: the verify call would otherwise force reloads on every window.
    byte[] shift = this.shift;
    int mask = this.mask;
    int block = this.block;
    int longest = this.longestShift;
    boolean found = false;
    int n = text.length();
    int pos = minLength - 1;
    while (pos < n) {
      int h;
      if (block == 3) {
        h = (text.charAt(pos - 2) << 10 ^ text.charAt(pos - 1) << 5 ^ text.charAt(pos)) & mask;
      } else if (block == 2) {
        h = (text.charAt(pos - 1) << 7 ^ text.charAt(pos)) & mask;
      } else {
        h = text.charAt(pos) & mask;
      }
      int s = shift[h];
      if (s == longest) {
        // A constant step: the CPU predicts this branch and runs ahead without waiting for the
        // table load, where "pos += s" would make every window wait for the previous one.
        pos += longest;
        continue;
      }
      if (s == 0) {
        if (verify(text, pos, h, sink)) {
          if (sink == null) {
            return true;
          }
          found = true;
        }
        s = shiftAfterHit[h];
      }
      pos += s;
    }
    return found;
  }

  /** Checks the candidates of hash {@code h} against the window ending at {@code pos}. */
  private boolean verify(String text, int pos, int h, MatchSink sink) {
    int windowStart = pos - minLength + 1;
    int head;
    if (ignoreCase) {
      char first = fold[text.charAt(windowStart)];
      head = minLength > 1 ? first << 16 | fold[text.charAt(windowStart + 1)] : first;
    } else {
      head = headKey(text, windowStart, minLength);
    }
    boolean found = false;
    for (int c = bucketStart[h], last = bucketStart[h + 1]; c < last; c++) {
      if (candHead[c] != head) {
        continue;
      }
      String pattern = candPattern[c];
      int start = pos + 1 - pattern.length();
      if (start >= 0
          && matchesAt(text, start, pattern)
          && terms.acceptsBoundaries(text, start, pos + 1)) {
        if (sink == null) {
          return true;
        }
        sink.onMatch(candTerm[c], start, pos + 1);
        found = true;
      }
    }
    return found;
  }

  private boolean matchesAt(String text, int start, String pattern) {
    if (!ignoreCase) {
      return text.startsWith(pattern, start);
    }
    for (int i = 0; i < pattern.length(); i++) {
      if (fold[text.charAt(start + i)] != pattern.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
