package dev.burnbox.mailstore;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The memory store's entries by message id and in delivery order, for about 40 bytes per entry
 * where a {@code LinkedHashMap<MessageId, Entry>} takes about 80: the id's two {@code long}s and
 * the order's two links are fields of the entry itself ({@link Node}), and the lookup is a {@link
 * ProbeTable} of entry references (8 to 32 bytes of table per entry) instead of a map node and an
 * id object per entry.
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
  static final int MIN_CAPACITY = ProbeTable.MIN_CAPACITY;

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

  private final ProbeTable<Node> table = new ProbeTable<>(n -> key(n.high, n.low));
  private Node oldest;
  private Node newest;

  int size() {
    return table.size();
  }

  boolean isEmpty() {
    return table.size() == 0;
  }

  /** The fewest slots a table holding {@code size} entries can have. */
  static int capacityFor(int size) {
    return ProbeTable.capacityFor(size);
  }

  /** Slots in the table now: what the index costs besides its entries. */
  int capacity() {
    return table.capacity();
  }

  /** The entry with {@code id}, or null. */
  E get(MessageId id) {
    return get(id.high(), id.low());
  }

  @SuppressWarnings("unchecked")
  private E get(long high, long low) {
    for (int i = table.start(key(high, low)); ; i = table.next(i)) {
      Node n = table.at(i);
      if (n == null || (n.high == high && n.low == low)) {
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
    table.add(e);
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
    if (get(e.high, e.low) != e) {
      throw new IllegalArgumentException("not indexed: " + e.id());
    }
    table.remove(e);
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

  /** The 64 bits of an id the table mixes into a slot. */
  private static long key(long high, long low) {
    return high ^ Long.rotateLeft(low, 32);
  }
}
