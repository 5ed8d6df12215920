package dev.burnbox.mailstore;

import java.util.Arrays;

/**
 * Items in ascending order of a sequence number, in a circular array: what an inbox of the memory
 * store keeps its entries in (4 bytes a slot instead of a tree node and a boxed key per entry).
 * Adding the newest item and removing the oldest take O(1) amortized, finding by sequence number
 * O(log n), removing another item O(n) (a user's delete, rare). The array starts with 2 slots (most
 * inboxes of a disposable-mail service hold one or two messages), grows by doubling and never
 * shrinks. A subclass says what an item's sequence number is ({@link #seqOf}), so that an owner can
 * be its own ring without a field for it (the memory store's inbox is). Not thread-safe.
 *
 * @param <T> the items
 */
abstract class SeqRing<T> {
  private Object[] slots = new Object[2];
  private int head;
  private int size;

  /** {@code item}'s sequence number; it must not change while the item is in the ring. */
  abstract long seqOf(T item);

  final int size() {
    return size;
  }

  final boolean isEmpty() {
    return size == 0;
  }

  /** The {@code i}th item, oldest first (0 is the oldest). */
  @SuppressWarnings("unchecked")
  final T get(int i) {
    return (T) slots[(head + i) & (slots.length - 1)];
  }

  /**
   * Appends {@code item}, whose sequence number must be above every other's.
   *
   * @throws IllegalArgumentException if it is not
   */
  final void addNewest(T item) {
    if (size > 0 && seqOf(item) <= seqOf(get(size - 1))) {
      throw new IllegalArgumentException("out of order");
    }
    if (size == slots.length) {
      Object[] grown = new Object[slots.length * 2];
      for (int i = 0; i < size; i++) {
        grown[i] = get(i);
      }
      slots = grown;
      head = 0;
    }
    slots[(head + size) & (slots.length - 1)] = item;
    size++;
  }

  /**
   * The number of items whose sequence number is below {@code seq}: O(1) when that is all of them
   * (a first page), else a binary search.
   */
  final int countBefore(long seq) {
    if (size == 0 || seqOf(get(size - 1)) < seq) {
      return size;
    }
    int lo = 0;
    int hi = size - 1; // the newest is not below seq
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (seqOf(get(mid)) < seq) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Removes the item with {@code item}'s sequence number; false if there is none. */
  final boolean remove(T item) {
    long seq = seqOf(item);
    int i = countBefore(seq);
    if (i == size || seqOf(get(i)) != seq) {
      return false;
    }
    if (i == 0) {
      slots[head] = null;
      head = (head + 1) & (slots.length - 1);
    } else {
      for (int k = i; k < size - 1; k++) {
        slots[(head + k) & (slots.length - 1)] = get(k + 1);
      }
      slots[(head + size - 1) & (slots.length - 1)] = null;
    }
    size--;
    return true;
  }

  @Override
  public String toString() {
    Object[] items = new Object[size];
    for (int i = 0; i < size; i++) {
      items[i] = get(i);
    }
    return Arrays.toString(items);
  }
}
