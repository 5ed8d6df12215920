package dev.burnbox.mailstore;

import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * An open-addressing hash table of references: the lookup of {@link EntryIndex} (entries by id) and
 * of {@link PieceTable} (pieces by their hash), and the memory store's inboxes by name. Linear
 * probing, kept between an eighth and half full (it doubles when an element would fill it past half
 * and halves when under an eighth, down to {@value #MIN_CAPACITY} slots); deletion by backward
 * shift, so no tombstones are left and a probe run ends at the first empty slot. An element's place
 * follows from 64 bits of its key that the owner gives ({@code hash}), mixed by MurmurHash3's
 * finalizer and masked. The owner looks elements up by key itself, without allocating: probe from
 * {@link #start} with {@link #next} until {@link #at} gives the element or null.
 *
 * <p>Memory: one reference per slot, so 8 to 32 bytes per element with compressed references. Not
 * thread-safe: the owner's lock guards it. Add and remove are O(1) expected, amortized over the
 * doubling and halving (each rehashes every element).
 *
 * @param <T> the elements
 */
final class ProbeTable<T> {
  /** Slots of the smallest table. */
  static final int MIN_CAPACITY = 16;

  private final ToLongFunction<? super T> hash;
  private Object[] slots = new Object[MIN_CAPACITY];
  private int size;

  /** An empty table whose elements hash to {@code hash}'s value; it must not change. */
  ProbeTable(ToLongFunction<? super T> hash) {
    this.hash = hash;
  }

  /** The fewest slots a table holding {@code size} elements can have. */
  static int capacityFor(int size) {
    int capacity = MIN_CAPACITY;
    while (capacity < 2L * size) {
      capacity *= 2;
    }
    return capacity;
  }

  int size() {
    return size;
  }

  /** Slots in the table now. */
  int capacity() {
    return slots.length;
  }

  /** The first slot to look at for an element whose key hashes to {@code keyHash}. */
  int start(long keyHash) {
    return home(keyHash, slots.length - 1);
  }

  /** The slot probed after {@code slot}. */
  int next(int slot) {
    return (slot + 1) & (slots.length - 1);
  }

  /** The element in {@code slot}, or null: the probe run ends there. */
  @SuppressWarnings("unchecked")
  T at(int slot) {
    return (T) slots[slot];
  }

  /** Adds {@code element}, which must not be in the table. */
  void add(T element) {
    if (2 * (size + 1) > slots.length) {
      resize(slots.length * 2);
    }
    insert(slots, element);
    size++;
  }

  /**
   * Removes {@code element} (this very object).
   *
   * @throws IllegalArgumentException if it is not in the table
   */
  void remove(T element) {
    int mask = slots.length - 1;
    int i = home(hash.applyAsLong(element), mask);
    while (slots[i] != element) {
      if (slots[i] == null) {
        throw new IllegalArgumentException("not in the table: " + element);
      }
      i = (i + 1) & mask;
    }
    // backward shift: move later elements of the probe run into the gap
    int gap = i;
    for (int j = (gap + 1) & mask; slots[j] != null; j = (j + 1) & mask) {
      @SuppressWarnings("unchecked")
      int home = home(hash.applyAsLong((T) slots[j]), mask);
      // slots[j] may move into the gap unless its home lies cyclically in (gap, j]
      boolean homeAfterGap = gap <= j ? gap < home && home <= j : gap < home || home <= j;
      if (!homeAfterGap) {
        slots[gap] = slots[j];
        gap = j;
      }
    }
    slots[gap] = null;
    size--;
    if (slots.length > MIN_CAPACITY && 8 * size < slots.length) {
      resize(slots.length / 2);
    }
  }

  /** Calls {@code action} with every element, in slot order. */
  @SuppressWarnings("unchecked")
  void forEach(Consumer<? super T> action) {
    for (Object o : slots) {
      if (o != null) {
        action.accept((T) o);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private void resize(int capacity) {
    Object[] resized = new Object[capacity];
    for (Object o : slots) {
      if (o != null) {
        insert(resized, (T) o);
      }
    }
    slots = resized;
  }

  private void insert(Object[] table, T element) {
    int mask = table.length - 1;
    int i = home(hash.applyAsLong(element), mask);
    while (table[i] != null) {
      i = (i + 1) & mask;
    }
    table[i] = element;
  }

  /** MurmurHash3's 64-bit finalizer, masked. */
  private static int home(long keyHash, int mask) {
    long h = keyHash;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return (int) h & mask;
  }
}
