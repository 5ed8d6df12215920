package dev.burnbox.matcher;

import java.util.Arrays;

/**
 * How often each term of a {@link TermSet} occurred in the texts counted into it with {@link
 * TermMatcher#count}, and which terms occurred at all, in the order they were first counted: what
 * scoring a text by its terms needs, without an object per occurrence.
 *
 * <p>Reusable: {@link #clear()} costs O(distinct terms counted), not O(terms). Memory: two {@code
 * int}s per term of the set it was made for, and two per output state of the largest {@link
 * AhoCorasickMatcher} that counted into it, with 1 KiB of scratch for such a matcher. Not
 * thread-safe: one per scan at a time.
 */
public final class TermCounts {
  private final int[] counts;
  private final int[] found;
  private int size;

  // visits of an automaton's output states during one count, turned into term counts after the
  // walk (AhoCorasickMatcher); empty until a matcher needs them
  private int[] slotVisits = new int[0];
  private int[] visitedSlots = new int[0];
  private int visited;
  private int[] reachedStates; // a matcher's scratch: states reached, before they are visited

  /** Counts for a set of {@code terms} terms (term ids 0 to {@code terms - 1}), all zero. */
  public TermCounts(int terms) {
    this.counts = new int[terms];
    this.found = new int[terms];
  }

  /**
   * @throws IllegalArgumentException if this has room for fewer term ids than {@code set} has terms
   */
  void checkRoomFor(TermSet set) {
    if (counts.length < set.size()) {
      throw new IllegalArgumentException(
          "counts for " + counts.length + " terms, the matcher has " + set.size());
    }
  }

  /** One more occurrence of {@code term}. */
  void add(int term) {
    add(term, 1);
  }

  /** {@code times} more occurrences of {@code term}, at least one. */
  void add(int term, int times) {
    int before = counts[term];
    counts[term] = before + times;
    if (before == 0) {
      found[size++] = term;
    }
  }

  /** Makes room for the visits of {@code slots} output states (slots 0 to {@code slots - 1}). */
  void roomForSlots(int slots) {
    if (slotVisits.length < slots) {
      slotVisits = new int[slots];
      visitedSlots = new int[slots + 1]; // visit() writes one past the distinct slots
    }
  }

  /**
   * A scratch array of {@value #REACHED_STATES} ints for a matcher to note the states it reached
   * before it {@link #visit}s them; the same array every time.
   */
  int[] reachedStates() {
    if (reachedStates == null) {
      reachedStates = new int[REACHED_STATES];
    }
    return reachedStates;
  }

  static final int REACHED_STATES = 256;

  /** One more visit of output state {@code slot}. */
  void visit(int slot) {
    int before = slotVisits[slot]++;
    // without a branch: whether a slot is new goes either way too often to predict
    visitedSlots[visited] = slot;
    visited += (before - 1) >>> 31; // 1 for a first visit (before is 0), else 0
  }

  /** How many distinct output states were visited since the last {@link #clearVisits()}. */
  int visitedSlots() {
    return visited;
  }

  /** The {@code i}-th distinct output state visited, in the order of first visits. */
  int visitedSlot(int i) {
    return visitedSlots[i];
  }

  /** How often output state {@code slot} was visited. */
  int visits(int slot) {
    return slotVisits[slot];
  }

  /** Sets every visit count back to zero. */
  void clearVisits() {
    for (int i = 0; i < visited; i++) {
      slotVisits[visitedSlots[i]] = 0;
    }
    visited = 0;
  }

  /** How many distinct terms were counted. */
  public int distinct() {
    return size;
  }

  /** The {@code i}-th distinct term counted (0 is the first one counted). */
  public int term(int i) {
    if (i >= size) {
      throw new IndexOutOfBoundsException(i);
    }
    return found[i];
  }

  /** How often {@code term} was counted. */
  public int count(int term) {
    return counts[term];
  }

  /** Sets every count back to zero. */
  public void clear() {
    for (int i = 0; i < size; i++) {
      counts[found[i]] = 0;
    }
    size = 0;
  }

  @Override
  public String toString() {
    return "TermCounts[distinct="
        + size
        + ", found="
        + Arrays.toString(Arrays.copyOf(found, Math.min(size, 8)))
        + (size > 8 ? "...]" : "]");
  }
}
