package dev.burnbox.matcher;

import java.util.Arrays;

/**
 * Aho-Corasick over compressed character classes, with precomputed transitions: one table lookup
 * per text character on the hot path, no failure links followed while scanning.
 *
 * <h2>Layout</h2>
 *
 * <ul>
 *   <li><b>Class map</b>: a {@code char[65536]} (128 KiB) from each text unit to a class id. Each
 *       distinct {@code char} of the patterns gets its own class, numbered in {@code char} order;
 *       every other unit is class 0. Case folding is folded into the map ({@code class[c] = class
 *       of foldChar(c)}), so the loop has no fold step. A flat table, not a two-level one, because
 *       a second dependent load per character costs more than the 128 KiB.
 *   <li><b>Dense states</b>: the first states in breadth-first order (the shallow ones, where the
 *       scan spends most of its time) get a full row in {@code int[] delta}, indexed by
 *       pre-multiplied state codes, so a step is {@code s = delta[s + class[c]]}.
 *   <li><b>Sparse states</b>: when all rows would exceed {@link #DEFAULT_MAX_DENSE_ENTRIES}, the
 *       deeper states get no row. A sparse state keeps only the few entries where its DFA row
 *       differs from the row of its nearest dense failure ancestor (its own children plus those
 *       inherited from sparse states on its failure chain), sorted by class; any other class falls
 *       back to that dense row. Still exactly one DFA step per character, never a failure chain.
 *   <li><b>Codes</b>: dense states without output get codes {@code [0, outLimit)}, dense states with
 *       output {@code [outLimit, denseEnd)} (both multiples of the class count), sparse states
 *       {@code denseEnd + i}. So the hot loop tests {@code s >= outLimit} once per character and only
 *       then looks closer.
 *   <li><b>Outputs</b>: per state with output, its pattern and every pattern on its
 *       dictionary-suffix chain, flattened in CSR arrays, longest first, so that occurrences come
 *       out by end, then start, with no buffering.
 * </ul>
 *
 * <h2>Costs</h2>
 *
 * <p>Scanning is O(n + z) for n characters and z occurrences, allocation-free. Building is
 * O(P log P + total pattern length + dense states x classes). Memory: 128 KiB class map, at most
 * 4 x {@link #DEFAULT_MAX_DENSE_ENTRIES} bytes of dense rows, about 16 bytes per sparse state plus 8
 * per difference entry, and 8 bytes per output entry; {@link #tableBytes()} sums the arrays.
 *
 * <p>Limits: the codes are {@code int}s, so dense rows are capped well below 2^31 entries by
 * construction. Immutable and thread-safe.
 */
final class AhoCorasickMatcher implements TermMatcher {
  /** Dense-row budget, in {@code int} entries (4 bytes each): 2 MiB. */
  static final int DEFAULT_MAX_DENSE_ENTRIES = 1 << 19;

  private final TermSet terms;
  private final char[] classOf;
  private final int classCount;
  /** ceil(2^32 / classCount): turns the division by the class count into a multiplication. */
  private final long classReciprocal;
  private final int[] delta;
  private final int outLimit;
  private final int denseEnd;
  private final int denseWithOutput;

  // Sparse state i: difference entries sparseStart[i] .. sparseStart[i + 1] - 1, then the fallback.
  private final int[] sparseStart;
  private final char[] sparseClass;
  private final int[] sparseTarget;
  private final int[] sparseFallback;

  // Output slot k (dense-with-output states first, then every sparse state): entries
  // outStart[k] .. outStart[k + 1] - 1, longest first.
  private final int[] outStart;
  private final int[] outTerm;
  private final int[] outLength;

  AhoCorasickMatcher(TermSet terms) {
    this(terms, DEFAULT_MAX_DENSE_ENTRIES);
  }

