package dev.burnbox.server.mime;

import java.io.ByteArrayOutputStream;

/** Base64 decoding that skips characters outside the alphabet and tolerates missing padding. */
final class Base64Lenient {
  private static final int[] VALUES = new int[128];

  static {
    java.util.Arrays.fill(VALUES, -1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < alphabet.length(); i++) {
      VALUES[alphabet.charAt(i)] = i;
    }
    VALUES['-'] = 62; // the URL-safe alphabet, seen in the wild
    VALUES['_'] = 63;
  }

  private Base64Lenient() {}

  /** Appends the bytes {@code text} encodes; stops at the first {@code =}. */
  static void decode(CharSequence text, ByteArrayOutputStream out) {
    int bits = 0;
    int count = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '=') {
        break;
      }
      int value = c < 128 ? VALUES[c] : -1;
      if (value < 0) {
        continue;
      }
      bits = bits << 6 | value;
      count++;
      if (count == 4) {
        out.write(bits >> 16);
        out.write(bits >> 8);
        out.write(bits);
        bits = 0;
        count = 0;
      }
    }
    if (count == 2) {
      out.write(bits >> 4);
    } else if (count == 3) {
      out.write(bits >> 10);
      out.write(bits >> 2);
    }
  }
}
