package dev.burnbox.server.mime;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns bytes into text the way mail readers do: a declared charset is read as the WHATWG Encoding
 * Standard (encoding.spec.whatwg.org, "Names and labels") says browsers read its label, where Java
 * has that encoding; undeclared, ASCII-declared and unknown ones are read as UTF-8 when the bytes
 * are valid UTF-8 and as windows-1252 otherwise. Never throws; malformed sequences become U+FFFD.
 * {@link #decodeUtf8OrWindows1252} is public for other MIME parsers that fill a {@link
 * DecodedMailBuilder}.
 *
 * <p>Senders label mail with the name of a standard and write in its Windows superset, as they do
 * web pages: {@code iso-8859-1} holding € and curly quotes (windows-1252), {@code gb2312} holding
 * GBK characters, {@code ks_c_5601-1987} and {@code euc-kr} holding Windows-949 syllables, {@code
 * shift_jis} holding Windows-31J's circled digits, {@code iso-8859-9} holding windows-1254, {@code
 * tis-620} holding windows-874. Java reads each label as the standard it names and shows those
 * characters as U+FFFD or C1 controls; browsers and mail clients read every label as the encoding
 * WHATWG gives it, and so does this class ({@link #WHATWG_SINGLE_BYTE_ENCODINGS}, {@link
 * #WHATWG_MULTI_BYTE_ENCODINGS}). A name that is no WHATWG label but one Java knows (as {@code
 * 8859_9}) is read as WHATWG reads Java's canonical name for the same charset ({@code ISO-8859-9}),
 * else as Java reads it.
 *
 * <p>Left as Java reads them: the labels of WHATWG's "replacement" encoding ({@code iso-2022-kr},
 * {@code iso-2022-cn}...), which a browser reads as one U+FFFD lest a page's markup hide in their
 * escapes, but which are mail charsets (RFC 1557, RFC 1922) that Java decodes (the web inbox cleans
 * HTML after it is decoded); and the UTF-16 labels, which in MIME mean a byte-order mark, else
 * big-endian (RFC 2781), where WHATWG takes little-endian. Unknown here, as to Java: ISO-8859-10
 * and ISO-8859-14, which the JDK lacks, and {@code x-user-defined}.
 */
public final class TextCharsets {
  /** windows-1252 as the WHATWG Encoding Standard defines it (see {@link #SINGLE_BYTE_TABLES}). */
  static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  /**
   * The single-byte encodings of the WHATWG Encoding Standard, each as the Java charset that
   * decodes as it does and its WHATWG labels (lower case, a space between two). Decoded by {@link
   * #SINGLE_BYTE_TABLES}. ISO-8859-1's and ASCII's labels are windows-1252's.
   */
  private static final String[][] WHATWG_SINGLE_BYTE_ENCODINGS = {
    {"IBM866", "866 cp866 csibm866 ibm866"},
    {
      "ISO-8859-2",
      "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 "
          + "latin2"
    },
    {
      "ISO-8859-3",
      "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 "
          + "latin3"
    },
    {
      "ISO-8859-4",
      "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 "
          + "latin4"
    },
    {
      "ISO-8859-5",
      "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5 "
          + "iso_8859-5:1988"
    },
    {
      "ISO-8859-6",
      "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 "
          + "iso-8859-6-e iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987"
    },
    {
      "ISO-8859-7",
      "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597 "
          + "iso_8859-7 iso_8859-7:1987 sun_eu_greek"
    },
    { // and ISO-8859-8-I's labels: the same characters, in logical order rather than visual
      "ISO-8859-8",
      "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 "
          + "iso88598 iso_8859-8 iso_8859-8:1988 visual csiso88598i iso-8859-8-i logical"
    },
    {"ISO-8859-13", "iso-8859-13 iso8859-13 iso885913"},
    {"ISO-8859-15", "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9"},
    {"ISO-8859-16", "iso-8859-16"},
    {"KOI8-R", "cskoi8r koi koi8 koi8-r koi8_r"},
    {"KOI8-U", "koi8-ru koi8-u"},
    {"x-MacRoman", "csmacintosh mac macintosh x-mac-roman"},
    {"x-windows-874", "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874"},
    {"windows-1250", "cp1250 windows-1250 x-cp1250"},
    {"windows-1251", "cp1251 windows-1251 x-cp1251"},
    {
      "windows-1252",
      "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 "
          + "iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252"
    },
    {"windows-1253", "cp1253 windows-1253 x-cp1253"},
    {
      "windows-1254",
      "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 "
          + "l5 latin5 windows-1254 x-cp1254"
    },
    {"windows-1255", "cp1255 windows-1255 x-cp1255"},
    {"windows-1256", "cp1256 windows-1256 x-cp1256"},
    {"windows-1257", "cp1257 windows-1257 x-cp1257"},
    {"windows-1258", "cp1258 windows-1258 x-cp1258"},
    {"x-MacUkraine", "x-mac-cyrillic x-mac-ukrainian"},
  };

