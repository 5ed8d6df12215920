package dev.burnbox.server.mime;

import java.io.ByteArrayOutputStream;

/**
 * Base64 decoding as mail writers get it wrong: the padding may be missing, and the URL-safe
 * alphabet is read too. Anything else outside the alphabet makes the text invalid.
 */
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

  /**
   * The bytes {@code text} encodes, or null if it is not base64: a character outside the alphabet,
   * one after the padding, or a last group of a single character (six bits, not a byte).
   */
  static byte[] decode(CharSequence text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() * 3 / 4);
    int bits = 0;
    int count = 0;
    int padding = text.length();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '=') {
        padding = i;
        break;
      }
      int value = c < 128 ? VALUES[c] : -1;
      if (value < 0) {
        return null;
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
    for (int i = padding; i < text.length(); i++) {
      if (text.charAt(i) != '=') {
        return null;
      }
    }
    if (count == 1) {
      return null;
    } else if (count == 2) {
      out.write(bits >> 4);
    } else if (count == 3) {
      out.write(bits >> 10);
      out.write(bits >> 2);
    }
    return out.toByteArray();
  }
}
