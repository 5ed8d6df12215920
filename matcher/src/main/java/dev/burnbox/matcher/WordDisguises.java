package dev.burnbox.matcher;

import java.util.Arrays;

/**
 * Steps 6 and 7 of {@link TextNormalizer}, the ones that look at words: letters split by separators
 * are joined, then leetspeak inside words is read as letters. They run on the output of steps 1 to
 * 5 (lower case, look-alikes already Latin); see {@link TextNormalizer} for the rules.
 *
 * <p>Stateless and thread-safe; O(n) time, and memory for the positions of dropped separators.
 */
final class WordDisguises {
  private static final int LETTER = 1;
  private static final int DIGIT = 2;
  private static final int LEET = 4;
  private static final int SEPARATOR = 8;
  private static final int SPACE = 16;
  // a trailing run of these digits after a letter is read as letters: fr33, busine55
  private static final int TRAILING_LEET = 32;

  private static final byte[] ASCII = new byte[128];

  /** 1 for ASCII letters and digits, 0 for the other ASCII chars. */
  private static final byte[] ALPHANUMERIC_BIT = new byte[128];

  /** The letter each leet character stands for, indexed by the character. */
  private static final char[] LEET_LETTER = new char[128];

  static {
    for (char c = 'a'; c <= 'z'; c++) {
      ASCII[c] = LETTER;
      ASCII[Character.toUpperCase(c)] = LETTER;
    }
    for (char c = '0'; c <= '9'; c++) {
      ASCII[c] = DIGIT;
    }
    String leet = "0o1i3e4a5s7t@a$s!i|l";
    for (int i = 0; i < leet.length(); i += 2) {
      ASCII[leet.charAt(i)] |= LEET;
      LEET_LETTER[leet.charAt(i)] = leet.charAt(i + 1);
    }
    for (char c = 0; c < 128; c++) {
      ALPHANUMERIC_BIT[c] = (byte) ((ASCII[c] & (LETTER | DIGIT)) != 0 ? 1 : 0);
    }
    for (char c : "3457".toCharArray()) {
      ASCII[c] |= TRAILING_LEET;
    }
    for (char c : " .-_*/".toCharArray()) {
      ASCII[c] |= SEPARATOR;
    }
    for (char c : " \t\n\u000B\f\r".toCharArray()) {
      ASCII[c] |= SPACE;
    }
  }

  private static final int MIN_JOINED_UNITS = 3;
  private static final int MIN_LETTERS = 2;

  private WordDisguises() {}

  /** Applies step 6 (joining) then step 7 (leetspeak) to {@code buffer}. */
  static void undo(MappedCharBuffer buffer) {
    joinSplitLetters(buffer);
    readLeetspeak(buffer.chars(), buffer.length());
  }

  // ---- step 6: split letters

  private static void joinSplitLetters(MappedCharBuffer buffer) {
    char[] a = buffer.chars();
    int n = buffer.length();
    Tokens tokens = null;
    int[] drops = null;
    int dropCount = 0;
    for (int i = nextRunStart(a, n, 0); i >= 0; i = nextRunStart(a, n, i)) {
      int last = i;
      int units = 1;
      int letters = isLetterAt(a, n, i) ? 1 : 0;
      boolean allDots = true;
      while (last + 2 < n && isSeparator(a[last + 1]) && isUnit(a, n, last + 2)) {
        allDots &= a[last + 1] == '.';
        last += 2;
        units++;
        letters += isLetterAt(a, n, last) ? 1 : 0;
      }
      boolean abbreviation = allDots && last + 1 < n && a[last + 1] == '.';
      if (units >= MIN_JOINED_UNITS && letters >= MIN_LETTERS && !abbreviation) {
        if (tokens == null) {
          tokens = new Tokens(a, n);
        }
        if (!tokens.anyProtected(i, last)) {
          if (drops == null) {
            drops = new int[Math.max(16, units)];
          }
          for (int s = i + 1; s < last; s += 2) {
            if (dropCount == drops.length) {
              drops = Arrays.copyOf(drops, drops.length * 2);
            }
            drops[dropCount++] = s;
          }
        }
      }
      i = last + 1;
    }
    if (dropCount > 0) {
      buffer.removeAll(drops, dropCount);
    }
  }