  /**
   * The other encodings of the WHATWG Encoding Standard, as {@link #WHATWG_SINGLE_BYTE_ENCODINGS}:
   * the Java charset first. Where Java has several near WHATWG's, the one whose table matched
   * WHATWG's index best: GB18030 for gbk (WHATWG decodes gbk with its gb18030 decoder; Java's GBK
   * reads 101 of its pairs otherwise), x-MS950-HKSCS for big5 (Big5-HKSCS reads 58 more of its
   * pairs as U+FFFD and its punctuation otherwise), x-eucJP-Open and x-windows-iso2022jp for euc-jp
   * and iso-2022-jp (Java's EUC-JP and ISO-2022-JP lack the NEC and IBM rows: circled digits, Roman
   * numerals).
   */
  private static final String[][] WHATWG_MULTI_BYTE_ENCODINGS = {
    {"UTF-8", "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8"},
    {
      "GB18030",
      "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk gb18030"
    },
    {"x-MS950-HKSCS", "big5 big5-hkscs cn-big5 csbig5 x-x-big5"},
    {"x-eucJP-Open", "cseucpkdfmtjapanese euc-jp x-euc-jp"},
    {"x-windows-iso2022jp", "csiso2022jp iso-2022-jp"},
    {"windows-31j", "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis"},
    {
      "x-windows-949",
      "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 "
          + "ksc_5601 windows-949"
    },
  };

  /**
   * Every WHATWG label and the charset it is read as ({@link #WHATWG_SINGLE_BYTE_ENCODINGS}...).
   */
  private static final Map<String, Charset> WHATWG_LABELS = new HashMap<>();

  /**
   * What each byte is in each single-byte encoding, as WHATWG's index has it: Java's table, except
   * that a byte of 0x80-0x9F that Java leaves undefined (in windows-874 and windows-125x, such as
   * 0x81, 0x8D, 0x8F, 0x90 and 0x9D in windows-1252) is the C1 control of its value, as in
   * ISO-8859-1, not U+FFFD; and the four characters set by {@link #correctToWhatwg}.
   */
  private static final Map<Charset, char[]> SINGLE_BYTE_TABLES = new HashMap<>();

  /**
   * The charsets of WHATWG's ASCII-compatible double-byte encodings (and GB18030's four-byte
   * sequences): in them an error never takes an ASCII byte with it ({@link #decodeDoubleByte}).
   */
  private static final Set<Charset> DOUBLE_BYTE = new HashSet<>();

  static {
    for (String[] encoding : WHATWG_SINGLE_BYTE_ENCODINGS) {
      Charset charset = addLabels(encoding);
      char[] table = charset == null ? null : singleByteTable(charset);
      if (table != null) {
        SINGLE_BYTE_TABLES.put(charset, table);
      }
    }
    for (String[] encoding : WHATWG_MULTI_BYTE_ENCODINGS) {
      addLabels(encoding);
    }
    for (String name : List.of("GB18030", "x-MS950-HKSCS", "x-eucJP-Open", "windows-31j")) {
      if (Charset.isSupported(name)) {
        DOUBLE_BYTE.add(Charset.forName(name));
      }
    }
    DOUBLE_BYTE.add(WHATWG_LABELS.get("euc-kr"));
    correctToWhatwg("windows-1255", 0xCA, '\u05BA'); // Hebrew point holam haser for vav
    correctToWhatwg("KOI8-U", 0xAE, '\u045E'); // WHATWG's KOI8-U is KOI8-RU: ў and Ў
    correctToWhatwg("KOI8-U", 0xBE, '\u040E'); // where KOI8-U has box drawings
    correctToWhatwg("x-MacUkraine", 0xFF, '€'); // Mac OS 9's, where Java has ¤
  }

  /** The byte table of {@link #WINDOWS_1252}. */
  private static final char[] WINDOWS_1252_CHARS = SINGLE_BYTE_TABLES.get(WINDOWS_1252);

  /** Looking up a name Java does not know walks the charset providers each time: remember. */
  private static final Map<String, Named> LOOKED_UP = new ConcurrentHashMap<>();

  private static final int MAX_CACHED_NAMES = 512;

  private TextCharsets() {}

  /** Maps the labels of {@code encoding} (its Java charset and its labels) to that charset. */
  private static Charset addLabels(String[] encoding) {
    if (!Charset.isSupported(encoding[0])) {
      return null; // a runtime without jdk.charsets: the labels are read as Java reads them
    }
    Charset charset = Charset.forName(encoding[0]);
    for (String label : encoding[1].split(" ")) {
      WHATWG_LABELS.put(label, charset);
    }
    return charset;
  }

  /** Sets byte {@code b} of {@code charsetName}'s table to {@code c}, WHATWG's character there. */
  private static void correctToWhatwg(String charsetName, int b, char c) {
    for (Map.Entry<Charset, char[]> table : SINGLE_BYTE_TABLES.entrySet()) {
      if (table.getKey().name().equals(charsetName)) {
        table.getValue()[b] = c;
      }
    }
  }

  /** The charset named {@code name}, or null if there is none, it is unknown or it is ASCII. */
  static Charset lookup(String name) {
    return name == null || name.isBlank() ? null : named(name).charset();
  }

