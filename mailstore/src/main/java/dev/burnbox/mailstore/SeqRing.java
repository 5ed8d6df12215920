package dev.burnbox.mailstore;

import java.util.Arrays;

/**
 * Items in ascending order of a sequence number, in a circular array: what an inbox of the memory
 * store keeps its entries in (4 bytes a slot instead of a tree node and a boxed key per entry).
 * Adding the newest item and removing the oldest take O(1) amortized, finding by sequence number
 * O(log n), removing another item O(n) (a user's delete, rare). Most inboxes of a disposable-mail
 * service hold one message: a ring holds its first item without an array, then takes one of 2 slots
 * when a second comes, which grows by doubling and never shrinks. A subclass says what an item's
 * sequence number is ({@link #seqOf}), so that an owner can be its own ring without a field for it
 * (the memory store's inbox is). Not thread-safe.
 *
 * @param <T> the items; not arrays of objects
 */
abstract class SeqRing<T> {
  // null while empty with no array yet; the one item itself while it is the only one and no array
  // was needed yet; else the circular array
  private Object slots;
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

  /** True once the ring has needed an array: it held two items at once. */
  final boolean hasArray() {
    return slots instanceof Object[];
  }

  /** The {@code i}th item, oldest first (0 is the oldest). */
  @SuppressWarnings("unchecked")
  final T get(int i) {
    Object s = slots;
    return (T) (s instanceof Object[] array ? array[(head + i) & (array.length - 1)] : s);
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
    if (slots == null) {
      slots = item;
      size = 1;
      return;
    }
    if (!(slots instanceof Object[])) {
      slots = new Object[] {slots, null};
      head = 0;
    }
    Object[] array = (Object[]) slots;
    if (size == array.length) {
      Object[] grown = new Object[array.length * 2];
      for (int i = 0; i < size; i++) {
        grown[i] = get(i);
      }
      slots = array = grown;
      head = 0;
    }
    array[(head + size) & (array.length - 1)] = item;
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
    if (!(slots instanceof Object[] array)) {
      slots = null; // the one item
    } else if (i == 0) {
      array[head] = null;
      head = (head + 1) & (array.length - 1);
    } else {
      for (int k = i; k < size - 1; k++) {
        array[(head + k) & (array.length - 1)] = get(k + 1);
      }
      array[(head + size - 1) & (array.length - 1)] = null;
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
