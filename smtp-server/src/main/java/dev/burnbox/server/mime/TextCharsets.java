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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns bytes into text the way mail readers do: declared charsets are honoured when Java knows
 * them, undeclared, ASCII-declared and unknown ones are read as UTF-8 when the bytes are valid
 * UTF-8 and as windows-1252 otherwise. Never throws; malformed sequences become U+FFFD. {@link
 * #decodeUtf8OrWindows1252} is public for other MIME parsers that fill a {@link
 * DecodedMailBuilder}.
 */
public final class TextCharsets {
  static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  /** Looking up a name Java does not know walks the charset providers each time: remember. */
  private static final Map<String, Named> LOOKED_UP = new ConcurrentHashMap<>();

  private static final int MAX_CACHED_NAMES = 512;

  private TextCharsets() {}

  /** The charset named {@code name}, or null if there is none, it is unknown or it is ASCII. */
  static Charset lookup(String name) {
    return name == null || name.isBlank() ? null : named(name).charset();
  }

  /** True if Java knows {@code name} (ASCII and no name count as known). */
  static boolean isKnown(String name) {
    return name == null || name.isBlank() || named(name).known();
  }

  private static Named named(String name) {
    Named named = LOOKED_UP.get(name);
    if (named == null) {
      named = Named.lookUp(name);
      if (LOOKED_UP.size() < MAX_CACHED_NAMES) { // names come from mail: bound the cache
        LOOKED_UP.put(name, named);
      }
    }
    return named;
  }

  /** What a charset name in a message stands for: null for ASCII and for unknown names. */
  private record Named(Charset charset, boolean known) {
    static Named lookUp(String name) {
      String trimmed = name.trim();
      if (trimmed.length() > 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
        trimmed = trimmed.substring(1, trimmed.length() - 1);
      }
      try {
        Charset charset = Charset.forName(trimmed);
        return new Named(charset.equals(StandardCharsets.US_ASCII) ? null : charset, true);
      } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
        return new Named(null, false);
      }
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
  public static String decodeUtf8OrWindows1252(byte[] bytes, int offset, int length) {
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
