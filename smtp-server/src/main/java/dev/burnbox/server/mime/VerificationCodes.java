package dev.burnbox.server.mime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The likely one-time codes of a decoded message, for tests that read a verification code.
 *
 * <p><b>What is a code.</b> A number of 4 to 8 digits, also written in groups of 2 to 4 digits
 * joined by one space, hyphen or dot ({@code 493 027}, {@code 1234-5678}, {@code 12 34 56}; groups
 * joined by dots have 3 or 4 digits), or a word of 6 to 8 capitals and digits with at least one
 * digit ({@code K7QX2M}). A number may follow one to three capitals and a hyphen ({@code
 * G-123456}): the code is then written with them but its value is the digits ({@code 123456}),
 * which is what the form asks for. A code may follow its keyword right after {@code =} or {@code :}
 * ({@code code=918273}). It starts within {@value #NEAR} characters after a word that announces a
 * code (code, verification, verify, confirm, OTP, one-time, passcode, password, PIN, token,
 * security, login, and German, French, Spanish, Portuguese, Italian and Dutch equivalents), or ends
 * within {@value #NEAR_BEFORE} characters before one when it begins a sentence ("493027 is your
 * code"). A number is always read whole: a longer number, or one that runs past the window, is
 * never cut into a shorter code. Fullwidth forms are read as their ASCII ones, so fullwidth digits
 * are digits (one char for one: NFKC of the whole text could make it 18 times longer).
 *
 * <p><b>What is skipped.</b> Anything inside a URL ({@code http://}, {@code https://}, {@code
 * www.}) or an e-mail address; a number or word joined to other letters, digits or {@code . , / : -
 * + # @ = % °}; a run of digit groups that is longer than 8 digits or has a group of another size
 * (phone numbers such as {@code 0800 123 4567}, thousands such as {@code 1 234}); a number right
 * after "order", "invoice", "ticket", "ref", "no.", "#", "account number" and the like (an
 * identifier), after "tel", "phone", "call", "+49" or "(030)" (a phone number), next to a currency
 * ({@code $1234}, {@code 1234 EUR}), or before a unit of time or {@code %} ("10-15 minutes"); a
 * postcode in an address ("Musterstraße 12, 10115 Berlin", "1015 CJ Amsterdam", "IL 62704"); groups
 * that read as a date ({@code 2026-11-27}, {@code 27-11-26}); and a year from 1900 to 2099 unless
 * the keyword announces it directly ("your code is 2026", "Code: 2026").
 *
 * <p>Searched in the subject and the visible text ({@link DecodedMail#scanText()}: text parts, then
 * the HTML's text, invisible characters dropped). Each code is reported once, with the text around
 * it, closest to its keyword first (one before its keyword ranks after every one after a keyword),
 * the earlier in the text first among codes as close; a code in a sentence that calls it previous,
 * old, expired, invalid or no longer valid ranks after all others. Heuristic by nature: a code with
 * no announcing word is not found. Stateless and thread-safe; O(size of the text · log of the
 * keywords in it).
 */
public final class VerificationCodes {
  /** How far after a keyword a code may start, in characters. */
  static final int NEAR = 80;

  /** How far before a keyword a code may end ("493027 is your code"). */
  static final int NEAR_BEFORE = 30;

  private static final Pattern KEYWORD =
      Pattern.compile(
          "(?iu)\\b(?:codes?|verification|verify|verif\\w*|confirm\\w*|otp|one[- ]time|passcode"
              + "|password|pin|token|security|sign[- ]?in|log[- ]?in|best\\u00e4tigung\\w*"
              + "|bestaetigung\\w*|sicherheitscode|c\\u00f3digo|codigo|v\\u00e9rification"
              + "|verificaci\\u00f3n|verifica\\u00e7\\u00e3o|codice|verificatie\\w*|inlogcode)\\b");

  /**
   * The text read token by token, each token whole: a URL, a number (digit groups joined by single
   * spaces, hyphens or dots, not joined to a letter) or a word of letters, digits and underscores.
   */
  private static final Pattern TOKEN =
      Pattern.compile(
          "(?<url>(?i:https?://|www\\.)\\S++)"
              + "|(?<number>\\d++(?:[ .-]\\d++(?![\\p{L}\\p{N}_]))*+)(?![\\p{L}\\p{N}_])"
              + "|(?<word>[\\p{L}\\p{N}_]++)");

  private static final Pattern SEPARATOR = Pattern.compile("[ .-]");

  /** A word of capitals and digits that can be a code (the digit is checked apart). */
  private static final Pattern CAPITALS_AND_DIGITS = Pattern.compile("[A-Z0-9]{6,8}");

  /**
   * Words after which a number is an identifier: "order 4821", "Rechnung: 4821", "Ref AB12CD34".
   */
  private static final Set<String> IDENTIFIER_WORDS =
      words(
          "order invoice ticket ref reference booking reservation case tracking customer "
              + "id bestellung bestellnummer rechnung rechnungsnummer auftrag auftragsnummer "
              + "kundennummer buchung buchungsnummer vorgang vorgangsnummer referenz commande "
              + "facture r\u00e9servation dossier r\u00e9f\u00e9rence pedido factura reserva "
              + "referencia encomenda fatura refer\u00eancia ordine fattura prenotazione "
              + "riferimento bestelling bestelnummer factuur factuurnummer boeking ordernummer "
              + "klantnummer referentie kontonummer");

  /** Words that make a number an identifier with a number label: "account number 12345678". */
  private static final Set<String> NUMBERED_WORDS =
      words("account konto compte cuenta conta conto rekening member membership contract");

  /** Number labels between such a word and its number: "account no 1234", "Konto Nr. 1234". */
  private static final Set<String> NUMBER_LABELS = Set.of("number", "no", "nr");

  /**
   * Words that say a code in their sentence is no longer the one to type: "Your previous code
   * 654321 is no longer valid."
   */
  private static final Pattern STALE =
      Pattern.compile(
          "(?iu)\\b(?:previous|old|older|earlier|former|expired|invalid|no longer valid"
              + "|not valid any ?more|vorherige\\w*|alte[nrs]?|abgelaufen\\w*|ung\\u00fcltig\\w*)\\b");

  /** How far a code's sentence is read either side of it for {@link #STALE} words. */
  private static final int LONGEST_SENTENCE = 200;

  /** Words after which a number is a phone number: "Tel. 1234 5678", "call 555 1234". */
  private static final Set<String> PHONE_WORDS =
      words(
          "tel phone telephone call fax hotline telefon telefonnummer t\u00e9l\u00e9phone "
              + "tel\u00e9fono telefone telefono telefoon");

  /** Signs that make the number after them an identifier on their own: "no. 4821", "n° 4821". */
  private static final Set<String> NUMBER_SIGNS = Set.of("no.", "nr.", "n.", "n\u00b0", "n\u00ba");

  /**
   * Words between such a word and its number: "order number", "order no 4821", "call us at"; and
   * "is" right before the number: "Your account number is 12345678".
   */
  private static final Set<String> LABEL_TAILS =
      Set.of("number", "no", "nr", "us", "at", "on", "is");

  /** What makes the number after it a phone number: "+49 1234 5678", "(030) 1234567". */
  private static final Pattern PHONE_PREFIX =
      Pattern.compile("(?:\\+\\d{1,4}|\\(\\d{1,5}\\))[\\s.-]?\\z");

  /** What follows an area code in parentheses: "(0800) 123". */
  private static final Pattern AREA_CODE_END = Pattern.compile("\\)\\s?\\d");

  /** Currencies written as words: "EUR 1234", "1234 dollars". */
  private static final Set<String> CURRENCY_WORDS =
      words(
          "eur euro euros usd gbp chf cad aud jpy sek nok dkk pln brl mxn inr dollar "
              + "dollars reais pound pounds");

  /** Units of time after a number, which make it a duration: "10-15 minutes", "1440 Minuten". */
  private static final Set<String> TIME_UNITS =
      words(
          "sec secs second seconds min mins minute minutes hour hours hr hrs day days "
              + "week weeks month months year years sekunde sekunden minuten stunde stunden tag "
              + "tage tagen woche wochen monat monate monaten jahr jahre jahren seconde "
              + "secondes heure heures jour jours semaine semaines mois segundo segundos minuto "
              + "minutos hora horas d\u00eda d\u00edas dia dias semana semanas meses a\u00f1o "
              + "a\u00f1os ano anos secondi minuti ore giorni settimane mesi anni seconden "
              + "minuut uur dagen weken maanden jaar jaren");

  private static Set<String> words(String spaced) {
    return Set.of(spaced.split(" "));
  }

  /** A place name after a postcode: "10115 Berlin", "1015 CJ Amsterdam". */
  private static final Pattern PLACE_AFTER = Pattern.compile("\\s(?:[A-Z]{2}\\s)?\\p{Lu}\\p{L}");

  /** What a postcode follows in an address, but for spaces: a line end, comma, dot or bar. */
  private static final String ADDRESS_SEPARATORS = "\n,\u00b7|\u2022\u2013";

  /** A US state before a ZIP code: "Springfield, IL 62704". */
  private static final Pattern STATE_BEFORE = Pattern.compile(",\\s*[A-Z]{2}\\s\\z");

  /** A street on the line before a postcode: "Musterstraße 12", "10 rue de Rivoli". */
  private static final Pattern STREET =
      Pattern.compile(
          "(?iu)(?:stra(?:\\u00dfe|sse)|straat|gracht|laan|weg|plein|allee|platz|gasse)\\b"
              + "|\\b(?:street|avenue|road|boulevard|rue|calle|avenida|rua|via|piazza|viale)\\b"
              + "|\\b(?:str|st|ave|av|rd|blvd)\\b");

  /** What lies between a keyword and a code it announces directly: "code: ", "code is ". */
  private static final Pattern DIRECTLY =
      Pattern.compile("(?iu)\\s*[:=]?\\s*(?:(?:is|ist|lautet|est|es|\\u00e9|\\u00e8)\\s*:?\\s*)?");

  /**
   * One code.
   *
   * @param code the code as written (digit groups keep their separator), for display
   * @param value the code to type: its digits and capitals without separators
   * @param context up to 40 characters either side, on one line
   */
  public record Code(String code, String value, String context) {}

  private VerificationCodes() {}

  /** The likely codes of {@code mail}; see the class comment. */
  public static List<Code> of(DecodedMail mail) {
    return find(mail.scanText());
  }

  /** The likely codes of {@code text}, closest to a keyword first; see the class comment. */
  /**
   * {@code text} with the fullwidth forms of ASCII (U+FF01 to U+FF5E) and the ideographic space
   * read as ASCII, char for char: what NFKC does to them, without its growth elsewhere.
   */
  private static String withFullwidthAsAscii(String text) {
    char[] chars = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      char ascii = c >= '\uFF01' && c <= '\uFF5E' ? (char) (c - 0xFEE0) : c == '\u3000' ? ' ' : c;
      if (ascii != c) {
        if (chars == null) {
          chars = text.toCharArray();
        }
        chars[i] = ascii;
      }
    }
    return chars == null ? text : new String(chars);
  }

  static List<Code> find(String written) {
    String text = withFullwidthAsAscii(written);
    Keywords keywords = Keywords.in(text);
    Map<String, Found> best = new LinkedHashMap<>(); // value -> closest occurrence
    Matcher token = TOKEN.matcher(text);
    int read = 0; // every token that starts before this index has been read
    for (int k = 0; k < keywords.starts.length; k++) {
      int last = keywords.ends[k] + NEAR; // the last start of a token this keyword announces
      if (read > last) {
        continue;
      }
      int first = tokenStart(text, Math.max(read, keywords.starts[k] - NEAR_BEFORE), read);
      token.region(first, text.length());
      read = text.length();
      while (token.find()) {
        if (token.start() > last) {
          read = token.start();
          break;
        }
        Found found = candidate(text, token, keywords);
        if (found != null) {
          Found known = best.get(found.value);
          if (known == null || Found.RANK.compare(found, known) < 0) {
            best.put(found.value, found);
          }
        }
      }
    }
    List<Found> ranked = new ArrayList<>(best.values());
    ranked.sort(Found.RANK);
    List<Code> out = new ArrayList<>(ranked.size());
    for (Found found : ranked) {
      out.add(
          new Code(
              text.substring(found.start, found.end),
              found.value,
              context(text, found.start, found.end)));
    }
    return out;
  }

  /**
   * Where the token that covers {@code at} starts (not before {@code floor}): after white space
   * that no token spans (only a number spans a space, between two of its digit groups).
   */
  private static int tokenStart(String text, int at, int floor) {
    int i = at;
    while (i > floor) {
      char c = text.charAt(i - 1);
      boolean inNumber =
          c == ' '
              && i >= 2
              && i < text.length()
              && isDigit(text.charAt(i - 2))
              && isDigit(text.charAt(i));
      if (" \t\n\u000B\f\r".indexOf(c) >= 0 && !inNumber) {
        break;
      }
      i--;
    }
    return i;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** The token as a code near a keyword, or null if it is no code or too far from one. */
  private static Found candidate(String text, Matcher token, Keywords keywords) {
    if (token.start("url") >= 0) {
      return null;
    }
    boolean number = token.start("number") >= 0;
    int digitsStart = token.start();
    int start = number ? letterPrefixStart(text, digitsStart) : digitsStart;
    int end = token.end();
    int keywordEnd = keywords.lastEndAtOrBefore(start);
    int after = keywordEnd >= 0 && start - keywordEnd <= NEAR ? start - keywordEnd : -1;
    int keywordStart = keywords.firstStartAtOrAfter(end);
    int before =
        keywordStart >= 0 && keywordStart - end <= NEAR_BEFORE && startsSentence(text, start)
            ? keywordStart - end
            : -1;
    if (after < 0 && before < 0) {
      return null;
    }
    String value = number ? numberValue(text, digitsStart, end) : wordValue(token.group());
    boolean rightAfterKeyword = keywordEnd >= 0 && keywordEnd == start - 1;
    if (value == null
        || joinedToMore(text, start, end, rightAfterKeyword)
        || identifierOrPhone(text, start, end)) {
      return null;
    }
    if (number) {
      if (priceOrQuantity(text, digitsStart, end)
          || postcode(text, digitsStart, end, value)
          || (isYear(text, digitsStart, end)
              && !(after >= 0 && DIRECTLY.matcher(text).region(keywordEnd, start).matches()))) {
        return null;
      }
    }
    int distance = after >= 0 ? after : before + NEAR; // before its keyword: ranked after
    return new Found(value, inStaleSentence(text, start, end), distance, start, end);
  }

  /**
   * Where a number at {@code digitsStart} starts with its prefix of one to three capitals and a
   * hyphen ({@code G-123456}), if it has one that stands alone; else {@code digitsStart}.
   */
  private static int letterPrefixStart(String text, int digitsStart) {
    if (digitsStart < 2 || text.charAt(digitsStart - 1) != '-') {
      return digitsStart;
    }
    int i = digitsStart - 1;
    while (i > 0
        && digitsStart - 1 - i < 3
        && text.charAt(i - 1) >= 'A'
        && text.charAt(i - 1) <= 'Z') {
      i--;
    }
    boolean alone =
        i == 0 || !(Character.isLetterOrDigit(text.charAt(i - 1)) || text.charAt(i - 1) == '_');
    return i < digitsStart - 1 && alone ? i : digitsStart;
  }

  /**
   * Whether the sentence of {@code text[start, end)} (read at most {@value #LONGEST_SENTENCE}
   * characters either side, up to {@code . ! ?} or a line end) says it is stale: previous, old,
   * expired, invalid, no longer valid.
   */
  private static boolean inStaleSentence(String text, int start, int end) {
    int from = start;
    while (from > Math.max(0, start - LONGEST_SENTENCE)
        && ".!?\n".indexOf(text.charAt(from - 1)) < 0) {
      from--;
    }
    int to = end;
    int last = Math.min(text.length(), end + LONGEST_SENTENCE);
    while (to < last && ".!?\n".indexOf(text.charAt(to)) < 0) {
      to++;
    }
    return STALE.matcher(text).region(from, to).find();
  }

  /**
   * A code where it was found: whether its sentence calls it stale, its distance to the keyword,
   * its place in the text.
   */
  private record Found(String value, boolean stale, int distance, int start, int end) {
    /** Best first: a current code before a stale one, then the closest, then the earliest. */
    static final Comparator<Found> RANK =
        Comparator.comparing(Found::stale)
            .thenComparingInt(Found::distance)
            .thenComparingInt(Found::start);
  }

  /** The keywords of a text, in order; they do not overlap, so their ends are in order too. */
  private record Keywords(int[] starts, int[] ends) {
    static Keywords in(String text) {
      List<int[]> found = new ArrayList<>();
      Matcher keyword = KEYWORD.matcher(text);
      while (keyword.find()) {
        found.add(new int[] {keyword.start(), keyword.end()});
      }
      return new Keywords(
          found.stream().mapToInt(k -> k[0]).toArray(),
          found.stream().mapToInt(k -> k[1]).toArray());
    }

    /** The end of the last keyword that ends at or before {@code at}, or -1. */
    int lastEndAtOrBefore(int at) {
      int i = Arrays.binarySearch(ends, at);
      int index = i >= 0 ? i : -i - 2;
      return index >= 0 ? ends[index] : -1;
    }

    /** The start of the first keyword that starts at or after {@code at}, or -1. */
    int firstStartAtOrAfter(int at) {
      int i = Arrays.binarySearch(starts, at);
      int index = i >= 0 ? i : -i - 1;
      return index < starts.length ? starts[index] : -1;
    }
  }

  /**
   * The digits of a number token if it can be a code: 4 to 8 digits, or groups of 2 to 4 digits (3
   * to 4 when joined by dots) with one separator throughout, 4 to 8 digits in all, not a date.
   */
  private static String numberValue(String text, int start, int end) {
    String number = text.substring(start, end);
    String[] groups = SEPARATOR.split(number);
    String digits = String.join("", groups);
    if (digits.length() < 4 || digits.length() > 8) {
      return null;
    }
    if (groups.length == 1) {
      return digits;
    }
    char separator = number.charAt(groups[0].length());
    int shortest = separator == '.' ? 3 : 2;
    int at = 0;
    for (String group : groups) {
      at += group.length();
      if (group.length() < shortest
          || group.length() > 4
          || (at < number.length() && number.charAt(at) != separator)) {
        return null;
      }
      at++;
    }
    return readsAsDate(groups) ? null : digits;
  }

  /** Whether digit groups read as a date or a range of years: 2026-11-27, 27-11-26, 2025-2026. */
  private static boolean readsAsDate(String[] groups) {
    if (groups.length == 2) {
      return isYear(groups[0]) && (isYear(groups[1]) || inRange(groups[1], 1, 12));
    }
    if (groups.length != 3) {
      return false;
    }
    if (groups[0].length() == 4) {
      return isYear(groups[0]) && inRange(groups[1], 1, 12) && inRange(groups[2], 1, 31);
    }
    boolean year = groups[2].length() == 2 || isYear(groups[2]);
    boolean dayMonth = inRange(groups[0], 1, 31) && inRange(groups[1], 1, 12);
    boolean monthDay = inRange(groups[0], 1, 12) && inRange(groups[1], 1, 31);
    return year && groups[0].length() <= 2 && groups[1].length() <= 2 && (dayMonth || monthDay);
  }

  private static boolean isYear(String digits) {
    return digits.length() == 4 && inRange(digits, 1900, 2099);
  }

  private static boolean isYear(String text, int start, int end) {
    return isYear(text.substring(start, end));
  }

  private static boolean inRange(String digits, int low, int high) {
    int value = Integer.parseInt(digits);
    return value >= low && value <= high;
  }

  /** A word of 6 to 8 capitals and digits with a letter and a digit, or null. */
  private static String wordValue(String word) {
    return CAPITALS_AND_DIGITS.matcher(word).matches()
            && word.chars().anyMatch(c -> c >= '0' && c <= '9')
            && word.chars().anyMatch(c -> c >= 'A' && c <= 'Z')
        ? word
        : null;
  }

  /**
   * Whether the token is part of something longer: an e-mail address, a path, a time, a decimal
   * number, a signed or tagged number, a percentage; but not a code joined to its keyword by {@code
   * =} or {@code :} ({@code rightAfterKeyword}).
   */
  private static boolean joinedToMore(String text, int start, int end, boolean rightAfterKeyword) {
    if (start > 0) {
      char before = text.charAt(start - 1);
      boolean keywordSign = rightAfterKeyword && (before == '=' || before == ':'); // code=918273
      if ((".,/:-+#@=".indexOf(before) >= 0 && !keywordSign)
          || Character.getType(before) == Character.CURRENCY_SYMBOL) {
        return true;
      }
    }
    if (end < text.length()) {
      char after = text.charAt(end);
      if ("/:-+@%\u00b0".indexOf(after) >= 0
          || Character.getType(after) == Character.CURRENCY_SYMBOL
          || ((after == '.' || after == ',')
              && end + 1 < text.length()
              && Character.isLetterOrDigit(text.charAt(end + 1)))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a label before the token makes it an identifier ("Order #", "invoice no.", "Ref:",
   * "n°", "order number") or a phone number ("Tel.", "call us at", "+49", "(030)"), or it is the
   * area code of a phone number.
   */
  private static boolean identifierOrPhone(String text, int start, int end) {
    boolean areaCode =
        start > 0
            && text.charAt(start - 1) == '('
            && AREA_CODE_END
                .matcher(text)
                .region(end, Math.min(text.length(), end + 3))
                .lookingAt();
    if (areaCode || endsWith(PHONE_PREFIX, text, Math.max(0, start - 8), start)) {
      return true;
    }
    int at = start;
    boolean numberLabel = false; // "number", "no" or "nr" read: "account number 12345678"
    for (int words = 0; words < 3; words++) { // a label, "number" or "no", "us at"
      while (at > 0
          && (Character.isWhitespace(text.charAt(at - 1)) || text.charAt(at - 1) == ':')) {
        at--;
      }
      if (at > 0 && text.charAt(at - 1) == '#') {
        return true; // "#4821", "Order # 4821"
      }
      boolean dot = at > 0 && text.charAt(at - 1) == '.';
      int wordEnd = dot ? at - 1 : at;
      at = wordEnd;
      while (at > 0 && isLabelLetter(text.charAt(at - 1))) {
        at--;
      }
      String word = text.substring(at, wordEnd).toLowerCase(Locale.ROOT);
      if (IDENTIFIER_WORDS.contains(word)
          || PHONE_WORDS.contains(word)
          || (numberLabel && NUMBERED_WORDS.contains(word))
          || (words == 0 && NUMBER_SIGNS.contains(dot ? word + "." : word))) {
        return true;
      }
      if (!LABEL_TAILS.contains(word) || (word.equals("is") && words > 0)) {
        return false;
      }
      numberLabel |= NUMBER_LABELS.contains(word);
    }
    return false;
  }

  private static boolean isLabelLetter(char c) {
    return Character.isLetter(c) || c == '\u00b0' || c == '\u00ba';
  }

  /**
   * Whether the number is a price ("$1234", "EUR 1234", "1234 €") or a quantity ("10-15 minutes",
   * "50 %").
   */
  private static boolean priceOrQuantity(String text, int start, int end) {
    int before = start > 0 && text.charAt(start - 1) == ' ' ? start - 1 : start;
    if (before > 0 && Character.getType(text.charAt(before - 1)) == Character.CURRENCY_SYMBOL) {
      return true;
    }
    int wordStart = before;
    while (wordStart > 0 && Character.isLetter(text.charAt(wordStart - 1))) {
      wordStart--;
    }
    if (CURRENCY_WORDS.contains(text.substring(wordStart, before).toLowerCase(Locale.ROOT))) {
      return true;
    }
    int after = end < text.length() && text.charAt(end) == ' ' ? end + 1 : end;
    if (after < text.length()
        && (text.charAt(after) == '%'
            || Character.getType(text.charAt(after)) == Character.CURRENCY_SYMBOL)) {
      return true;
    }
    int wordEnd = after;
    while (wordEnd < text.length() && Character.isLetter(text.charAt(wordEnd))) {
      wordEnd++;
    }
    String word = text.substring(after, wordEnd).toLowerCase(Locale.ROOT);
    return CURRENCY_WORDS.contains(word) || TIME_UNITS.contains(word);
  }

  /**
   * Whether the number is a postcode: 4 or 5 digits (or a Portuguese 4-3) followed by a place name
   * at a line start, after a comma or after a street, or a ZIP code after a US state.
   */
  private static boolean postcode(String text, int start, int end, String value) {
    boolean shaped =
        value.length() == 4
            || value.length() == 5
            || (value.length() == 7 && text.charAt(start + 4) == '-');
    if (!shaped) {
      return false;
    }
    if (endsWith(STATE_BEFORE, text, Math.max(0, start - 8), start)) {
      return true;
    }
    if (!PLACE_AFTER.matcher(text).region(end, Math.min(text.length(), end + 8)).lookingAt()) {
      return false;
    }
    int i = start;
    while (i > 0 && (text.charAt(i - 1) == ' ' || text.charAt(i - 1) == '\t')) {
      i--;
    }
    return i == 0
        || ADDRESS_SEPARATORS.indexOf(text.charAt(i - 1)) >= 0
        || STREET.matcher(text).region(lineStart(text, start), start).find();
  }

  /** The start of the line of {@code at}, looked for at most {@value #LONGEST_LINE} back. */
  private static int lineStart(String text, int at) {
    int floor = Math.max(0, at - LONGEST_LINE);
    int i = at;
    while (i > floor && text.charAt(i - 1) != '\n') {
      i--;
    }
    return i;
  }

  /** How far back the start of an address line is looked for. */
  private static final int LONGEST_LINE = 200;

  /** Whether {@code pattern}, anchored at {@code to} by {@code \z}, matches text ending there. */
  private static boolean endsWith(Pattern pattern, String text, int from, int to) {
    return pattern.matcher(text).region(from, to).useTransparentBounds(true).find();
  }

  /** Whether only white space lies between {@code at} and the start of a line or sentence. */
  private static boolean startsSentence(String text, int at) {
    int i = at - 1;
    while (i >= 0 && text.charAt(i) == ' ') {
      i--;
    }
    return i < 0 || ".!?:\n".indexOf(text.charAt(i)) >= 0;
  }

  private static String context(String text, int start, int end) {
    int from = Math.max(0, start - 40);
    int to = Math.min(text.length(), end + 40);
    return text.substring(from, to).replaceAll("\\s+", " ").strip();
  }
}
