package dev.burnbox.server.mime;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;

/**
 * Turns bytes into text the way mail readers do: declared charsets are honoured when Java knows
 * them, undeclared, ASCII-declared and unknown ones are read as UTF-8 when the bytes are valid
 * UTF-8 and as windows-1252 otherwise. Never throws; malformed sequences become U+FFFD.
 */
final class TextCharsets {
  static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  private TextCharsets() {}

  /** The charset named {@code name}, or null if there is none, it is unknown or it is ASCII. */
  static Charset lookup(String name) {
    if (name == null || name.isBlank()) {
      return null;
    }
    String trimmed = name.trim();
    if (trimmed.length() > 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
      trimmed = trimmed.substring(1, trimmed.length() - 1);
    }
    try {
      Charset charset = Charset.forName(trimmed);
      return charset.equals(StandardCharsets.US_ASCII) ? null : charset;
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      return null;
    }
  }

  /** True if Java knows {@code name} (ASCII counts as known). */
  static boolean isKnown(String name) {
    if (name == null || name.isBlank()) {
      return true;
    }
    try {
      return Charset.isSupported(name.trim().replace("\"", ""));
    } catch (IllegalCharsetNameException e) {
      return false;
    }
  }

  /** Decodes with {@code charset}; null means "UTF-8 if valid, else windows-1252". */
  static String decode(byte[] bytes, int offset, int length, Charset charset) {
    if (charset == null) {
      return decodeUtf8OrWindows1252(bytes, offset, length);
    }
    if (charset.equals(StandardCharsets.UTF_8)
        || charset.equals(StandardCharsets.ISO_8859_1)
        || charset.equals(StandardCharsets.UTF_16)) {
      return new String(bytes, offset, length, charset);
    }
    try {
      return charset
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE)
          .decode(ByteBuffer.wrap(bytes, offset, length))
          .toString();
    } catch (CharacterCodingException | RuntimeException e) {
      return new String(bytes, offset, length, WINDOWS_1252);
    }
  }

  static String decode(byte[] bytes, Charset charset) {
    return decode(bytes, 0, bytes.length, charset);
  }

  /** UTF-8 if {@code bytes} are pure ASCII or valid UTF-8, else windows-1252. */
  static String decodeUtf8OrWindows1252(byte[] bytes, int offset, int length) {
    boolean ascii = true;
    for (int i = offset; i < offset + length; i++) {
      if (bytes[i] < 0) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }
    CharsetDecoder strictUtf8 =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      CharBuffer chars = strictUtf8.decode(ByteBuffer.wrap(bytes, offset, length));
      return chars.toString();
    } catch (CharacterCodingException e) {
      return new String(bytes, offset, length, WINDOWS_1252);
    }
  }
}