  /** True if {@code name} is a WHATWG label or a name Java knows (ASCII and no name count too). */
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
   * What a charset name in a message stands for: the charset WHATWG reads its label as, else the
   * one Java knows it by; null for ASCII and for unknown names.
   *
   * <p>ASCII labels stay null ("UTF-8 if valid, else windows-1252") rather than windows-1252 as
   * WHATWG has it: the two agree unless a part's bytes are valid UTF-8, which in a part labelled
   * ASCII means a sender that forgot to say UTF-8, not windows-1252 text.
   */
  private record Named(Charset charset, boolean known) {
    static Named lookUp(String name) {
      String label = name.trim();
      if (label.length() > 2 && label.startsWith("\"") && label.endsWith("\"")) {
        label = label.substring(1, label.length() - 1).trim();
      }
      label = label.toLowerCase(Locale.ROOT);
      Charset java = javaCharset(label);
      if (StandardCharsets.US_ASCII.equals(java)) {
        return new Named(null, true);
      }
      Charset whatwg = WHATWG_LABELS.get(label);
      if (whatwg == null && java != null) { // a name only Java knows: WHATWG's reading of Java's
        whatwg = WHATWG_LABELS.get(java.name().toLowerCase(Locale.ROOT));
      }
      Charset charset = whatwg != null ? whatwg : java;
      return new Named(charset, charset != null);
    }

    /** The charset Java knows by {@code name}, or null. */
    private static Charset javaCharset(String name) {
      try {
        return Charset.forName(name);
      } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
        return null;
      }
    }
  }

  /** Decodes with {@code charset}; null means "UTF-8 if valid, else windows-1252". */
  static String decode(byte[] bytes, int offset, int length, Charset charset) {
    if (charset == null) {
      return decodeUtf8OrWindows1252(bytes, offset, length);
    }
    char[] singleByte = SINGLE_BYTE_TABLES.get(charset);
    if (singleByte != null) {
      return decodeSingleByte(bytes, offset, length, singleByte);
    }
    if (charset.equals(StandardCharsets.UTF_8)
        || charset.equals(StandardCharsets.ISO_8859_1)
        || charset.equals(StandardCharsets.UTF_16)) {
      return new String(bytes, offset, length, charset);
    }
    try {
      if (DOUBLE_BYTE.contains(charset)) {
        return decodeDoubleByte(bytes, offset, length, charset);
      }
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

  /**
   * {@code bytes} decoded by {@code charset}, one of {@link #DOUBLE_BYTE}, each malformed or
   * unmappable sequence read as one U+FFFD that takes no ASCII byte after its first with it, as
   * WHATWG's decoders read them: Java's GB18030, x-MS950-HKSCS and x-eucJP-Open decoders take the
   * byte after a bad lead byte into the error, be it the {@code <} of a tag or a line feed.
   */
  private static String decodeDoubleByte(byte[] bytes, int offset, int length, Charset charset) {
    CharsetDecoder decoder =
        charset
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes, offset, length); // positions index bytes
    CharBuffer out = CharBuffer.allocate(length + 16); // seldom more chars than bytes
    for (CoderResult result = decoder.decode(in, out, true);
        !result.isUnderflow();
        result = decoder.decode(in, out, true)) {
      if (result.isOverflow()) {
        out = grown(out);
        continue;
      }
      int skipped = 1; // the error's bytes up to the first ASCII one after its first
      while (skipped < result.length() && bytes[in.position() + skipped] < 0) {
        skipped++;
      }
      in.position(in.position() + skipped);
      if (!out.hasRemaining()) {
        out = grown(out);
      }
      out.put('\uFFFD');
    }
    while (decoder.flush(out).isOverflow()) {
      out = grown(out);
    }
    return out.flip().toString();
  }

  /** A buffer twice the size of {@code out} holding what {@code out} holds, to write on. */
  private static CharBuffer grown(CharBuffer out) {
    return CharBuffer.allocate(2 * out.capacity()).put(out.flip());
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
    return decodeSingleByte(bytes, offset, length, WINDOWS_1252_CHARS);
  }

  /** {@code bytes} read through {@code table}, one of {@link #SINGLE_BYTE_TABLES}. */
  private static String decodeSingleByte(byte[] bytes, int offset, int length, char[] table) {
    char[] chars = new char[length];
    for (int i = 0; i < length; i++) {
      chars[i] = table[bytes[offset + i] & 0xFF];
    }
    return new String(chars);
  }

  /**
   * What each byte is in {@code charset}, by {@link #SINGLE_BYTE_TABLES}' rule; null if it is not a
   * single-byte charset after all.
   */
  private static char[] singleByteTable(Charset charset) {
    byte[] every = new byte[256];
    for (int i = 0; i < every.length; i++) {
      every[i] = (byte) i;
    }
    char[] chars = new String(every, charset).toCharArray();
    if (chars.length != every.length) {
      return null;
    }
    for (int i = 0x80; i <= 0x9F; i++) {
      if (chars[i] == '\uFFFD') { // undefined in Java's table: the C1 control, as WHATWG has it
        chars[i] = (char) i;
      }
    }
    return chars;
  }
}
