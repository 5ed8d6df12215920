package dev.burnbox.matcher;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Wu-Manber (1994): skips over the text on blocks of {@code B} units, with SHIFT, HASH and PREFIX
 * tables.
 *
 * <p>How it works. Let {@code m} be the shortest pattern's length. Each pattern takes part in
 * skipping through one <em>anchor</em>: m consecutive units of it (the paper uses the first m; see
 * below). The block of B units ending at the window's end {@code pos} is hashed; {@code SHIFT[h]}
 * is how far the window may move before an anchor could contain that block at its end (at most
 * {@code m - B + 1}). On 0, {@code HASH[h]} lists the candidate patterns whose anchor ends with a
 * block of hash {@code h}; each is checked against the first two units of the window (the PREFIX
 * filter, one {@code int} compare), then unit by unit around the anchor. The window then moves by
 * {@code SHIFT_AFTER_HIT[h]}, the smallest non-zero distance of that block in any anchor, not the
 * paper's 1. Occurrences are found by anchor position, so they are collected in a {@link
 * MatchBuffer} (created at the first one) and sorted.
 *
 * <p>Block size B ({@link #chooseBlock}): Wu and Manber suggest {@code B = log_c(2mk)} for k
 * patterns over c symbols. We use c = 10, about 2 to the conditional entropy of English letters,
 * and keep B within 3 to 4 (at most m): B = 3 up to ~100 terms, 4 from ~1,000 (m = 5).
 *
 * <p>What we measured (JDK 25, 4 KB chunks of English prose with few hits, ~100 spam terms of rare
 * words and two-word phrases, m = 4 or 5; short noisy runs on a shared 2-core machine) against a
 * loop doing one dependent table lookup per char:
 *
 * <ul>
 *   <li>{@code pos += SHIFT[h]} makes each window wait for the previous table load (~18 cycles a
 *       window, about 2.5 calibration steps): even at shift 3 the loop only ties the calibration.
 *       Testing {@code s == longest} first turns the usual case into a constant step the CPU
 *       predicts and runs ahead on; then what costs is each window that does <em>not</em> take the
 *       longest shift (a branch miss). So B is picked for a high share of longest shifts, not for
 *       the longest shift: B = 2 (shift up to 4, but 25-50% of windows shorter) was 2-5x slower
 *       than B = 3 (shift up to 3, ~90% longest) at 100 terms.
 *   <li>Anchors: the paper's choice (first or last m units) puts common trigrams ("ing", "the")
 *       into the tables. Choosing for each pattern the m-unit window whose blocks are rarest in
 *       English ({@link #anchorStart}) cut the time by about a third at 100 terms.
 *   <li>Tables are indexed by an xor-shift hash of <em>raw</em> text units, never folded: when
 *       ignoring case, each anchor block is entered under every combination of units that fold to
 *       its units, and ASCII units are hashed with bit 0x20 set so capitals share small letters'
 *       slots (otherwise the 2^B variants crowd the table and ignoring case costs ~50% more).
 *   <li>Result: ~0.65-0.8x the calibration time at 100 terms (m = 4 or 5, either case mode, on two
 *       corpora: 18th-century prose and software licences); at 1,000 terms, 1.6-2.7x
 *       <em>slower</em> (B = 4, shift at most 2 for m = 5 and 1 for m = 4): two-word phrases and
 *       4-letter words make anchors out of common English blocks, and most windows stop short. Sets
 *       that large need longer shortest terms to skip well.
 * </ul>
 *
 * <p>Cost: O(n / (m - B + 1)) when blocks rarely occur in anchors, O(n * lmax * k) in the
 * degenerate worst case ({@code "aaaa..."} against many {@code "a..a"} terms). Memory: SHIFT and
 * SHIFT_AFTER_HIT are {@code byte[]} of 4-64 KiB (shifts capped at 127), HASH an {@code int[]} of
 * the same length, plus about 16 bytes per (pattern, anchor-end block variant). Scans without
 * occurrences allocate nothing.
 *
 * <p>Immutable and thread-safe after construction.
 */
final class WuManberMatcher implements TermMatcher {
  private static final int MAX_SHIFT = Byte.MAX_VALUE;

  /** English letter frequencies, a to z. */
  private static final double[] LETTER_FREQUENCY = {
    .065, .013, .022, .035, .102, .018, .016, .050, .057, .001, .006, .033, .020, .057, .062, .015,
    .001, .049, .053, .075, .023, .008, .017, .002, .014, .001
  };

  /** Table index bits by block size 1 to 4. */
  private static final int[] HASH_BITS = {12, 14, 15, 16};

  /** Left shift of each block unit (first to last) in the hash, by block size; as in scan. */
  private static final int[][] UNIT_SHIFTS = {{0}, {7, 0}, {10, 5, 0}, {12, 8, 4, 0}};

  private final TermSet terms;
  private final boolean ignoreCase;
  private final char[] fold;
  private final int minLength;
  private final int block;
  private final int mask;

  /** 0x20 when ignoring case, so that ASCII capitals hash like small letters; else 0. */
  private final int caseBit;

  private final byte[] shift;

  /** The largest shift, m - B + 1 (capped at 127): what SHIFT holds for blocks in no anchor. */
  private final int longestShift;

  private final byte[] shiftAfterHit;
  // HASH: the candidates for hash h are [bucketStart[h], bucketStart[h + 1]) in the cand* arrays.
  private final int[] bucketStart;
  private final int[] candHead;

  /**
   * Where the candidate's anchor ends in it: a window ending at pos puts its start at pos - this.
   */
  private final int[] candAnchorEnd;

  private final String[] candPattern;
  private final int[] candTerm;

  WuManberMatcher(TermSet terms) {
    this(terms, chooseBlock(terms.minPatternLength(), terms.patternCount()));
  }

  /** Builds with block size {@code block} (1 to 4, at most the shortest pattern's length). */
  WuManberMatcher(TermSet terms, int block) {
    int m = terms.minPatternLength();
    if (block < 1 || block > 4 || (m > 0 && block > m)) {
      throw new IllegalArgumentException("block " + block + " for shortest pattern " + m);
    }
    this.terms = terms;
    this.ignoreCase = terms.options().ignoreCase();
    this.fold = CaseFolding.charFoldTable();
    this.minLength = m;
    this.block = block;
    this.caseBit = ignoreCase ? 0x20 : 0;
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
    int[] anchorEnd = new int[terms.patternCount()];
    int candidates = 0;
    for (int p = 0; p < terms.patternCount(); p++) {
      String pattern = terms.pattern(p);
      int anchor = anchorStart(pattern, m, block);
      anchorEnd[p] = anchor + m - 1;
      for (int d = 0; d <= m - block; d++) {
        int blockStart = anchor + m - block - d;
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
    this.candAnchorEnd = new int[candidates];
    this.candPattern = new String[candidates];
    this.candTerm = new int[candidates];
    int c = 0;
    for (int h = 0; h < size; h++) {
      bucketStart[h] = c;
      List<Integer> bucket = buckets.get(h);
      for (int i = 0; bucket != null && i < bucket.size(); i++) {
        int p = bucket.get(i);
        String pattern = terms.pattern(p);
        candHead[c] = headKey(pattern, anchorEnd[p] - m + 1, m);
        candAnchorEnd[c] = anchorEnd[p];
        candPattern[c] = pattern;
        candTerm[c] = terms.termOfPattern(p);
        c++;
      }
    }
    bucketStart[size] = c;
  }

  /**
   * Where the anchor of {@code pattern} starts: the window of {@code m} units whose blocks are
   * least likely in mail text, estimated as the sum over its blocks of the product of their units'
   * {@link #textFrequency}. Ties go to the window nearest the pattern's end.
   */
  static int anchorStart(String pattern, int m, int block) {
    int best = pattern.length() - m;
    double bestCost = Double.MAX_VALUE;
    for (int start = pattern.length() - m; start >= 0; start--) {
      double cost = 0;
      for (int b = start; b + block <= start + m; b++) {
        double p = 1;
        for (int i = b; i < b + block; i++) {
          p *= textFrequency(pattern.charAt(i));
        }
        cost += p;
      }
      if (cost < bestCost) {
        best = start;
        bestCost = cost;
      }
    }
    return best;
  }

  /**
   * A rough frequency of a unit in English mail text: letter frequencies for ASCII letters
   * (capitals a tenth of their small letters), 18% for the space, small values for other units.
   */
  static double textFrequency(char c) {
    if (c == ' ') {
      return 0.18;
    }
    if (c >= 'a' && c <= 'z') {
      return LETTER_FREQUENCY[c - 'a'];
    }
    if (c >= 'A' && c <= 'Z') {
      return LETTER_FREQUENCY[c - 'A'] / 10;
    }
    return c < 0x80 ? 0.01 : 0.001;
  }

  /**
   * The block size for a set of {@code patternCount} patterns whose shortest has {@code minLength}
   * units: Wu and Manber's {@code ceil(log_c(2 * m * k))} with c = 10, kept within 3 to 4 and at
   * most {@code m}.
   */
  static int chooseBlock(int minLength, int patternCount) {
    if (minLength <= 2) {
      return Math.max(1, minLength);
    }
    double ideal = Math.log10(2.0 * minLength * Math.max(1, patternCount));
    int b = Math.max(3, Math.min(4, (int) Math.ceil(ideal - 1e-9)));
    return Math.min(b, minLength);
  }

  /** The block size this matcher was built with. */
  int block() {
    return block;
  }

  /**
   * The distinct table indices the scan may compute for the block at {@code from} of a pattern: one
   * per combination of units folding to the block's units (few, as ASCII capitals hash alike).
   */
  private int[] blockHashes(String pattern, int from) {
    int[] hashes = {0};
    int[] unitShifts = UNIT_SHIFTS[block - 1];
    for (int i = 0; i < block; i++) {
      char[] units = FoldPreimages.of(pattern.charAt(from + i), ignoreCase);
      int[] next = new int[hashes.length * units.length];
      int k = 0;
      for (int h : hashes) {
        for (char u : units) {
          next[k++] = h ^ (u | caseBit) << unitShifts[i];
        }
      }
      hashes = next;
    }
    return Arrays.stream(hashes).map(h -> h & mask).distinct().toArray();
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
    return scan(text, true) != null;
  }

  @Override
  public void forEachMatch(String text, MatchSink sink) {
    MatchBuffer found = scan(text, false);
    if (found != null) {
      found.emitSorted(sink);
    }
  }

  /**
   * The occurrences in {@code text}, or null if there are none; with {@code firstOnly}, stops at
   * the first window that has one.
   */
  private MatchBuffer scan(String text, boolean firstOnly) {
    if (minLength == 0) {
      return null;
    }
    // Locals, not fields: the verify call would otherwise force reloads on every window.
    byte[] shift = this.shift;
    int mask = this.mask;
    int caseBit = this.caseBit;
    int block = this.block;
    int longest = this.longestShift;
    MatchBuffer found = null;
    int n = text.length();
    int pos = minLength - 1;
    while (pos < n) {
      // The block hash, written out per block size (UNIT_SHIFTS holds the same shifts).
      int h;
      if (block == 3) {
        h =
            ((text.charAt(pos - 2) | caseBit) << 10
                    ^ (text.charAt(pos - 1) | caseBit) << 5
                    ^ (text.charAt(pos) | caseBit))
                & mask;
      } else if (block == 4) {
        h =
            ((text.charAt(pos - 3) | caseBit) << 12
                    ^ (text.charAt(pos - 2) | caseBit) << 8
                    ^ (text.charAt(pos - 1) | caseBit) << 4
                    ^ (text.charAt(pos) | caseBit))
                & mask;
      } else if (block == 2) {
        h = ((text.charAt(pos - 1) | caseBit) << 7 ^ (text.charAt(pos) | caseBit)) & mask;
      } else {
        h = (text.charAt(pos) | caseBit) & mask;
      }
      int s = shift[h];
      if (s == longest) {
        // A constant step: the CPU predicts this branch and runs ahead without waiting for the
        // table load, where "pos += s" would make every window wait for the previous one.
        pos += longest;
        continue;
      }
      if (s == 0) {
        found = verify(text, pos, h, found);
        if (firstOnly && found != null) {
          return found;
        }
        s = shiftAfterHit[h];
      }
      pos += s;
    }
    return found;
  }

  /**
   * Checks the candidates of hash {@code h} against the window ending at {@code pos}; adds
   * occurrences to {@code found}, creating it on the first, and returns it.
   */
  private MatchBuffer verify(String text, int pos, int h, MatchBuffer found) {
    int windowStart = pos - minLength + 1;
    int head;
    if (ignoreCase) {
      char first = fold[text.charAt(windowStart)];
      head = minLength > 1 ? first << 16 | fold[text.charAt(windowStart + 1)] : first;
    } else {
      head = headKey(text, windowStart, minLength);
    }
    for (int c = bucketStart[h], last = bucketStart[h + 1]; c < last; c++) {
      if (candHead[c] != head) {
        continue;
      }
      String pattern = candPattern[c];
      int start = pos - candAnchorEnd[c];
      int end = start + pattern.length();
      if (start >= 0
          && end <= text.length()
          && matchesAt(text, start, pattern)
          && terms.acceptsBoundaries(text, start, end)) {
        if (found == null) {
          found = new MatchBuffer();
        }
        found.add(candTerm[c], start, end);
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
