package dev.burnbox.server.mime;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.james.mime4j.codec.DecodeMonitor;
import org.apache.james.mime4j.field.DateTimeFieldLenientImpl;
import org.apache.james.mime4j.stream.RawField;

/**
 * Header values as readers see them: unfolding, RFC 2047 encoded words (adjacent words in one
 * charset are joined as bytes first, so a multi-byte character split across two words survives),
 * address lists and dates. Lenient: never throws. {@link #unfold} is public for other MIME parsers
 * that fill a {@link DecodedMailBuilder}.
 */
public final class HeaderText {
  private static final String ADDRESS_SPECIALS = ",;<>\"@:()[]\\";

  private HeaderText() {}

  /**
   * {@code value} with each line fold (a line break and the white space after it) made one space.
   */
  public static String unfold(String value) {
    int lineBreak = nextLineBreak(value, 0);
    if (lineBreak < 0) {
      return value.strip();
    }
    StringBuilder out = new StringBuilder(value.length());
    int copied = 0;
    while (lineBreak >= 0) {
      out.append(value, copied, lineBreak);
      copied = lineBreak;
      while (copied < value.length() && isFoldSpace(value.charAt(copied))) {
        copied++;
      }
      if (!out.isEmpty() && out.charAt(out.length() - 1) != ' ') {
        out.append(' ');
      }
      lineBreak = nextLineBreak(value, copied);
    }
    out.append(value, copied, value.length());
    return out.toString().strip();
  }

