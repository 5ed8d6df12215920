package dev.burnbox.matcher;

import java.util.Arrays;

/**
 * Aho-Corasick with precomputed transitions (a DFA) over compressed character classes: one class
 * lookup and one row lookup per text character, no failure links followed while scanning, and
 * occurrences reported in the contract's order without buffering.
 *
 * <h2>Tables</h2>
 *
 * <ul>
 *   <li><b>Class map</b>: a {@code char[65536]} (128 KiB) from each text unit to a class. Each
 *       distinct {@code char} of the patterns has its own class, in {@code char} order; all other
 *       units are class 0, whose column always leads back to the root. Case folding is folded into
 *       the map ({@code class[c] = class of foldChar(c)}), so the loop has no fold step. Flat
 *       rather than two-level because a second dependent load per character costs more than 128
 *       KiB.
 *   <li><b>Rows</b>, in one of three layouts, chosen by size against a budget of {@link
 *       #DEFAULT_MAX_TABLE_BYTES} (3.5 MiB):
 *       <ol>
 *         <li><em>int rows for every state</em> when they fit (about 1,000 terms or fewer): codes
 *             are pre-multiplied row offsets, a step is {@code s = delta[s + class[c]]}.
 *         <li><em>char rows for every state</em> when int rows do not fit but char rows do (at most
 *             65,536 states): codes are state ids, a step is {@code s = delta[s * classes +
 *             class[c]]}. The multiplication adds a cycle to the dependent chain but halves the
 *             table, which matters more once it outgrows the L2 cache. States are numbered
 *             depth-first so that walking along a term touches neighbouring rows.
 *         <li><em>int rows for a breadth-first prefix of states, sparse states for the rest</em>
 *             when neither fits (the deep states of large, varied sets). A sparse state keeps only
 *             the entries where its DFA row differs from that of its nearest dense failure ancestor
 *             (its children plus those inherited from sparse states on its failure chain; usually
 *             one or two), and falls back to that dense row for every other class: still exactly
 *             one DFA step per character. The dense prefix is sized after reserving 20 bytes a
 *             state for the sparse ones.
 *       </ol>
 *   <li><b>Codes</b> are ordered so that one comparison per character, {@code s >= outLimit},
 *       separates the fast path from everything else: plain dense states first, then dense states
 *       with outputs, then sparse states without and with outputs.
 *   <li><b>Outputs</b>: per state with outputs, one {@code (term, length, next)} triple in one
 *       {@code int[]}: the state's longest output and a link to the next shorter one (the
 *       dictionary-suffix chain). Longest first means start ascending at a fixed end, which is the
 *       contract's order.
 * </ul>
 *
 * <h2>Costs observed</h2>
 *
 * <p>On a 2-core machine shared with other builds, JDK 25, case-insensitive, text of random common
 * English words, thread CPU time, after warm-up (rough: ±15% between runs):
 *
 * <table>
 *   <caption>Measured sizes and speeds</caption>
 *   <tr><th>terms</th><th>states</th><th>layout</th><th>{@link #tableBytes}</th><th>build (warm /
 *       cold)</th><th>scan</th><th>hankcs double-array trie 1.2.3</th><th>calibration loop</th></tr>
 *   <tr><td>1,000 words, 4-20 chars, a match per 177 chars</td><td>5,436</td><td>int rows</td>
 *       <td>730 KB</td><td>2 / 40 ms</td><td>160 Mchar/s</td><td>68 Mchar/s</td>
 *       <td>205 Mchar/s</td></tr>
 *   <tr><td>10,000 words, 4-20 chars, a match per 15 chars</td><td>36,006</td><td>char rows</td>
 *       <td>2.2 MB</td><td>10 / 90 ms</td><td>98 Mchar/s</td><td>63 Mchar/s</td>
 *       <td>215 Mchar/s</td></tr>
 *   <tr><td>10,000 random strings of 4-20 letters, few matches</td><td>98,639</td>
 *       <td>15,715 int rows + sparse</td><td>3.1 MB</td><td>15 / 90 ms</td><td>180 Mchar/s</td>
 *       <td>75 Mchar/s</td><td>207 Mchar/s</td></tr>
 * </table>
 *
 * <p>The calibration loop does one dependent lookup per character in a 256 KiB table. Without
 * reporting, the DFA walk alone over the 10,000-word table runs at about 150 Mchar/s; the rest is
 * the cost of a match every 15 characters (an unpredictable branch, the output walk and the sink
 * call). All int rows for those 36,006 states would take 4.1 MB and scan no faster than the char
 * rows.
 *
 * <h2>Complexity and limits</h2>
 *
 * <p>Scanning is O(n + z) for n characters and z occurrences (each reported candidate also costs a
 * boundary check with whole words) and allocates nothing. Building is O(P log P) for sorting P
 * patterns plus O(total pattern length + 65,536 + dense states x classes). The budget is a target,
 * not a hard cap: if the deep states' difference lists are long (patterns over a large alphabet
 * that share many suffixes), they take more than the 20 bytes a state reserved for them. {@link
 * #tableBytes()} reports the real size.
 *
 * <p>Immutable and thread-safe: all tables are final arrays written only during construction.
 */