  /** Compiles with a dense-row budget of {@code maxDenseEntries} table entries (tests lower it). */
  AhoCorasickMatcher(TermSet terms, int maxDenseEntries) {
    this.terms = terms;
    PatternTrie trie = new PatternTrie(terms);
    int nodes = trie.nodeCount;

    // Character classes, in char order so that sorted children have sorted classes.
    boolean[] used = new boolean[Character.MAX_VALUE + 1];
    for (int n = 1; n < nodes; n++) {
      used[trie.label[n]] = true;
    }
    char[] classOfPatternChar = new char[Character.MAX_VALUE + 1];
    int classes = 1;
    for (int c = 0; c <= Character.MAX_VALUE; c++) {
      if (used[c]) {
        classOfPatternChar[c] = (char) classes++;
      }
    }
    this.classCount = classes;
    this.classReciprocal = ((1L << 32) + classes - 1) / classes;
    this.classOf = new char[Character.MAX_VALUE + 1];
    char[] fold = terms.options().ignoreCase() ? CaseFolding.charFoldTable() : null;
    for (int c = 0; c <= Character.MAX_VALUE; c++) {
      classOf[c] = classOfPatternChar[fold == null ? c : fold[c]];
    }

    // Failure links and dictionary-suffix links, in breadth-first order.
    int[] fail = new int[nodes];
    int[] dict = new int[nodes];
    int[] outputs = new int[nodes];
    for (int n = 0; n < nodes; n++) {
      int first = trie.firstChild[n];
      for (int child = first; child < first + trie.childCount[n]; child++) {
        int f = 0;
        if (n != 0) {
          int g = fail[n];
          while (true) {
            f = trie.child(g, trie.label[child]);
            if (f >= 0 || g == 0) {
              break;
            }
            g = fail[g];
          }
          f = Math.max(f, 0);
        }
        fail[child] = f;
        dict[child] = trie.pattern[f] >= 0 ? f : dict[f];
        outputs[child] = (trie.pattern[child] >= 0 ? 1 : 0) + outputs[f];
      }
    }

    // Codes: dense states are a breadth-first prefix, so failure targets of dense states are dense.
    int dense = Math.max(1, Math.min(nodes, maxDenseEntries / classes));
    int densePlain = 0;
    for (int n = 0; n < dense; n++) {
      densePlain += outputs[n] == 0 ? 1 : 0;
    }
    this.denseWithOutput = dense - densePlain;
    this.outLimit = densePlain * classes;
    this.denseEnd = dense * classes;
    int[] code = new int[nodes];
    int[] slot = new int[nodes]; // output slot of each state with outputs, or -1
    int nextPlain = 0;
    int nextOutput = densePlain;
    for (int n = 0; n < nodes; n++) {
      if (n >= dense) {
        code[n] = denseEnd + (n - dense);
        slot[n] = denseWithOutput + (n - dense);
      } else if (outputs[n] == 0) {
        code[n] = nextPlain++ * classes;
        slot[n] = -1;
      } else {
        slot[n] = nextOutput - densePlain;
        code[n] = nextOutput++ * classes;
      }
    }

    // Dense rows: children, else the failure state's row (already filled: it is shallower).
    this.delta = new int[denseEnd];
    for (int n = 0; n < dense; n++) {
      int row = code[n];
      if (n != 0) {
        System.arraycopy(delta, code[fail[n]], delta, row, classes);
      }
      int first = trie.firstChild[n];
      for (int child = first; child < first + trie.childCount[n]; child++) {
        delta[row + classOfPatternChar[trie.label[child]]] = code[child];
      }
    }

    // Sparse states: the difference from the nearest dense failure ancestor's row.
    int sparse = nodes - dense;
    this.sparseStart = new int[sparse + 1];
    this.sparseFallback = new int[sparse];
    char[] diffClass = new char[Math.max(16, sparse * 2)];
    int[] diffTarget = new int[diffClass.length];
    int size = 0;
    for (int i = 0; i < sparse; i++) {
      int n = dense + i;
      int f = fail[n];
      sparseStart[i] = size;
      int inheritedFrom = size;
      int inheritedTo = size;
      if (f < dense) {
        sparseFallback[i] = code[f];
      } else {
        sparseFallback[i] = sparseFallback[f - dense];
        inheritedFrom = sparseStart[f - dense];
        inheritedTo = sparseStart[f - dense + 1];
      }
      int first = trie.firstChild[n];
      int last = first + trie.childCount[n];
      int need = size + (inheritedTo - inheritedFrom) + (last - first);
      if (need > diffClass.length) {
        diffClass = Arrays.copyOf(diffClass, Math.max(need, diffClass.length * 2));
        diffTarget = Arrays.copyOf(diffTarget, diffClass.length);
      }
      // Merge two class-sorted lists; the state's own children win.
      int a = inheritedFrom;
      int child = first;
      while (a < inheritedTo || child < last) {
        char childClass = child < last ? classOfPatternChar[trie.label[child]] : Character.MAX_VALUE;
        char inherited = a < inheritedTo ? diffClass[a] : Character.MAX_VALUE;
        if (child < last && childClass <= inherited) {
          diffClass[size] = childClass;
          diffTarget[size++] = code[child];
          child++;
          if (childClass == inherited) {
            a++;
          }
        } else {
          diffClass[size] = inherited;
          diffTarget[size++] = diffTarget[a++];
        }
      }
    }
    sparseStart[sparse] = size;
    this.sparseClass = Arrays.copyOf(diffClass, size);
    this.sparseTarget = Arrays.copyOf(diffTarget, size);

    // Outputs, longest first: the state's own pattern, then its dictionary-suffix chain.
    int slots = denseWithOutput + sparse;
    this.outStart = new int[slots + 1];
    int total = 0;
    for (int n = 0; n < nodes; n++) {
      total += outputs[n];
    }
    this.outTerm = new int[total];
    this.outLength = new int[total];
    int[] perSlot = new int[slots];
    int[] stateOfSlot = new int[slots];
    for (int n = 0; n < nodes; n++) {
      if (slot[n] >= 0) {
        perSlot[slot[n]] = outputs[n];
        stateOfSlot[slot[n]] = n;
      }
    }
    int at = 0;
    for (int k = 0; k < slots; k++) {
      outStart[k] = at;
      int n = stateOfSlot[k];
      for (int x = trie.pattern[n] >= 0 ? n : dict[n]; perSlot[k] > 0 && x != 0; x = dict[x]) {
        outTerm[at] = terms.termOfPattern(trie.pattern[x]);
        outLength[at++] = trie.depth[x];
      }
    }
    outStart[slots] = at;
  }