  private static int nextLineBreak(String value, int from) {
    for (int i = from; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\n' || c == '\r') {
        return i;
      }
    }
    return -1;
  }

  private static boolean isFoldSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  /**
   * Decodes the RFC 2047 encoded words in {@code value}; other text is kept as is. A word that
   * cannot be decoded is shown as written (RFC 2047, section 6.3): one whose text is not valid
   * base64 or Q encoding, and a run of words in a charset Java does not know whose bytes are not
   * UTF-8 (in an unknown charset, ASCII and valid UTF-8 bytes are taken for what they say: the
   * sender most likely meant them so, and ASCII reads the same in nearly every charset).
   */
  static String decodeEncodedWords(String value) {
    return decodeEncodedWords(value, false);
  }

  /**
   * Decodes encoded words; with {@code quoteSpecials}, decoded runs holding address punctuation are
   * put in double quotes, so that the result still splits into the same addresses.
   */
  static String decodeEncodedWords(String value, boolean quoteSpecials) {
    int start = value.indexOf("=?");
    if (start < 0) {
      return value;
    }
    StringBuilder out = new StringBuilder(value.length());
    WordRun run = new WordRun();
    int copied = 0;
    while (start >= 0) {
      EncodedWord word = EncodedWord.parse(value, start);
      byte[] bytes = word == null ? null : word.bytes();
      if (bytes == null) { // not an encoded word, or one that cannot be decoded: text as written
        start = value.indexOf("=?", word == null ? start + 2 : word.end());
        continue;
      }
      boolean adjacent = run.end >= 0 && value.substring(run.end, start).isBlank();
      if (!adjacent || !word.charset().equalsIgnoreCase(run.charset)) {
        run.flush(value, out, quoteSpecials);
        if (!adjacent) {
          out.append(value, copied, start);
        }
        run.start(word.charset(), start);
      }
      run.add(bytes, word.end());
      copied = word.end();
      start = value.indexOf("=?", word.end());
    }
    run.flush(value, out, quoteSpecials);
    out.append(value, copied, value.length());
    return out.toString();
  }

  /**
   * Adjacent encoded words in one charset, joined as bytes (a character may be split across two of
   * them), and where they stand in the value, to show them as written if they cannot be decoded.
   */
  private static final class WordRun {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private String charset;
    private int start = -1;
    private int end = -1;

    void start(String charsetName, int wordStart) {
      charset = charsetName;
      start = wordStart;
    }

    void add(byte[] wordBytes, int wordEnd) {
      bytes.writeBytes(wordBytes);
      end = wordEnd;
    }

    /** Appends the run's text to {@code out}, and empties it. */
    void flush(String value, StringBuilder out, boolean quote) {
      if (start < 0) {
        return;
      }
      String text = decode(bytes.toByteArray());
      if (text == null) {
        out.append(value, start, end);
      } else if (quote && containsAny(text, ADDRESS_SPECIALS)) {
        out.append('"').append(text.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
      } else {
        out.append(text);
      }
      bytes.reset();
      start = -1;
    }

    /** The text of {@code words}, or null if their charset is unknown and they are not UTF-8. */
    private String decode(byte[] words) {
      Charset known = TextCharsets.lookup(charset);
      if (known == null && !TextCharsets.isKnown(charset)) {
        return TextCharsets.utf8OrNull(words, 0, words.length);
      }
      return TextCharsets.decode(words, known);
    }
  }

  /**
   * The value of parameter {@code name} (such as a Content-Disposition's {@code filename}) of a
   * MIME field's raw, unfolded value ({@code attachment; filename="a.pdf"}), decoded: its RFC 2231
   * form ({@code name*=charset'language'%XX...}, or sections {@code name*0*=}, {@code name*1=}...
   * joined in order) if it has one, else its plain value with RFC 2047 encoded words decoded, as
   * mail clients do although RFC 2047 does not allow them there; null if there is no such
   * parameter. Charsets are read by {@link TextCharsets}, an unknown one as UTF-8 if valid, else
   * windows-1252.
   */
  static String parameter(String fieldValue, String name) {
    String plain = null;
    String extended = null;
    SortedMap<Integer, Parameter> sections = new TreeMap<>();
    for (Parameter parameter : Parameter.split(fieldValue)) {
      String key = parameter.name();
      if (key.equalsIgnoreCase(name)) {
        plain = plain == null ? parameter.value() : plain;
      } else if (key.length() > name.length()
          && key.charAt(name.length()) == '*'
          && key.regionMatches(true, 0, name, 0, name.length())) {
        String star = key.substring(name.length() + 1); // "", "0", "0*", "1"...
        String number = star.endsWith("*") ? star.substring(0, star.length() - 1) : star;
        if (star.isEmpty()) {
          extended = extended == null ? parameter.value() : extended;
        } else if (!number.isEmpty()
            && number.length() <= 3
            && number.chars().allMatch(c -> c >= '0' && c <= '9')) {
          sections.putIfAbsent(Integer.parseInt(number), parameter);
        }
      }
    }
    if (extended != null) {
      return decodeExtendedValue(List.of(new Parameter(name + "*", extended)));
    }
    List<Parameter> joined = new ArrayList<>();
    for (int i = 0; sections.containsKey(i); i++) { // RFC 2231: sections count up from 0
      joined.add(sections.get(i));
    }
    if (!joined.isEmpty()) {
      return decodeExtendedValue(joined);
    }
    return plain == null ? null : decodeEncodedWords(plain);
  }

  /** One {@code name=value} parameter of a MIME field, its value unquoted but not decoded. */
  private record Parameter(String name, String value) {
    /** The parameters after the first {@code ;} of {@code fieldValue}, outside quotes. */
    static List<Parameter> split(String fieldValue) {
      List<Parameter> parameters = new ArrayList<>();
      int i = nextSemicolon(fieldValue, 0);
      while (i < fieldValue.length()) {
        int equals = i + 1;
        while (equals < fieldValue.length() && "=;".indexOf(fieldValue.charAt(equals)) < 0) {
          equals++;
        }
        String name = fieldValue.substring(i + 1, equals).strip();
        if (equals == fieldValue.length() || fieldValue.charAt(equals) == ';') {
          i = equals; // a name without a value
          continue;
        }
        int start = equals + 1;
        while (start < fieldValue.length() && isFoldSpace(fieldValue.charAt(start))) {
          start++;
        }
        StringBuilder value = new StringBuilder();
        if (start < fieldValue.length() && fieldValue.charAt(start) == '"') {
          int k = start + 1;
          for (; k < fieldValue.length() && fieldValue.charAt(k) != '"'; k++) {
            if (fieldValue.charAt(k) == '\\' && k + 1 < fieldValue.length()) {
              k++;
            }
            value.append(fieldValue.charAt(k));
          }
          i = nextSemicolon(fieldValue, k + 1); // past the closing quote
        } else {
          i = nextSemicolon(fieldValue, start);
          value.append(fieldValue, start, i);
        }
        parameters.add(new Parameter(name, value.toString().strip()));
      }
      return parameters;
    }

    /** The index of the first {@code ;} at or after {@code from} outside quotes, or the length. */
    private static int nextSemicolon(String text, int from) {
      boolean quoted = false;
      for (int i = from; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == '\\' && quoted) {
          i++;
        } else if (c == '"') {
          quoted = !quoted;
        } else if (c == ';' && !quoted) {
          return i;
        }
      }
      return text.length();
    }
  }

  /**
   * RFC 2231 sections in order, each {@code name*N*} (percent-encoded, the first with {@code
   * charset'language'} in front) or {@code name*N} (as it is), decoded as one.
   */
  private static String decodeExtendedValue(List<Parameter> sections) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    String charsetName = null;
    for (int i = 0; i < sections.size(); i++) {
      String value = sections.get(i).value();
      if (!sections.get(i).name().endsWith("*")) {
        bytes.writeBytes(
            value.getBytes(StandardCharsets.UTF_8)); // ASCII, if the sender kept to the RFC
        continue;
      }
      if (i == 0) {
        int charsetEnd = value.indexOf('\'');
        int languageEnd = charsetEnd < 0 ? -1 : value.indexOf('\'', charsetEnd + 1);
        if (languageEnd >= 0) {
          charsetName = value.substring(0, charsetEnd);
          value = value.substring(languageEnd + 1);
        }
      }
      for (int k = 0; k < value.length(); k++) {
        char c = value.charAt(k);
        int high = k + 2 < value.length() ? hexDigit(value.charAt(k + 1)) : -1;
        int low = k + 2 < value.length() ? hexDigit(value.charAt(k + 2)) : -1;
        if (c == '%' && high >= 0 && low >= 0) {
          bytes.write(high << 4 | low);
          k += 2;
        } else {
          bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    return TextCharsets.decode(bytes.toByteArray(), TextCharsets.lookup(charsetName));
  }

  /** The value of ASCII hex digit {@code c} (either case), or -1. */
  private static int hexDigit(char c) {
    return c < 0x80 ? Character.digit(c, 16) : -1;
  }

  private static boolean containsAny(String text, String chars) {
    for (int i = 0; i < text.length(); i++) {
      if (chars.indexOf(text.charAt(i)) >= 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * The addresses of an address-list header (raw, unfolded value) in display form: {@code Name
   * <addr>} or {@code addr}. Group labels ({@code undisclosed-recipients:;}) are dropped.
   */
  static List<String> addresses(String rawValue) {
    String value = decodeEncodedWords(rawValue, true);
    List<String> result = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    int angle = 0;
    int comment = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (quoted) {
        current.append(c);
        if (c == '\\' && i + 1 < value.length()) {
          current.append(value.charAt(++i));
        } else if (c == '"') {
          quoted = false;
        }
        continue;
      }
      switch (c) {
        case '"' -> quoted = true;
        case '<' -> angle++;
        case '>' -> angle = Math.max(0, angle - 1);
        case '(' -> comment++;
        case ')' -> comment = Math.max(0, comment - 1);
        default -> {}
      }
      boolean separator = (c == ',' || c == ';') && angle == 0 && comment == 0;
      boolean groupLabel = c == ':' && angle == 0 && comment == 0 && current.indexOf("@") < 0;
      if (separator) {
        addAddress(current, result);
      } else if (groupLabel) {
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    addAddress(current, result);
    return result;
  }

  private static void addAddress(StringBuilder text, List<String> into) {
    String address = formatAddress(text.toString().strip());
    text.setLength(0);
    if (!address.isEmpty()) {
      into.add(address);
    }
  }

  private static String formatAddress(String address) {
    int open = address.lastIndexOf('<');
    int close = address.lastIndexOf('>');
    if (open >= 0 && close > open) {
      String name = unquote(address.substring(0, open).strip());
      String mailbox = address.substring(open + 1, close).strip();
      if (mailbox.isEmpty()) {
        return name;
      }
      return name.isEmpty() ? mailbox : name + " <" + mailbox + ">";
    }
    int comment = address.indexOf('(');
    int commentEnd = address.lastIndexOf(')');
    if (comment > 0 && commentEnd > comment) {
      String name = unquote(address.substring(comment + 1, commentEnd).strip());
      String mailbox = address.substring(0, comment).strip();
      return name.isEmpty() ? mailbox : name + " <" + mailbox + ">";
    }
    return unquote(address);
  }

  private static String unquote(String text) {
    if (text.indexOf('"') < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' && i + 1 < text.length()) {
        out.append(text.charAt(++i));
      } else if (c != '"') {
        out.append(c);
      }
    }
    return out.toString().strip();
  }

  /**
   * The instant of a Date header value: read by {@link #rfc5322Date} if it is in RFC 5322's syntax
   * (its obsolete forms included, and the zone abbreviations of {@link #ZONE_NAMES}), else by
   * mime4j's lenient parser if that can read it (which reads a zone name it does not know as GMT).
   */
  static Optional<Instant> date(String value) {
    Instant rfc5322 = rfc5322Date(value);
    if (rfc5322 != null) {
      return Optional.of(rfc5322);
    }
    return lenientDate(value);
  }

  /** The instant of a Date header value as mime4j's lenient RFC 5322 parser reads it. */
  static Optional<Instant> lenientDate(String value) {
    try {
      Date date =
          DateTimeFieldLenientImpl.PARSER
              .parse(new RawField("Date", value), DecodeMonitor.SILENT)
              .getDate();
      return Optional.ofNullable(date).map(Date::toInstant);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static final String MONTHS = "janfebmaraprmayjunjulaugsepoctnovdec";
  private static final String DAYS = "montuewedthufrisatsun";

  /**
   * The zone names a date may end with, and their offsets. First RFC 5322's obsolete ones (section
   * 4.3) and UTC; the military single letters are read as UTC, not here: RFC 5322 says to take them
   * as -0000, a time in UTC whose local zone is unknown, since RFC 822 had their signs the wrong
   * way round.
   *
   * <p>Then abbreviations RFC 5322 does not list but senders write, each of one zone only: CET/CEST
   * and MET/MEST (Central Europe), EET/EEST, WET/WEST, MSK (Moscow), JST (Japan), KST (Korea), HKT
   * (Hong Kong), SGT (Singapore), AEST/AEDT, ACST/ACDT and AWST (Australia), NZST/NZDT (New
   * Zealand), HST (Hawaii), AKST/AKDT (Alaska). Left out as ambiguous, so that mime4j's reading
   * stands: IST (India, Ireland or Israel), BST (British Summer or Bangladesh), AST (Atlantic or
   * Arabia), and any other name; CST, EST and the rest of RFC 5322's are read as RFC 5322 says
   * (North America), whatever else they may stand for.
   */
  private static final Map<String, ZoneOffset> ZONE_NAMES =
      Map.ofEntries(
          Map.entry("ut", ZoneOffset.UTC),
          Map.entry("utc", ZoneOffset.UTC),
          Map.entry("gmt", ZoneOffset.UTC),
          Map.entry("est", ZoneOffset.ofHours(-5)),
          Map.entry("edt", ZoneOffset.ofHours(-4)),
          Map.entry("cst", ZoneOffset.ofHours(-6)),
          Map.entry("cdt", ZoneOffset.ofHours(-5)),
          Map.entry("mst", ZoneOffset.ofHours(-7)),
          Map.entry("mdt", ZoneOffset.ofHours(-6)),
          Map.entry("pst", ZoneOffset.ofHours(-8)),
          Map.entry("pdt", ZoneOffset.ofHours(-7)),
          // not in RFC 5322
          Map.entry("wet", ZoneOffset.UTC),
          Map.entry("west", ZoneOffset.ofHours(1)),
          Map.entry("cet", ZoneOffset.ofHours(1)),
          Map.entry("cest", ZoneOffset.ofHours(2)),
          Map.entry("met", ZoneOffset.ofHours(1)),
          Map.entry("mest", ZoneOffset.ofHours(2)),
          Map.entry("eet", ZoneOffset.ofHours(2)),
          Map.entry("eest", ZoneOffset.ofHours(3)),
          Map.entry("msk", ZoneOffset.ofHours(3)),
          Map.entry("hkt", ZoneOffset.ofHours(8)),
          Map.entry("sgt", ZoneOffset.ofHours(8)),
          Map.entry("awst", ZoneOffset.ofHours(8)),
          Map.entry("jst", ZoneOffset.ofHours(9)),
          Map.entry("kst", ZoneOffset.ofHours(9)),
          Map.entry("acst", ZoneOffset.ofHoursMinutes(9, 30)),
          Map.entry("acdt", ZoneOffset.ofHoursMinutes(10, 30)),
          Map.entry("aest", ZoneOffset.ofHours(10)),
          Map.entry("aedt", ZoneOffset.ofHours(11)),
          Map.entry("nzst", ZoneOffset.ofHours(12)),
          Map.entry("nzdt", ZoneOffset.ofHours(13)),
          Map.entry("hst", ZoneOffset.ofHours(-10)),
          Map.entry("akst", ZoneOffset.ofHours(-9)),
          Map.entry("akdt", ZoneOffset.ofHours(-8)));

  /**
   * The instant of a date in RFC 5322's syntax, {@code [Fri, ]27 Nov 2026 04:19:48 +0000}, its
   * obsolete forms (section 4.3) included: comments and any white space between the tokens, no
   * seconds, a two-digit year (00-49 are 2000-2049, 50-99 are 1950-1999) or a three-digit one (1900
   * added), and the zone names UT, GMT, EST/EDT, CST/CDT, MST/MDT, PST/PDT, with UTC and the
   * military letters read as UTC, and the common zone abbreviations of one zone only that RFC 5322
   * does not list (CET, JST... {@link #ZONE_NAMES}). Names are read in either case. Whatever
   * follows the zone is ignored, as mime4j's parser ignores it, and fields past their range roll
   * over as in that parser (the 31st of November is the 1st of December). Null for anything else
   * (no zone, a zone name not listed, an offset beyond 18 hours), which is left to mime4j's lenient
   * parser.
   *
   * <p>Read by hand: mime4j's parser took a quarter of a 2 KB mail's decoding.
   */
  static Instant rfc5322Date(String value) {
    DateTokens tokens = new DateTokens(value);
    if (tokens.atLetter()) { // the day's name, which the date says again
      String day = tokens.word();
      if (day.length() != 3 || DAYS.indexOf(day) % 3 != 0 || !tokens.symbol(',')) {
        return null;
      }
    }
    int day = tokens.number(1, 2);
    String monthName = tokens.word();
    int month = monthName.length() == 3 ? MONTHS.indexOf(monthName) : -1;
    int year = tokens.number(2, 4);
    int yearDigits = tokens.lastDigits;
    int hour = tokens.number(1, 2);
    int minute = tokens.symbol(':') ? tokens.number(2, 2) : -1;
    int second = tokens.symbol(':') ? tokens.number(2, 2) : 0;
    if (day < 0
        || month < 0
        || month % 3 != 0
        || year < 0
        || hour < 0
        || minute < 0
        || second < 0) {
      return null;
    }
    if (yearDigits == 2) {
      year += year < 50 ? 2000 : 1900;
    } else if (yearDigits == 3) {
      year += 1900;
    }
    ZoneOffset zone = tokens.zone();
    if (zone == null) {
      return null;
    }
    return LocalDate.of(year, month / 3 + 1, 1)
        .atStartOfDay()
        .plusDays(day - 1L)
        .plusHours(hour)
        .plusMinutes(minute)
        .plusSeconds(second)
        .toInstant(zone);
  }

  /**
   * The tokens of a date, read left to right: each method first skips white space and comments (RFC
   * 5322's CFWS), and says whether the token it wants comes next.
   */
  private static final class DateTokens {
    private final String v;
    private int i;
    int lastDigits; // how many digits the last number() read

    DateTokens(String value) {
      this.v = value;
    }

    private void skipSpaceAndComments() {
      int depth = 0;
      for (; i < v.length(); i++) {
        char c = v.charAt(i);
        if (depth > 0 && c == '\\') {
          i++; // a quoted pair in a comment
        } else if (c == '(') {
          depth++;
        } else if (depth > 0 && c == ')') {
          depth--;
        } else if (depth == 0 && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
          return;
        }
      }
    }

    boolean atLetter() {
      skipSpaceAndComments();
      return i < v.length() && isLetter(v.charAt(i));
    }

    /** The ASCII letters that come next, in lower case; "" if none. */
    String word() {
      skipSpaceAndComments();
      int start = i;
      while (i < v.length() && isLetter(v.charAt(i))) {
        i++;
      }
      return v.substring(start, i).toLowerCase(Locale.ROOT);
    }

    /** Reads {@code c} if it comes next. */
    boolean symbol(char c) {
      skipSpaceAndComments();
      if (i < v.length() && v.charAt(i) == c) {
        i++;
        return true;
      }
      return false;
    }

    /** The number of the {@code min} to {@code max} ASCII digits that come next, or -1. */
    int number(int min, int max) {
      skipSpaceAndComments();
      int start = i;
      int n = 0;
      while (i < v.length() && v.charAt(i) >= '0' && v.charAt(i) <= '9') {
        n = i - start < max ? 10 * n + (v.charAt(i) - '0') : n;
        i++;
      }
      lastDigits = i - start;
      return lastDigits >= min && lastDigits <= max ? n : -1;
    }

    /** The zone that comes next: {@code +hhmm}, {@code -hhmm} or a name; null if none is. */
    ZoneOffset zone() {
      skipSpaceAndComments();
      if (i < v.length() && (v.charAt(i) == '+' || v.charAt(i) == '-')) {
        int sign = v.charAt(i++) == '-' ? -1 : 1;
        int start = i;
        int hhmm = number(4, 4);
        if (start != i - 4
            || hhmm < 0
            || hhmm % 100 > 59
            || hhmm / 100 * 60 + hhmm % 100 > 18 * 60) {
          return null; // white space after the sign, or out of range
        }
        return ZoneOffset.ofHoursMinutes(sign * (hhmm / 100), sign * (hhmm % 100));
      }
      String name = word();
      ZoneOffset named = ZONE_NAMES.get(name);
      if (named != null) {
        return named;
      }
      boolean military = name.length() == 1 && name.charAt(0) != 'j';
      return military ? ZoneOffset.UTC : null;
    }

    private static boolean isLetter(char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
  }

  /** One {@code =?charset?B|Q?text?=} word found in a header value. */
  private record EncodedWord(String charset, boolean base64, String text, int end) {
    static EncodedWord parse(String value, int start) {
      int charsetEnd = value.indexOf('?', start + 2);
      if (charsetEnd < 0 || charsetEnd + 3 >= value.length() || charsetEnd - start > 80) {
        return null;
      }
      char encoding = Character.toUpperCase(value.charAt(charsetEnd + 1));
      if ((encoding != 'B' && encoding != 'Q') || value.charAt(charsetEnd + 2) != '?') {
        return null;
      }
      int textStart = charsetEnd + 3;
      int textEnd = value.indexOf("?=", textStart);
      if (textEnd < 0) {
        return null;
      }
      for (int i = textStart; i < textEnd; i++) {
        char c = value.charAt(i);
        if (c == ' ' || c == '\t') {
          return null;
        }
      }
      String charset = value.substring(start + 2, charsetEnd);
      int language = charset.indexOf('*');
      if (language >= 0) {
        charset = charset.substring(0, language);
      }
      return new EncodedWord(
          charset, encoding == 'B', value.substring(textStart, textEnd), textEnd + 2);
    }

    /** The bytes the word's text encodes, or null if it is not valid base64 or Q encoding. */
    byte[] bytes() {
      if (base64) {
        return Base64Lenient.decode(text);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == '=') {
          int high = i + 2 < text.length() ? hexDigit(text.charAt(i + 1)) : -1;
          int low = i + 2 < text.length() ? hexDigit(text.charAt(i + 2)) : -1;
          if (high < 0 || low < 0) {
            return null;
          }
          out.write(high << 4 | low);
          i += 2;
        } else if (c == '_') {
          out.write(' ');
        } else if (c > ' ' && c < 0x7F) {
          out.write(c);
        } else {
          return null; // Q encoding is printable ASCII only
        }
      }
      return out.toByteArray();
    }
  }
}
