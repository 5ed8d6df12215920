package dev.burnbox.matcher;

import java.util.Arrays;

/**
 * A growable {@code char} buffer in which every char carries the range of the original text it came
 * from: the working space of {@link TextNormalizer}.
 *
 * <p>While every char {@code i} came from exactly original char {@code i} (ASCII text, where the
 * normaliser only changes case and leetspeak, one char for one), no range is stored at all; the two
 * range arrays are materialised on the first char that breaks that identity. So the common case
 * costs one {@code char} per char, and the worst case two {@code int}s more.
 *
 * <p>Not thread-safe: one buffer per {@link TextNormalizer#normalize} call.
 */
final class MappedCharBuffer {
  private char[] chars;
  // null while the mapping is the identity: char i came from original [i, i + 1)
  private int[] starts;
  private int[] ends;
  private int length;

  /**
   * An empty buffer whose backing array starts as a copy of {@code original}: while the mapping is
   * the identity, the chars at and after {@link #length()} are the original's own, and {@link
   * #appendLowerCaseAscii} rewrites them in place.
   */
  MappedCharBuffer(String original) {
    int n = original.length();
    this.chars = new char[n + (n >> 4) + 16];
    original.getChars(0, n, chars, 0);
  }

  int length() {
    return length;
  }

  /** The backing array; chars at {@code [0, length())} are the content. */
  char[] chars() {
    return chars;
  }

  /** The last char, or 0 if the buffer is empty. */
  char lastChar() {
    return length == 0 ? 0 : chars[length - 1];
  }

  /** Appends {@code c}, produced by the original chars {@code [start, end)}. */
  void append(char c, int start, int end) {
    if (length == chars.length) {
      grow();
    }
    if (starts == null) {
      if (start == length && end == length + 1) {
        chars[length++] = c;
        return;
      }
      materialise();
    }
    chars[length] = c;
    starts[length] = start;
    ends[length] = end;
    length++;
  }

  /**
   * Appends, lower-cased, the ASCII chars of {@code original} from {@code from} on, stopping before
   * the first non-ASCII char and before the ASCII char right ahead of it (which may be the base of
   * a combining mark); returns the offset where it stopped.
   */
  int appendLowerCaseAscii(String original, int from) {
    int n = original.length();
    if (starts == null && from == length) {
      // identity so far: the array holds the original from here on; rewrite it in place
      char[] a = chars;
      int i = from;
      while (i < n && a[i] < 0x80) {
        i++;
      }
      lowerCaseAscii(a, from, i);
      int end = i < n && i > from ? i - 1 : i;
      length = end;
      return end;
    }
    // chars no longer come from the same index: write chars and ranges straight into the arrays
    if (starts == null) {
      materialise();
    }
    ensureCapacity(length + (n - from));
    char[] a = chars;
    int[] st = starts;
    int[] en = ends;
    int w = length;
    int i = from;
    while (i < n) {
      char c = original.charAt(i);
      if (c >= 0x80) {
        break;
      }
      a[w] = c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
      st[w] = i;
      en[w] = i + 1;
      w++;
      i++;
    }
    if (i < n && i > from) {
      w--;
      i--;
    }
    length = w;
    return i;
  }

  /**
   * Lower-cases the ASCII chars {@code a[from, to)} in place without a branch per char: an upper
   * case letter gets bit 5 set (1 iff {@code 'A' <= c <= 'Z'}, from the signs of two differences).
   * Mail's capitals are few and scattered, so a compare per char would mispredict at each.
   */
  private static void lowerCaseAscii(char[] a, int from, int to) {
    for (int i = from; i < to; i++) {
      int c = a[i];
      a[i] = (char) (c | (((('A' - 1) - c) & (c - ('Z' + 1))) >>> 31) << 5);
    }
  }

  /**
   * Extends the range of the last char to end at {@code end} (not before its current end): for
   * original chars that were dropped but belong to it, such as combining marks on its base.
   */
  void extendLast(int end) {
    if (length == 0 || end <= originalEnd(length - 1)) {
      return;
    }
    if (starts == null) {
      materialise();
    }
    ends[length - 1] = end;
  }

  /**
   * Removes the chars at {@code positions[0..count)}, which are strictly increasing; the others
   * keep their order and their original ranges.
   */
  void removeAll(int[] positions, int count) {
    if (count == 0) {
      return;
    }
    if (starts == null) {
      materialise();
    }
    int write = positions[0];
    int next = 0;
    for (int read = positions[0]; read < length; read++) {
      if (next < count && positions[next] == read) {
        next++;
        continue;
      }
      chars[write] = chars[read];
      starts[write] = starts[read];
      ends[write] = ends[read];
      write++;
    }
    length = write;
  }

  private int originalEnd(int i) {
    return starts == null ? i + 1 : ends[i];
  }

  private void grow() {
    ensureCapacity(length + 1);
  }

  private void ensureCapacity(int needed) {
    if (needed <= chars.length) {
      return;
    }
    int capacity = Math.max(needed, chars.length + (chars.length >> 1) + 16);
    chars = Arrays.copyOf(chars, capacity);
    if (starts != null) {
      starts = Arrays.copyOf(starts, capacity);
      ends = Arrays.copyOf(ends, capacity);
    }
  }

  private void materialise() {
    starts = new int[chars.length];
    ends = new int[chars.length];
    for (int i = 0; i < length; i++) {
      starts[i] = i;
      ends[i] = i + 1;
    }
  }

  /**
   * The normalised view of {@code original} this buffer holds; the buffer must not be used after.
   */
  NormalizedText toNormalizedText(String original) {
    String text = new String(chars, 0, length);
    // the range arrays are handed over untrimmed: at most half as long again as needed
    return new NormalizedText(original, text, starts, ends);
  }
}