final class AhoCorasickMatcher implements TermMatcher {
  /** Budget for the transition tables (rows and sparse states), in bytes: 3.5 MiB. */
  static final int DEFAULT_MAX_TABLE_BYTES = 7 << 19;

  /** What the int layout reserves per state for sparse transitions before sizing dense rows. */
  private static final int SPARSE_STATE_BYTES = 20;

  private final TermSet terms;
  private final char[] classOf;
  private final int classCount;

  /** ceil(2^32 / stride): turns the division by the stride into a multiplication. */
  private final long strideReciprocal;

  /** Rows of {@code int} codes (int layout), or null. */
  private final int[] delta;

  /** Rows of {@code char} state ids (compact layout), or null. */
  private final char[] compactDelta;

  /** Distance between the codes of consecutive dense states: 1 (compact) or the class count. */
  private final int stride;

  /** Codes at or above this are dense states with outputs or sparse states: the slow path. */
  private final int outLimit;

  /** Codes at or above this are sparse states ({@code denseEnd + i}). */
  private final int denseEnd;

  /** Number of dense states with outputs: they take output slots 0 .. denseWithOutput - 1. */
  private final int denseWithOutput;

  /** Sparse codes at or above this have outputs. */
  private final int sparseOutCode;

  // Sparse state with code denseEnd + i: difference entries from sparseStart[i] (inclusive) to
  // sparseStart[i + 1] (exclusive), classes ascending; any other class: the dense row at code
  // sparseFallback[i].
  private final int[] sparseStart;
  private final char[] sparseClass;
  private final int[] sparseTarget;
  private final int[] sparseFallback;

  // Output slot k (dense states with output first, then sparse ones): outs[3k] is the term of the
  // state's longest output, outs[3k + 1] its length, outs[3k + 2] the index in outs of the next
  // shorter output (the dictionary-suffix link), or -1. One array so a hit touches one cache line.
  private final int[] outs;
  private final boolean wholeWords;

  /** The longest pattern, in chars: how far back a match ending at a position can start. */
  private final int maxPatternLength;

  /** Which transition layout to build; tests force each one. */
  enum Layout {
    /** Int rows for every state if they fit the budget, else char rows, else int rows + sparse. */
    AUTO,
    /** Int rows for as many states as the budget allows, sparse states for the rest. */
    INT_ROWS,
    /** Char rows for every state whenever there are at most 65,536 states, budget or not. */
    CHAR_ROWS
  }

  AhoCorasickMatcher(TermSet terms) {
    this(terms, DEFAULT_MAX_TABLE_BYTES, Layout.AUTO);
  }