  /**
   * The first unit at or after {@code from} that a separator and another unit follow, or -1.
   *
   * <p>The hot loop of step 6: it keeps the letter-or-digit bits of the last three chars in {@code
   * window} and looks closer only at a letter or digit between two other chars ({@code 0b010}),
   * which ordinary text rarely has. So a run whose first unit is a leet symbol ({@code @ $ ! |}) is
   * not found; symbols are units only further on.
   */
  private static int nextRunStart(char[] a, int n, int from) {
    int window = from > 0 && isAlphanumericAt(a, n, from - 1) ? 1 : 0;
    for (int i = from; i < n; i++) {
      char c = a[i];
      int bit = c < 0x80 ? ALPHANUMERIC_BIT[c] : isAlphanumericAt(a, n, i) ? 1 : 0;
      window = ((window << 1) | bit) & 0b111;
      if (window == 0b010
          && isSeparator(c)
          && i + 1 < n
          && isUnit(a, n, i - 1)
          && isUnit(a, n, i + 1)) {
        return i - 1;
      }
    }
    return -1;
  }

  /**
   * A unit of a split word: one letter or leet character in one {@code char}, with no letter, digit
   * or mark right before or after it.
   */
  private static boolean isUnit(char[] a, int n, int i) {
    char c = a[i];
    boolean unitChar = c < 0x80 ? (ASCII[c] & (LETTER | LEET)) != 0 : Character.isLetter(c);
    return unitChar
        && (i == 0 || !isAlphanumericAt(a, n, i - 1))
        && (i + 1 == n || !isAlphanumericAt(a, n, i + 1));
  }

  private static boolean isSeparator(char c) {
    return c < 0x80 ? (ASCII[c] & SEPARATOR) != 0 : c == UnicodeDisguises.MIDDLE_DOT;
  }

  // ---- step 7: leetspeak

  private static void readLeetspeak(char[] a, int n) {
    Tokens tokens = null;
    for (int i = nextLeet(a, n, 0); i < n; i = nextLeet(a, n, i)) {
      int start = i;
      while (start > 0 && isWordCharAt(a, n, start - 1)) {
        start--;
      }
      int end = i + 1;
      while (end < n && isWordCharAt(a, n, end)) {
        end++;
      }
      if (tokens == null) {
        tokens = new Tokens(a, n);
      }
      readLeetWord(a, n, start, end, tokens);
      i = end;
    }
  }

  /** The index of the first leet character at or after {@code from}, or {@code n}. */
  private static int nextLeet(char[] a, int n, int from) {
    for (int i = from; i < n; i++) {
      char c = a[i];
      if (c < 0x80 && (ASCII[c] & LEET) != 0) {
        return i;
      }
    }
    return n;
  }

  /** Rewrites the leet characters of the word {@code a[start, end)} that the rule reads. */
  private static void readLeetWord(char[] a, int n, int start, int end, Tokens tokens) {
    int letters = 0;
    int first = -1;
    int last = -1;
    for (int p = start; p < end; p++) {
      char c = a[p];
      if (c < 0x80 ? (ASCII[c] & (DIGIT | LEET)) == DIGIT : Character.isDigit(c)) {
        return; // a digit no letter looks like (2 6 8 9, or not ASCII): a number or a code
      }
      if (isLetterAt(a, n, p)) {
        // a supplementary letter counts once, by its high surrogate
        if (!Character.isLowSurrogate(c)) {
          letters++;
        }
        first = first < 0 ? p : first;
        last = p;
      }
    }
    if (letters < MIN_LETTERS || tokens.isProtected(start)) {
      return;
    }
    for (int p = first + 1; p < last; p++) {
      char c = a[p];
      if (c < 0x80 && (ASCII[c] & LEET) != 0) {
        a[p] = LEET_LETTER[c];
      }
    }
    if (end - (last + 1) >= 2 && allTrailingLeet(a, last + 1, end)) {
      for (int p = last + 1; p < end; p++) {
        a[p] = LEET_LETTER[a[p]];
      }
    }
  }

