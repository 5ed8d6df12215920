package dev.burnbox.mailstore;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A list of strings packed into one byte array, losslessly: how the memory store keeps a delivery's
 * sender, {@code From}, subject and spam terms in one object instead of a string object and an
 * array per field (about 40 bytes each, plus the list's), and an inbox's name. Read back in order
 * with a {@link Reader}. Each string is its length, as a varint whose lowest bit says how its
 * characters follow: one byte each when every one is below 256 (most mail's headers), else two
 * (UTF-16, so unpaired surrogates survive). Stateless.
 */
final class PackedStrings {
  private PackedStrings() {}

  /** {@code strings} packed; none may be null. */
  static byte[] pack(List<String> strings) {
    int size = 0;
    for (String s : strings) {
      size += packedLength(s);
    }
    byte[] out = new byte[size];
    int at = 0;
    for (String s : strings) {
      boolean narrow = isNarrow(s);
      at = putVarint(out, at, ((long) s.length() << 1) | (narrow ? 0 : 1));
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (!narrow) {
          out[at++] = (byte) (c >>> 8);
        }
        out[at++] = (byte) c;
      }
    }
    return out;
  }

  /** How many bytes {@code s} takes packed: its length's varint, then its characters. */
  static int packedLength(String s) {
    long header = (long) s.length() << 1;
    int varint = 1;
    while ((header >>>= 7) != 0) {
      varint++;
    }
    return varint + (isNarrow(s) ? 1 : 2) * s.length();
  }

  private static boolean isNarrow(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 256) {
        return false;
      }
    }
    return true;
  }

  /**
   * True if {@code packed} holds exactly one string, equal to {@code s}: compared where it lies,
   * without unpacking it.
   */
  static boolean holdsOnly(byte[] packed, String s) {
    Reader r = new Reader(packed);
    return r.nextEquals(s) && !r.hasNext();
  }

  /**
   * The strings of one packed array, read in order without a list: a summary reads its fields
   * straight from it. Not thread-safe; one reader per read.
   */
  static final class Reader {
    private final byte[] packed;
    private int at;

    Reader(byte[] packed) {
      this.packed = packed;
    }

    boolean hasNext() {
      return at < packed.length;
    }

    /**
     * The next string.
     *
     * @throws ArrayIndexOutOfBoundsException if there is none
     */
    String next() {
      long header = header();
      int length = (int) (header >>> 1);
      if (length == 0) {
        return "";
      }
      if ((header & 1) == 0) {
        // a Latin-1 string's own layout: one array copy
        String s = new String(packed, at, length, StandardCharsets.ISO_8859_1);
        at += length;
        return s;
      }
      // char by char, not through a UTF-16 decoder, which would replace lone surrogates
      char[] chars = new char[length];
      for (int i = 0; i < length; i++) {
        chars[i] = (char) ((packed[at] & 0xff) << 8 | (packed[at + 1] & 0xff));
        at += 2;
      }
      return new String(chars);
    }

    /**
     * True if the next string equals {@code s}, compared where it lies; reads past it either way.
     *
     * @throws ArrayIndexOutOfBoundsException if there is none
     */
    boolean nextEquals(String s) {
      long header = header();
      int length = (int) (header >>> 1);
      int width = (header & 1) == 0 ? 1 : 2;
      int start = at;
      at += width * length;
      if (length != s.length() || at > packed.length) {
        return false;
      }
      for (int i = 0; i < length; i++) {
        int c =
            width == 1
                ? packed[start + i] & 0xff
                : (packed[start + 2 * i] & 0xff) << 8 | (packed[start + 2 * i + 1] & 0xff);
        if (c != s.charAt(i)) {
          return false;
        }
      }
      return true;
    }

    /** The next string's varint: its length, shifted left by one, and whether it is wide. */
    private long header() {
      long header = 0;
      int shift = 0;
      byte b;
      do {
        b = packed[at++];
        header |= (long) (b & 0x7f) << shift;
        shift += 7;
      } while (b < 0);
      return header;
    }
  }

  private static int putVarint(byte[] out, int at, long value) {
    while ((value & ~0x7fL) != 0) {
      out[at++] = (byte) ((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out[at++] = (byte) value;
    return at;
  }
}
