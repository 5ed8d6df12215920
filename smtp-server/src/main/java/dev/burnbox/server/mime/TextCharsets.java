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
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns bytes into text the way mail readers do: declared charsets are honoured when Java knows
 * them, undeclared, ASCII-declared and unknown ones are read as UTF-8 when the bytes are valid
 * UTF-8 and as windows-1252 otherwise. ISO-8859-1 is read as windows-1252, as browsers and mail
 * clients read it: every label the WHATWG Encoding Standard gives windows-1252 ({@code iso-8859-1},
 * {@code latin1}, {@code cp819}...), and every name Java resolves to ISO-8859-1, means windows-1252
 * as that standard defines it, so that the bytes 0x80-0x9F are the € and curly quotes their senders
 * meant rather than C1 controls. Never throws; malformed sequences become U+FFFD. {@link
 * #decodeUtf8OrWindows1252} is public for other MIME parsers that fill a {@link
 * DecodedMailBuilder}.
 */
public final class TextCharsets {
  /**
   * Stands for windows-1252 as the WHATWG Encoding Standard defines it: Java's windows-1252, except
   * that the five bytes it leaves undefined (0x81, 0x8D, 0x8F, 0x90 and 0x9D) are the code points
   * of the same value, as in ISO-8859-1, instead of U+FFFD. {@link #decode} reads it so.
   */
  static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  /** What each byte is in {@link #WINDOWS_1252}. */
  private static final char[] WINDOWS_1252_CHARS = windows1252Chars();

  /**
   * The labels of windows-1252 in the WHATWG Encoding Standard (encoding.spec.whatwg.org, "Names
   * and labels"), lower case. ISO-8859-1's and ASCII's are among them.
   */
  private static final Set<String> WINDOWS_1252_LABELS =
      Set.of(
          "ansi_x3.4-1968",
          "ascii",
          "cp1252",
          "cp819",
          "csisolatin1",
          "ibm819",
          "iso-8859-1",
          "iso-ir-100",
          "iso8859-1",
          "iso88591",
          "iso_8859-1",
          "iso_8859-1:1987",
          "l1",
          "latin1",
          "us-ascii",
          "windows-1252",
          "x-cp1252");

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

  /**
   * What a charset name in a message stands for: null for ASCII and for unknown names, {@link
   * #WINDOWS_1252} for ISO-8859-1 and windows-1252.
   *
   * <p>ASCII labels stay null ("UTF-8 if valid, else windows-1252") rather than windows-1252 as
   * WHATWG has it: the two agree unless a part's bytes are valid UTF-8, which in a part labelled
   * ASCII means a sender that forgot to say UTF-8, not windows-1252 text.
   */
  private record Named(Charset charset, boolean known) {
    static Named lookUp(String name) {
      String trimmed = name.trim();
      if (trimmed.length() > 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
        trimmed = trimmed.substring(1, trimmed.length() - 1).trim();
      }
      if (WINDOWS_1252_LABELS.contains(trimmed.toLowerCase(Locale.ROOT))) {
        trimmed = "windows-1252"; // some of its labels are not names Java knows
      }
      try {
        Charset charset = Charset.forName(trimmed);
        if (charset.equals(StandardCharsets.US_ASCII)) {
          return new Named(null, true);
        }
        boolean latin = charset.equals(StandardCharsets.ISO_8859_1);
        return new Named(latin ? WINDOWS_1252 : charset, true);
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
    if (charset.equals(WINDOWS_1252)) {
      return decodeWindows1252(bytes, offset, length);
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
      return decodeWindows1252(bytes, offset, length);
    }
  }

  static String decode(byte[] bytes, Charset charset) {
    return decode(bytes, 0, bytes.length, charset);
  }

  /** UTF-8 if {@code bytes} are pure ASCII or valid UTF-8, else windows-1252. */
  public static String decodeUtf8OrWindows1252(byte[] bytes, int offset, int length) {
    String utf8 = utf8OrNull(bytes, offset, length);
    return utf8 != null ? utf8 : decodeWindows1252(bytes, offset, length);
  }

  /** {@code bytes} as UTF-8 if they are pure ASCII or valid UTF-8, else null. */
  static String utf8OrNull(byte[] bytes, int offset, int length) {
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
      return null;
    }
  }

  /** {@code bytes} read as {@link #WINDOWS_1252}: every byte is a character, none is U+FFFD. */
  private static String decodeWindows1252(byte[] bytes, int offset, int length) {
    char[] chars = new char[length];
    for (int i = 0; i < length; i++) {
      chars[i] = WINDOWS_1252_CHARS[bytes[offset + i] & 0xFF];
    }
    return new String(chars);
  }

  private static char[] windows1252Chars() {
    byte[] every = new byte[256];
    for (int i = 0; i < every.length; i++) {
      every[i] = (byte) i;
    }
    char[] chars = new String(every, WINDOWS_1252).toCharArray();
    for (int i = 0; i < chars.length; i++) {
      if (chars[i] == '\uFFFD') { // undefined in Java's windows-1252: the ISO-8859-1 code point
        chars[i] = (char) i;
      }
    }
    return chars;
  }
}