  private static boolean allTrailingLeet(char[] a, int start, int end) {
    for (int p = start; p < end; p++) {
      if (a[p] >= 0x80 || (ASCII[a[p]] & TRAILING_LEET) == 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean isWordCharAt(char[] a, int n, int i) {
    char c = a[i];
    return c < 0x80 ? (ASCII[c] & (LETTER | DIGIT | LEET)) != 0 : isAlphanumericAt(a, n, i);
  }

  // ---- character classes

  /** The code point of which {@code a[i]} is a unit (either half of a surrogate pair). */
  private static int codePointAt(char[] a, int n, int i) {
    char c = a[i];
    if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(a[i + 1])) {
      return Character.toCodePoint(c, a[i + 1]);
    }
    if (Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(a[i - 1])) {
      return Character.toCodePoint(a[i - 1], c);
    }
    return c;
  }

  private static boolean isLetterAt(char[] a, int n, int i) {
    char c = a[i];
    return c < 0x80 ? (ASCII[c] & LETTER) != 0 : Character.isLetter(codePointAt(a, n, i));
  }

  /** A letter, a digit or a combining mark: what words are made of. */
  private static boolean isAlphanumericAt(char[] a, int n, int i) {
    char c = a[i];
    if (c < 0x80) {
      return (ASCII[c] & (LETTER | DIGIT)) != 0;
    }
    int cp = codePointAt(a, n, i);
    return Character.isLetterOrDigit(cp) || UnicodeDisguises.isMark(cp);
  }

  private static boolean isSpace(char c) {
    return c < 0x80 ? (ASCII[c] & SPACE) != 0 : Character.isWhitespace(c);
  }

  /**
   * Whitespace-separated tokens and whether each is protected: a URL (contains {@code ://} or
   * {@code www.}) or an e-mail address (an {@code @} between letters or digits, followed later by a
   * dot and a letter or digit). Protected tokens keep their letters and leet characters as written.
   * Queries must come in non-decreasing position order; each token is examined once, so all queries
   * cost O(n).
   */
  private static final class Tokens {
    private final char[] a;
    private final int n;
    private int start = -1;
    private int end = -1;
    private boolean isProtected;

    Tokens(char[] a, int n) {
      this.a = a;
      this.n = n;
    }

    boolean anyProtected(int from, int to) {
      for (int p = from; p <= to; p++) {
        if (!isSpace(a[p]) && isProtected(p)) {
          return true;
        }
      }
      return false;
    }

    boolean isProtected(int p) {
      if (p >= start && p < end) {
        return isProtected;
      }
      start = p;
      while (start > 0 && !isSpace(a[start - 1])) {
        start--;
      }
      end = p;
      while (end < n && !isSpace(a[end])) {
        end++;
      }
      isProtected = isUrlOrAddress(start, end);
      return isProtected;
    }

    private boolean isUrlOrAddress(int from, int to) {
      int at = -1;
      for (int p = from; p < to; p++) {
        char c = a[p];
        if (c == ':' && p + 2 < to && a[p + 1] == '/' && a[p + 2] == '/') {
          return true;
        }
        if (c == 'w' && p + 3 < to && a[p + 1] == 'w' && a[p + 2] == 'w' && a[p + 3] == '.') {
          return true;
        }
        if (c == '@' && at < 0 && isAddressAt(p, from, to)) {
          at = p;
        }
        if (c == '.' && at >= 0 && p + 1 < to && Character.isLetterOrDigit(a[p + 1])) {
          return true;
        }
      }
      return false;
    }

    /**
     * Whether the {@code @} at {@code p} can join the two parts of an address: a letter or digit
     * (or {@code _ % + -}) right before it, a letter or digit right after it. Not the {@code @} of
     * {@code p.@.s.s}.
     */
    private boolean isAddressAt(int p, int from, int to) {
      if (p == from || p + 1 == to || !Character.isLetterOrDigit(a[p + 1])) {
        return false;
      }
      char before = a[p - 1];
      return Character.isLetterOrDigit(before) || "_%+-".indexOf(before) >= 0;
    }
  }
}
