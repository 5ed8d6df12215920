package dev.burnbox.matcher;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Set-Horspool (Navarro and Raffinot's multi-pattern Horspool): the project's {@link
 * MatcherKind#BOYER_MOORE} kind.
 *
 * <p>Why Set-Horspool and not Boyer-Moore per term: per-term Boyer-Moore (bad-character plus
 * good-suffix rules) rescans the text once per term, so at the hundreds or thousands of spam terms
 * Burnbox uses it loses to any one-pass algorithm. Set-Horspool keeps Boyer-Moore's idea (compare
 * from the right, skip on a bad character) but makes a single pass for all terms.
 *
 * <p>How it works. All patterns are aligned on their <em>last</em> unit at the window's end {@code
 * pos}. The bad-character table holds, for the unit at {@code pos}, the distance to the nearest
 * position in the last {@code lmin} units of any pattern (lmin is the shortest pattern's length)
 * where that unit occurs, so {@code pos} jumps by up to lmin units. When the unit can end a
 * pattern, a trie of the reversed patterns is walked backwards from {@code pos}; every pattern met
 * on the walk ends at {@code pos}. Ends only grow, and the walk is replayed from the deepest
 * (longest, earliest-starting) pattern up to the root, so occurrences come out in the contract's
 * order with no buffer.
 *
 * <p>The shift tables have 256 one-byte entries indexed by the <em>raw</em> text unit's low 8 bits;
 * each entry is the minimum over every unit that maps to it (and, when ignoring case, over every
 * unit whose folding is a pattern unit), so the skip loop never folds and non-Latin text only loses
 * some shift length. Before a trie walk, a 2 KiB bit set of the patterns' last two units (raw, with
 * ASCII capitals merged) rules out most windows; only trie walks fold.
 *
 * <p>Cost: O(n / lmin) at best, O(n * lmax) at worst ({@code "aaaa..."} against {@code "a..a"}
 * terms). The skip length shrinks fast as sets grow: once the terms' last lmin units cover most
 * letters, shifts fall to 1-2. Measured on English prose with few hits (lmin = 5, JDK 25, short
 * noisy runs): ~2.2x the time of a loop doing one dependent table lookup per char at 10 terms,
 * ~4.5x at 100. Use {@link MatcherKind#WU_MANBER}, which skips on blocks of units, for real spam
 * lists. Memory: two 256-byte tables, the 2 KiB pair set, about 13 bytes per trie node (at most the
 * total pattern length). Scans without occurrences allocate nothing; occurrences go straight to the
 * sink.
 *
 * <p>Immutable and thread-safe after construction.
 */
final class SetHorspoolMatcher implements TermMatcher {
  private static final int TABLE_MASK = 0xFF;
  private static final int MAX_SHIFT = Byte.MAX_VALUE;
  private static final int PAIR_MASK = (1 << 14) - 1;

  private final TermSet terms;
  private final boolean ignoreCase;
  private final char[] fold;
  private final int minLength;
  private final int maxLength;

  /** Shift for the unit at the window's end; 0 if it may end a pattern (then walk the trie). */
  private final byte[] skip;

  /** Shift after a trie walk: like {@link #skip} but ignoring patterns' last units. */
  private final byte[] shiftAfterWalk;

  /** The shift for units in no pattern's last lmin units: lmin, capped at 127. */
  private final int longestShift;

  /**
   * Bits by {@link #pairIndex} of the last two units of every pattern (all set if a pattern has one
   * unit): a trie walk starts only if the pair ending the window is set.
   */
  private final long[] pairEnds = new long[(PAIR_MASK + 1) / 64];

  /** 0x20 when ignoring case, so that ASCII capitals share small letters' pair bits; else 0. */
  private final int caseBit;

  // The trie of reversed patterns, children sorted by unit: node v's edges are
  // [childStart[v], childStart[v + 1]) in childUnit / childNode.
  private final int[] childStart;
  private final char[] childUnit;
  private final int[] childNode;

  /** Depth of each node: the length of the pattern ending there, if any. */
  private final int[] depth;

  /** The term whose pattern ends at each node, or -1. */
  private final int[] nodeTerm;

  /** The nearest proper ancestor with a pattern, or -1. */
  private final int[] termAncestor;

  SetHorspoolMatcher(TermSet terms) {
    this.terms = terms;
    this.ignoreCase = terms.options().ignoreCase();
    this.fold = CaseFolding.charFoldTable();
    this.minLength = terms.minPatternLength();
    this.maxLength = terms.maxPatternLength();
    this.skip = shiftTable(terms, 0);
    this.shiftAfterWalk = shiftTable(terms, 1);
    this.longestShift = Math.min(minLength, MAX_SHIFT);
    this.caseBit = ignoreCase ? 0x20 : 0;
    for (int p = 0; p < terms.patternCount(); p++) {
      String pattern = terms.pattern(p);
      int len = pattern.length();
      if (len == 1) {
        Arrays.fill(pairEnds, -1L);
        break;
      }
      for (char prev : FoldPreimages.of(pattern.charAt(len - 2), ignoreCase)) {
        for (char last : FoldPreimages.of(pattern.charAt(len - 1), ignoreCase)) {
          int bit = pairIndex(prev, last, caseBit);
          pairEnds[bit >>> 6] |= 1L << bit;
        }
      }
    }

    // Build the reversed trie with a map, then freeze it into sorted arrays.
    List<Map<Character, Integer>> edges = new ArrayList<>();
    List<Integer> depths = new ArrayList<>();
    List<Integer> ends = new ArrayList<>();
    edges.add(new HashMap<>());
    depths.add(0);
    ends.add(-1);
    for (int p = 0; p < terms.patternCount(); p++) {
      String pattern = terms.pattern(p);
      int node = 0;
      for (int i = pattern.length() - 1; i >= 0; i--) {
        Integer next = edges.get(node).get(pattern.charAt(i));
        if (next == null) {
          next = edges.size();
          edges.get(node).put(pattern.charAt(i), next);
          edges.add(new HashMap<>());
          depths.add(depths.get(node) + 1);
          ends.add(-1);
        }
        node = next;
      }
      if (ends.get(node) < 0) {
        ends.set(node, terms.termOfPattern(p));
      }
    }
    int nodes = edges.size();
    this.childStart = new int[nodes + 1];
    this.childUnit = new char[nodes - 1];
    this.childNode = new int[nodes - 1];
    this.depth = new int[nodes];
    this.nodeTerm = new int[nodes];
    this.termAncestor = new int[nodes];
    int edge = 0;
    for (int v = 0; v < nodes; v++) {
      childStart[v] = edge;
      depth[v] = depths.get(v);
      nodeTerm[v] = ends.get(v);
      List<Character> units = new ArrayList<>(edges.get(v).keySet());
      units.sort(null);
      for (char u : units) {
        childUnit[edge] = u;
        childNode[edge] = edges.get(v).get(u);
        edge++;
      }
    }
    childStart[nodes] = edge;
    // Children are numbered after their parents, so one forward pass fills termAncestor.
    termAncestor[0] = -1;
    for (int v = 0; v < nodes; v++) {
      int inherited = nodeTerm[v] >= 0 ? v : termAncestor[v];
      for (int e = childStart[v]; e < childStart[v + 1]; e++) {
        termAncestor[childNode[e]] = inherited;
      }
    }
  }

  /**
   * The raw-unit shift table: for each entry, the smallest distance {@code d >= minDistance} from
   * the end of a pattern's last lmin units at which a unit mapping to the entry occurs; lmin if
   * none (capped at 127).
   */
  private static byte[] shiftTable(TermSet terms, int minDistance) {
    int lmin = Math.min(terms.minPatternLength(), MAX_SHIFT);
    int[] byFoldedUnit = new int[Character.MAX_VALUE + 1];
    Arrays.fill(byFoldedUnit, lmin);
    for (int p = 0; p < terms.patternCount(); p++) {
      String pattern = terms.pattern(p);
      for (int d = minDistance; d < lmin; d++) {
        char u = pattern.charAt(pattern.length() - 1 - d);
        byFoldedUnit[u] = Math.min(byFoldedUnit[u], d);
      }
    }
    boolean ignoreCase = terms.options().ignoreCase();
    char[] fold = CaseFolding.charFoldTable();
    byte[] table = new byte[TABLE_MASK + 1];
    Arrays.fill(table, (byte) lmin);
    for (int u = 0; u <= Character.MAX_VALUE; u++) {
      int d = byFoldedUnit[ignoreCase ? fold[u] : u];
      if (d < table[u & TABLE_MASK]) {
        table[u & TABLE_MASK] = (byte) d;
      }
    }
    return table;
  }

  @Override
  public MatcherKind kind() {
    return MatcherKind.BOYER_MOORE;
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
    boolean found = false;
    int n = text.length();
    int pos = minLength - 1;
    byte[] skip = this.skip;
    int longest = this.longestShift;
    while (pos < n) {
      char c = text.charAt(pos);
      int entry = c & TABLE_MASK;
      int shift = skip[entry];
      if (shift == longest) {
        // A constant step the CPU predicts and runs ahead on; "pos += shift" would make each
        // window wait for the previous table load.
        pos += longest;
        continue;
      }
      if (shift == 0) {
        if ((pos == 0 || mayEndPattern(text.charAt(pos - 1), c)) && walk(text, pos, sink)) {
          if (sink == null) {
            return true;
          }
          found = true;
        }
        shift = shiftAfterWalk[entry];
      }
      pos += shift;
    }
    return found;
  }

  /** The pair filter: false if no pattern ends with units folding to {@code prev, last}. */
  private boolean mayEndPattern(char prev, char last) {
    int bit = pairIndex(prev, last, caseBit);
    return (pairEnds[bit >>> 6] & 1L << bit) != 0;
  }

  private static int pairIndex(char prev, char last, int caseBit) {
    return ((prev | caseBit) << 7 ^ (last | caseBit)) & PAIR_MASK;
  }

  /**
   * Walks the reversed trie back from {@code pos}; reports patterns ending there, longest first.
   */
  private boolean walk(String text, int pos, MatchSink sink) {
    int node = 0;
    int deepest = -1;
    int stop = Math.max(-1, pos - maxLength);
    for (int i = pos; i > stop; i--) {
      char c = text.charAt(i);
      if (ignoreCase) {
        c = fold[c];
      }
      int from = childStart[node];
      int e = Arrays.binarySearch(childUnit, from, childStart[node + 1], c);
      if (e < 0) {
        break;
      }
      node = childNode[e];
      if (nodeTerm[node] >= 0) {
        deepest = node;
      }
    }
    boolean found = false;
    for (int v = deepest; v >= 0; v = termAncestor[v]) {
      int start = pos + 1 - depth[v];
      if (terms.acceptsBoundaries(text, start, pos + 1)) {
        if (sink == null) {
          return true;
        }
        sink.onMatch(nodeTerm[v], start, pos + 1);
        found = true;
      }
    }
    return found;
  }
}
