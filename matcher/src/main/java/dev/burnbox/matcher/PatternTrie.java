package dev.burnbox.matcher;

import java.util.Arrays;

/**
 * The scan patterns of a {@link TermSet} as an array-based trie: the shared first step of {@link
 * TrieMatcher} and {@link AhoCorasickMatcher}.
 *
 * <p>Nodes are numbered in breadth-first order (so by depth), the root is node 0, and the children
 * of a node have consecutive numbers sorted by their edge label, so a node's children are the range
 * {@code firstChild[n] .. firstChild[n] + childCount[n] - 1} and can be binary-searched. No boxed
 * maps: five parallel arrays of one entry per node (18 bytes a node).
 *
 * <p>Built by sorting the patterns and splitting sorted ranges by their {@code char} at each depth:
 * O(P log P) comparisons for P patterns plus O(total pattern length). If two patterns are equal
 * (the contract says a span matches at most one term, so this is not expected) the lower index
 * wins.
 *
 * <p>Immutable after construction; fields are exposed to the matchers of this package, which must
 * not modify them.
 */
final class PatternTrie {
  /** Number of nodes, the root included. */
  final int nodeCount;

  /** The {@code char} on the edge into each node (0 for the root). */
  final char[] label;

  /** First child of each node; meaningless when {@code childCount} is 0. */
  final int[] firstChild;

  /** Number of children of each node. */
  final int[] childCount;

  /** The scan pattern that ends at each node, or -1. */
  final int[] pattern;

  /** Depth of each node: the length of the pattern prefix it stands for. */
  final int[] depth;

  PatternTrie(TermSet terms) {
    int count = terms.patternCount();
    String[] patterns = new String[count];
    Integer[] order = new Integer[count];
    int capacity = 1;
    for (int p = 0; p < count; p++) {
      patterns[p] = terms.pattern(p);
      order[p] = p;
      capacity += patterns[p].length();
    }
    // Stable: among equal patterns the lower index comes first.
    Arrays.sort(order, (a, b) -> patterns[a].compareTo(patterns[b]));

    char[] labels = new char[capacity];
    int[] first = new int[capacity];
    int[] children = new int[capacity];
    int[] ends = new int[capacity];
    int[] depths = new int[capacity];
    // Each node owns the range [lo, hi) of sorted patterns that pass through it.
    int[] lo = new int[capacity];
    int[] hi = new int[capacity];
    hi[0] = count;
    int size = 1;
    for (int node = 0; node < size; node++) {
      int a = lo[node];
      int b = hi[node];
      int d = depths[node];
      ends[node] = -1;
      // Patterns that end here sort before those that go deeper.
      while (a < b && patterns[order[a]].length() == d) {
        if (ends[node] < 0) {
          ends[node] = order[a];
        }
        a++;
      }
      first[node] = size;
      while (a < b) {
        char c = patterns[order[a]].charAt(d);
        int e = a + 1;
        while (e < b && patterns[order[e]].charAt(d) == c) {
          e++;
        }
        labels[size] = c;
        depths[size] = d + 1;
        lo[size] = a;
        hi[size] = e;
        size++;
        a = e;
      }
      children[node] = size - first[node];
    }
    this.nodeCount = size;
    this.label = Arrays.copyOf(labels, size);
    this.firstChild = Arrays.copyOf(first, size);
    this.childCount = Arrays.copyOf(children, size);
    this.pattern = Arrays.copyOf(ends, size);
    this.depth = Arrays.copyOf(depths, size);
  }

  /** The child of {@code node} along {@code c}, or -1 if there is none. */
  int child(int node, char c) {
    return child(label, firstChild, childCount, node, c);
  }

  /**
   * The child of {@code node} along {@code c} in trie arrays laid out as {@link PatternTrie}'s, or
   * -1 if there is none: a bisection over the node's sorted child range. For matchers that keep
   * only the arrays they scan with.
   */
  static int child(char[] label, int[] firstChild, int[] childCount, int node, char c) {
    int a = firstChild[node];
    int b = a + childCount[node] - 1;
    while (a <= b) {
      int mid = (a + b) >>> 1;
      char m = label[mid];
      if (m < c) {
        a = mid + 1;
      } else if (m > c) {
        b = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }
}