  @Override
  public MatcherKind kind() {
    return MatcherKind.AHO_CORASICK;
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

  /**
   * Runs the automaton over {@code text}. With a null {@code sink}, stops at the first accepted
   * occurrence; otherwise reports every accepted one, in order.
   *
   * <p>The outer loop is the dense fast path: one class lookup, one row lookup and one comparison
   * per character. Codes at or above {@code outLimit} (dense states with output, sparse states) drop
   * into the inner loop, which reports outputs and steps through sparse states until the automaton
   * is back on a dense state.
   *
   * @return whether an occurrence was accepted
   */
  private boolean scan(String text, MatchSink sink) {
    final char[] classOf = this.classOf;
    final int[] delta = this.delta;
    final int outLimit = this.outLimit;
    final int denseEnd = this.denseEnd;
    final int n = text.length();
    boolean found = false;
    int s = 0;
    int i = 0;
    while (i < n) {
      s = delta[s + classOf[text.charAt(i++)]];
      while (s >= outLimit) {
        if (report(text, i, slotOf(s), sink)) {
          if (sink == null) {
            return true;
          }
          found = true;
        }
        if (s < denseEnd || i == n) {
          break;
        }
        s = sparseStep(s - denseEnd, classOf[text.charAt(i++)]);
      }
    }
    return found;
  }

  /** The output slot of code {@code s}, which is at least {@code outLimit}. */
  private int slotOf(int s) {
    if (s >= denseEnd) {
      return denseWithOutput + (s - denseEnd);
    }
    // (s - outLimit) / classCount, exactly, for multiples of classCount below 2^31
    return (int) (((long) (s - outLimit) * classReciprocal) >>> 32);
  }

  /**
   * Reports the outputs of {@code slot} that end at {@code end} and pass the boundary check; with a
   * null {@code sink}, stops at the first.
   *
   * @return whether any was accepted
   */
  private boolean report(String text, int end, int slot, MatchSink sink) {
    boolean accepted = false;
    for (int k = outStart[slot], last = outStart[slot + 1]; k < last; k++) {
      int start = end - outLength[k];
      if (terms.acceptsBoundaries(text, start, end)) {
        if (sink == null) {
          return true;
        }
        accepted = true;
        sink.onMatch(outTerm[k], start, end);
      }
    }
    return accepted;
  }

  /** The DFA step from sparse state {@code i} on class {@code c}. */
  private int sparseStep(int i, int c) {
    for (int k = sparseStart[i], last = sparseStart[i + 1]; k < last; k++) {
      if (sparseClass[k] == c) {
        return sparseTarget[k];
      }
    }
    return delta[sparseFallback[i] + c];
  }

  /** Bytes held by this matcher's tables (array payloads plus 16-byte headers). */
  long tableBytes() {
    return arrayBytes(classOf.length, 2)
        + arrayBytes(delta.length, 4)
        + arrayBytes(sparseStart.length, 4)
        + arrayBytes(sparseClass.length, 2)
        + arrayBytes(sparseTarget.length, 4)
        + arrayBytes(sparseFallback.length, 4)
        + arrayBytes(outStart.length, 4)
        + arrayBytes(outTerm.length, 4)
        + arrayBytes(outLength.length, 4);
  }

  /** Number of states with a dense row, and in all; for tests and the numbers in the Javadoc. */
  int denseStates() {
    return denseEnd / classCount;
  }

  int states() {
    return denseStates() + sparseFallback.length;
  }

  private static long arrayBytes(int length, int elementBytes) {
    return 16 + (long) length * elementBytes;
  }
}
