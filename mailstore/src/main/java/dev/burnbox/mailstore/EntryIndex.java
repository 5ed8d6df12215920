package dev.burnbox.mailstore;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The memory store's entries by message id and in delivery order, for about 40 bytes per entry
 * where a {@code LinkedHashMap<MessageId, Entry>} takes about 80: the id's two {@code long}s and
 * the order's two links are fields of the entry itself ({@link Node}), and the lookup is an
 * open-addressing table of entry references (linear probing, kept between an eighth and half full:
 * 8 to 32 bytes of table per entry, 4 per slot with compressed references) instead of a map node
 * and an id object per entry.
 *
 * <p>Lookup, adding the newest entry and removing any entry take O(1) expected time (amortized over
 * the table's doubling and halving); walking the entries in either order takes O(1) per entry.
 * Message ids are random, so keys spread evenly; the table mixes their bits anyway. Not
 * thread-safe: {@link MemoryInboxStore}'s lock guards it.
 *
 * @param <E> the entries
 */
final class EntryIndex<E extends EntryIndex.Node> {
  /** Slots of the smallest table. */
  static final int MIN_CAPACITY = 16;

  /** What an entry carries for the index: its id, and its neighbours in delivery order. */
  abstract static class Node {
    final long high;
    final long low;
    Node older; // null for the oldest
    Node newer; // null for the newest

    Node(MessageId id) {
      this.high = id.high();
      this.low = id.low();
    }

    /** The id, made on demand from the two longs held. */
    final MessageId id() {
      return MessageId.of(high, low);
    }
  }

  private Node[] slots = new Node[MIN_CAPACITY];
  private int size;
  private Node oldest;
  private Node newest;

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The fewest slots a table holding {@code size} entries can have. */
  static int capacityFor(int size) {
    int capacity = MIN_CAPACITY;
    while (capacity < 2L * size) {
      capacity *= 2;
    }
    return capacity;
  }

  /** Slots in the table now: what the index costs besides its entries. */
  int capacity() {
    return slots.length;
  }

  /** The entry with {@code id}, or null. */
  E get(MessageId id) {
    return get(id.high(), id.low());
  }

  @SuppressWarnings("unchecked")
  private E get(long high, long low) {
    int mask = slots.length - 1;
    for (int i = slot(high, low, mask); ; i = (i + 1) & mask) {
      Node n = slots[i];
      if (n == null) {
        return null;
      }
      if (n.high == high && n.low == low) {
        return (E) n;
      }
    }
  }

  /** The oldest entry, or null if there is none. */
  @SuppressWarnings("unchecked")
  E oldest() {
    return (E) oldest;
  }

  /**
   * Adds {@code e} as the newest entry.
   *
   * @throws IllegalArgumentException if an entry with its id is present ({@code e} itself too)
   */
  void addNewest(E e) {
    if (get(e.high, e.low) != null) {
      throw new IllegalArgumentException("message id already in use: " + e.id());
    }
    if (2 * (size + 1) > slots.length) {
      resize(slots.length * 2);
    }
    insert(slots, e);
    size++;
    e.older = newest;
    if (newest != null) {
      newest.newer = e;
    } else {
      oldest = e;
    }
    newest = e;
  }

  /**
   * Removes {@code e}.
   *
   * @throws IllegalArgumentException if {@code e} is not this index's entry for its id
   */
  void remove(E e) {
    int mask = slots.length - 1;
    int i = slot(e.high, e.low, mask);
    while (slots[i] != e) {
      if (slots[i] == null) {
        throw new IllegalArgumentException("not indexed: " + e.id());
      }
      i = (i + 1) & mask;
    }
    // backward-shift deletion: move later entries of the probe run into the gap, so no
    // tombstones are left and a lookup still stops at the first empty slot
    int gap = i;
    for (int j = (gap + 1) & mask; slots[j] != null; j = (j + 1) & mask) {
      int home = slot(slots[j].high, slots[j].low, mask);
      // slots[j] may move into the gap unless its home lies cyclically in (gap, j]
      boolean homeAfterGap = gap <= j ? gap < home && home <= j : gap < home || home <= j;
      if (!homeAfterGap) {
        slots[gap] = slots[j];
        gap = j;
      }
    }
    slots[gap] = null;
    size--;
    if (e.older != null) {
      e.older.newer = e.newer;
    } else {
      oldest = e.newer;
    }
    if (e.newer != null) {
      e.newer.older = e.older;
    } else {
      newest = e.older;
    }
    e.older = null;
    e.newer = null;
    if (slots.length > MIN_CAPACITY && 8 * size < slots.length) {
      resize(slots.length / 2);
    }
  }

  /** The entries, oldest first. The index must not change during the walk. */
  Iterable<E> oldestFirst() {
    return () -> new Walk<>(oldest, true);
  }

  /** The entries, newest first. The index must not change during the walk. */
  Iterable<E> newestFirst() {
    return () -> new Walk<>(newest, false);
  }

  private static final class Walk<E> implements Iterator<E> {
    private Node next;
    private final boolean towardsNewer;

    Walk(Node first, boolean towardsNewer) {
      this.next = first;
      this.towardsNewer = towardsNewer;
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public E next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      Node n = next;
      next = towardsNewer ? n.newer : n.older;
      return (E) n;
    }
  }

  private void resize(int capacity) {
    Node[] grown = new Node[capacity];
    for (Node n = oldest; n != null; n = n.newer) {
      insert(grown, n);
    }
    slots = grown;
  }

  private static void insert(Node[] table, Node n) {
    int mask = table.length - 1;
    int i = slot(n.high, n.low, mask);
    while (table[i] != null) {
      i = (i + 1) & mask;
    }
    table[i] = n;
  }

  /** The home slot of an id: its bits mixed (MurmurHash3's finalizer), then masked. */
  private static int slot(long high, long low, int mask) {
    long h = high ^ Long.rotateLeft(low, 32);
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return (int) h & mask;
  }
}