  /** Compiles with a budget of {@code maxTableBytes} for the transition tables. */
  AhoCorasickMatcher(TermSet terms, int maxTableBytes, Layout layout) {
    this.terms = terms;
    this.wholeWords = terms.options().wholeWords();
    int longest = 0;
    for (int p = 0; p < terms.patternCount(); p++) {
      longest = Math.max(longest, terms.pattern(p).length());
    }
    this.maxPatternLength = longest;
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

    // Layout (see the class Javadoc). Dense states are always a breadth-first prefix, so the
    // failure target of a dense state is dense.
    boolean intRowsFit = (long) nodes * classes * 4 <= maxTableBytes;
    boolean charRowsFit = (long) nodes * classes * 2 <= maxTableBytes;
    boolean compact =
        nodes <= Character.MAX_VALUE + 1
            && switch (layout) {
              case AUTO -> !intRowsFit && charRowsFit;
              case INT_ROWS -> false;
              case CHAR_ROWS -> true;
            };
    long rowBytes = maxTableBytes - (long) SPARSE_STATE_BYTES * nodes;
    int dense =
        compact || intRowsFit ? nodes : (int) Math.max(1, Math.min(nodes, rowBytes / 4 / classes));
    this.stride = compact ? 1 : classes;
    this.strideReciprocal = ((1L << 32) + stride - 1) / stride;
    int densePlain = 0;
    int sparsePlain = 0;
    for (int n = 0; n < nodes; n++) {
      if (outputs[n] == 0) {
        densePlain += n < dense ? 1 : 0;
        sparsePlain += n < dense ? 0 : 1;
      }
    }
    this.denseWithOutput = dense - densePlain;
    this.outLimit = densePlain * stride;
    this.denseEnd = dense * stride;
    this.sparseOutCode = denseEnd + sparsePlain;
    int[] code = new int[nodes];
    int[] row = new int[dense]; // where each dense state's row starts
    int[] slot = new int[nodes]; // output slot of each state with outputs, or -1
    int nextPlain = 0;
    int nextOutput = densePlain;
    int nextSparsePlain = 0;
    int nextSparseOutput = 0;
    int[] order = compact ? depthFirstOrder(trie) : null;
    for (int k = 0; k < nodes; k++) {
      int n = compact ? order[k] : k;
      if (n >= dense && outputs[n] == 0) {
        code[n] = denseEnd + nextSparsePlain++;
        slot[n] = -1;
      } else if (n >= dense) {
        slot[n] = denseWithOutput + nextSparseOutput;
        code[n] = sparseOutCode + nextSparseOutput++;
      } else if (outputs[n] == 0) {
        row[n] = nextPlain * classes;
        code[n] = nextPlain++ * stride;
        slot[n] = -1;
      } else {
        slot[n] = nextOutput - densePlain;
        row[n] = nextOutput * classes;
        code[n] = nextOutput++ * stride;
      }
    }

    // Dense rows: children, else the failure state's row (already filled: it is shallower).
    int[] rows = new int[dense * classes];
    for (int n = 0; n < dense; n++) {
      if (n != 0) {
        System.arraycopy(rows, row[fail[n]], rows, row[n], classes);
      }
      int first = trie.firstChild[n];
      for (int child = first; child < first + trie.childCount[n]; child++) {
        rows[row[n] + classOfPatternChar[trie.label[child]]] = code[child];
      }
    }
    if (compact) {
      this.delta = null;
      this.compactDelta = new char[rows.length];
      for (int k = 0; k < rows.length; k++) {
        compactDelta[k] = (char) rows[k];
      }
    } else {
      this.delta = rows;
      this.compactDelta = null;
    }

    // Sparse states: the difference from the nearest dense failure ancestor's row.
    // Built in breadth-first order (a state inherits from its shallower failure state), then laid
    // out in code order.
    int sparse = nodes - dense;
    int[] bfsStart = new int[sparse + 1];
    int[] bfsFallback = new int[sparse];
    char[] diffClass = new char[Math.max(16, sparse * 2)];
    int[] diffTarget = new int[diffClass.length];
    int size = 0;
    for (int i = 0; i < sparse; i++) {
      int n = dense + i;
      int f = fail[n];
      bfsStart[i] = size;
      int inheritedFrom = size;
      int inheritedTo = size;
      if (f < dense) {
        bfsFallback[i] = code[f];
      } else {
        bfsFallback[i] = bfsFallback[f - dense];
        inheritedFrom = bfsStart[f - dense];
        inheritedTo = bfsStart[f - dense + 1];
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
        char childClass =
            child < last ? classOfPatternChar[trie.label[child]] : Character.MAX_VALUE;
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
    bfsStart[sparse] = size;
    this.sparseStart = new int[sparse + 1];
    this.sparseFallback = new int[sparse];
    this.sparseClass = new char[size];
    this.sparseTarget = new int[size];
    int[] nodeOfSparseCode = new int[sparse];
    for (int n = dense; n < nodes; n++) {
      nodeOfSparseCode[code[n] - denseEnd] = n;
    }
    int laid = 0;
    for (int i = 0; i < sparse; i++) {
      int b = nodeOfSparseCode[i] - dense;
      int length = bfsStart[b + 1] - bfsStart[b];
      sparseStart[i] = laid;
      sparseFallback[i] = bfsFallback[b];
      System.arraycopy(diffClass, bfsStart[b], sparseClass, laid, length);
      System.arraycopy(diffTarget, bfsStart[b], sparseTarget, laid, length);
      laid += length;
    }
    sparseStart[sparse] = laid;

    // Outputs, longest first: the state's own pattern, then its dictionary-suffix chain.
    int slots = denseWithOutput + (sparse - sparsePlain);
    this.outs = new int[slots * 3];
    for (int n = 0; n < nodes; n++) {
      if (slot[n] >= 0) {
        int p = trie.pattern[n] >= 0 ? n : dict[n];
        int k = slot[n] * 3;
        outs[k] = terms.termOfPattern(trie.pattern[p]);
        outs[k + 1] = trie.depth[p];
        outs[k + 2] = dict[p] == 0 ? -1 : slot[dict[p]] * 3;
      }
    }
  }

  /**
   * The trie's nodes in depth-first preorder. Numbering compact rows this way puts a state's row
   * next to its first child's, so walking along a term touches neighbouring cache lines.
   */
  private static int[] depthFirstOrder(PatternTrie trie) {
    int[] order = new int[trie.nodeCount];
    int[] stack = new int[trie.nodeCount];
    int top = 0;
    int size = 0;
    stack[top++] = 0;
    while (top > 0) {
      int n = stack[--top];
      order[size++] = n;
      // push children last-first so the first child is visited next
      for (int child = trie.firstChild[n] + trie.childCount[n] - 1;
          child >= trie.firstChild[n];
          child--) {
        stack[top++] = child;
      }
    }
    return order;
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
   * Counts as {@link TermMatcher#count} says. With int rows for every state and no whole-word check
   * (the spam model's case), a text of at least {@value #SPLIT_AT} chars is walked as two halves
   * side by side: each step of the automaton is a load that usually misses the L1 cache (and the L2
   * when other work evicted the table), and two independent walks let the processor wait for two
   * such loads at once instead of one after the other. The second walk starts {@code
   * maxPatternLength - 1} chars before the middle, without counting there, so that it is in the
   * automaton's true state by the middle (no state is deeper than the longest pattern) and every
   * occurrence is counted once. From {@code 4 x} {@value #SPLIT_AT} chars (and patterns no longer
   * than a quarter of the text) it walks four quarters side by side the same way: on the spam
   * model's 1,900-char mails that saved 2-3 µs of 45-53 on a warm cache and about 3% with the
   * caches emptied before each mail (thread CPU time, 3 alternating rounds, docs/benchmarks.md).
   * The walks note the output states they reach without a branch, and visit them in batches: the
   * spam model's n-grams end at some chars and not at others, and a compare that goes either way
   * every few chars mispredicted; that cut the whole verdict's CPU by 9-19% on a warm cache. Other
   * layouts and whole-word sets count through {@link #scan}.
   */
  @Override
  public void count(String text, TermCounts counts) {
    counts.checkRoomFor(terms);
    int n = text.length();
    if (delta == null || sparseFallback.length > 0 || wholeWords || n < SPLIT_AT) {
      scan(text, (term, start, end) -> counts.add(term));
      return;
    }
    counts.roomForSlots(outs.length / 3);
    if (n >= 4 * SPLIT_AT && maxPatternLength <= n >>> 2) {
      countInFourWalks(text, counts);
    } else {
      countInTwoWalks(text, counts);
    }
    countVisitedOutputs(counts);
  }

  /** {@link #count} as two walks side by side, each over a half of the text. */
  private void countInTwoWalks(String text, TermCounts counts) {
    int n = text.length();
    final char[] classOf = this.classOf;
    final int[] delta = this.delta;
    final int outLimit = this.outLimit;
    int mid = n >>> 1;
    int i = 0; // first walk: [0, mid)
    int j = Math.max(0, mid - Math.max(0, maxPatternLength - 1)); // second walk: counts from mid
    int a = 0;
    int b = 0;
    while (j < mid) {
      b = delta[b + classOf[text.charAt(j++)]];
    }
    int steps = mid; // the first walk's length; the second's is n - mid >= mid
    int[] reached = counts.reachedStates(); // as in countInFourWalks
    int limit = reached.length - 2;
    int p = 0;
    while (i < steps) {
      a = delta[a + classOf[text.charAt(i++)]];
      b = delta[b + classOf[text.charAt(j++)]];
      p = note(reached, p, a, outLimit);
      p = note(reached, p, b, outLimit);
      if (p > limit) {
        countOutputs(reached, p, counts);
        p = 0;
      }
    }
    countOutputs(reached, p, counts);
    while (j < n) {
      b = delta[b + classOf[text.charAt(j++)]];
      if (b >= outLimit) {
        countOutputs(b, counts);
      }
    }
  }

  /**
   * {@link #count} as four walks side by side, each over a quarter of the text; the text has at
   * least {@code 4 x} {@value #SPLIT_AT} chars and no pattern is longer than a quarter of it.
   */
  private void countInFourWalks(String text, TermCounts counts) {
    final char[] classOf = this.classOf;
    final int[] delta = this.delta;
    final int outLimit = this.outLimit;
    int n = text.length();
    int quarter = n >>> 2;
    int lead = Math.max(0, maxPatternLength - 1);
    // each later walk starts lead chars before its quarter, without counting, to be in the
    // automaton's true state at the quarter's first char
    int i = 0;
    int j = quarter - lead;
    int k = 2 * quarter - lead;
    int l = 3 * quarter - lead;
    int a = 0;
    int b = 0;
    int c = 0;
    int d = 0;
    while (j < quarter) {
      b = delta[b + classOf[text.charAt(j++)]];
      c = delta[c + classOf[text.charAt(k++)]];
      d = delta[d + classOf[text.charAt(l++)]];
    }
    // the output states the walks reach, noted without a branch (a compare that went either way
    // every few chars cost a misprediction each) and counted in batches
    int[] reached = counts.reachedStates();
    int limit = reached.length - 4;
    int p = 0;
    while (i < quarter) {
      a = delta[a + classOf[text.charAt(i++)]];
      b = delta[b + classOf[text.charAt(j++)]];
      c = delta[c + classOf[text.charAt(k++)]];
      d = delta[d + classOf[text.charAt(l++)]];
      p = note(reached, p, a, outLimit);
      p = note(reached, p, b, outLimit);
      p = note(reached, p, c, outLimit);
      p = note(reached, p, d, outLimit);
      if (p > limit) {
        countOutputs(reached, p, counts);
        p = 0;
      }
    }
    countOutputs(reached, p, counts);
    while (l < n) {
      d = delta[d + classOf[text.charAt(l++)]];
      if (d >= outLimit) {
        countOutputs(d, counts);
      }
    }
  }

  /**
   * Texts shorter than this are counted in one walk: two walks pay off from a few hundred chars.
   */
  static final int SPLIT_AT = 256;

  /**
   * Notes a visit of dense state {@code s} (at least {@code outLimit}), whose outputs {@link
   * #countVisitedOutputs} counts after the walk: once per distinct state, times its visits, rather
   * than along its output chain at every visit. A state's terms then enter {@code counts} at its
   * first visit's turn, so the order of first occurrences is the same.
   */
  private void countOutputs(int s, TermCounts counts) {
    counts.visit(slotOf(s));
  }

  /**
   * Writes state {@code s} at {@code reached[p]} and returns where the next state goes: {@code p +
   * 1} if {@code s} has outputs (at least {@code outLimit}), else {@code p}, so that only output
   * states stay. Without a branch: codes are non-negative ints, so {@code outLimit - 1 - s} is
   * negative exactly when {@code s >= outLimit}.
   */
  private static int note(int[] reached, int p, int s, int outLimit) {
    reached[p] = s;
    return p + ((outLimit - 1 - s) >>> 31);
  }

  /** {@link #countOutputs(int, TermCounts)} for the first {@code n} states of {@code states}. */
  private void countOutputs(int[] states, int n, TermCounts counts) {
    for (int i = 0; i < n; i++) {
      counts.visit(slotOf(states[i]));
    }
  }

  /**
   * Counts every output of the states {@link #countOutputs} noted, as often as each was visited.
   */
  private void countVisitedOutputs(TermCounts counts) {
    final int[] outs = this.outs;
    for (int i = 0; i < counts.visitedSlots(); i++) {
      int slot = counts.visitedSlot(i);
      int times = counts.visits(slot);
      for (int k = slot * 3; k >= 0; k = outs[k + 2]) {
        counts.add(outs[k], times);
      }
    }
    counts.clearVisits();
  }

  /**
   * Runs the automaton over {@code text}. With a null {@code sink}, stops at the first accepted
   * occurrence; otherwise reports every accepted one, in order.
   *
   * <p>The outer loop is the dense fast path: one class lookup, one row lookup and one comparison
   * per character. Codes at or above {@code outLimit} (dense states with output, sparse states)
   * drop into the inner loop, which reports outputs and steps through sparse states until the
   * automaton is back on a dense state.
   *
   * @return whether an occurrence was accepted
   */
  private boolean scan(String text, MatchSink sink) {
    if (compactDelta != null) {
      return scanCompact(text, sink);
    }
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
        int slot = slotOf(s);
        if (slot >= 0 && report(text, i, slot, sink)) {
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

  /** The output slot of code {@code s}, which is at least {@code outLimit}, or -1 if none. */
  private int slotOf(int s) {
    if (s >= denseEnd) {
      return s >= sparseOutCode ? denseWithOutput + (s - sparseOutCode) : -1;
    }
    // (s - outLimit) / stride, exactly, for multiples of stride below 2^31
    return (int) (((long) (s - outLimit) * strideReciprocal) >>> 32);
  }

  /** {@link #scan} for the compact layout: every state is dense, codes are state ids. */
  private boolean scanCompact(String text, MatchSink sink) {
    final char[] classOf = this.classOf;
    final char[] delta = this.compactDelta;
    final int classes = this.classCount;
    final int outLimit = this.outLimit;
    final int n = text.length();
    boolean found = false;
    int s = 0;
    for (int i = 0; i < n; ) {
      s = delta[s * classes + classOf[text.charAt(i++)]];
      if (s >= outLimit && report(text, i, s - outLimit, sink)) {
        if (sink == null) {
          return true;
        }
        found = true;
      }
    }
    return found;
  }

  /**
   * Reports the outputs of {@code slot} that end at {@code end} and pass the boundary check; with a
   * null {@code sink}, stops at the first.
   *
   * @return whether any was accepted
   */
  private boolean report(String text, int end, int slot, MatchSink sink) {
    final int[] outs = this.outs;
    boolean accepted = false;
    for (int k = slot * 3; k >= 0; k = outs[k + 2]) {
      int start = end - outs[k + 1];
      if (!wholeWords || terms.acceptsBoundaries(text, start, end)) {
        if (sink == null) {
          return true;
        }
        accepted = true;
        sink.onMatch(outs[k], start, end);
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
        + (delta == null ? 0 : arrayBytes(delta.length, 4))
        + (compactDelta == null ? 0 : arrayBytes(compactDelta.length, 2))
        + arrayBytes(sparseStart.length, 4)
        + arrayBytes(sparseClass.length, 2)
        + arrayBytes(sparseTarget.length, 4)
        + arrayBytes(sparseFallback.length, 4)
        + arrayBytes(outs.length, 4);
  }

  /** Number of states with a dense row, and in all; for tests and the numbers in the Javadoc. */
  int denseStates() {
    return denseEnd / stride;
  }

  boolean isCompact() {
    return compactDelta != null;
  }

  int states() {
    return denseStates() + sparseFallback.length;
  }

  private static long arrayBytes(int length, int elementBytes) {
    return 16 + (long) length * elementBytes;
  }
}
