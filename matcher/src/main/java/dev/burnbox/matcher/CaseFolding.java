package dev.burnbox.matcher;

import java.util.HashMap;
import java.util.Map;

/**
 * Unicode simple case folding (CaseFolding.txt statuses C and S), per code point, independent of
 * the default locale.
 *
 * <p>The JDK has no case-folding API, so a code point is folded as {@code
 * toLowerCase(toUpperCase(cp))}, which yields the same equivalence classes as simple folding with
 * these exceptions, handled explicitly:
 *
 * <ul>
 *   <li>Turkish {@code İ} (U+0130) and {@code ı} (U+0131): simple folding leaves both alone (their
 *       foldings are status T and F only), so they are kept as they are;
 *   <li>{@code ΐ} (U+1FD3), {@code ΰ} (U+1FE3) and the ligature {@code ﬅ} (U+FB05) have status-S
 *       foldings to U+0390, U+03B0 and U+FB06, which have no single-character case mapping.
 * </ul>
 *
 * <p>{@code CaseFoldingTest} checks every code point against ICU.
 *
 * <p>Simple folding maps BMP code points to BMP code points and supplementary ones to supplementary
 * ones, so folding never changes a string's length in {@code char}s. That is what lets matchers
 * report offsets in the original text while comparing folded characters.
 *
 * <p>Thread-safe: all tables are immutable after class initialisation.
 */
public final class CaseFolding {
  private static final char[] CHAR_FOLD = new char[Character.MAX_VALUE + 1];

  static {
    for (int c = 0; c <= Character.MAX_VALUE; c++) {
      CHAR_FOLD[c] = Character.isSurrogate((char) c) ? (char) c : (char) foldCodePoint(c);
    }
  }

  private CaseFolding() {}

  /** The simple case folding of one code point. */
  static int foldCodePoint(int cp) {
    return switch (cp) {
      case 0x130, 0x131 -> cp;
      case 0x1FD3 -> 0x390;
      case 0x1FE3 -> 0x3B0;
      case 0xFB05 -> 0xFB06;
      default -> Character.toLowerCase(Character.toUpperCase(cp));
    };
  }

  /**
   * The folding of one UTF-16 unit, for scanning loops: BMP characters are folded, surrogates are
   * returned unchanged (supplementary code points are handled by {@link #caseVariants}). Public so
   * that code comparing other matchers with these (the benchmarks) folds text exactly as they do.
   */
  public static char foldChar(char c) {
    return CHAR_FOLD[c];
  }

  /** The per-unit table behind {@link #foldChar}; callers must not modify it. */
  static char[] charFoldTable() {
    return CHAR_FOLD;
  }

  /**
   * Folds every code point of {@code s}; the result has the same length as {@code s}, and is {@code
   * s} itself when folding changes nothing (so term sets do not hold two equal copies).
   */
  static String foldString(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      out.appendCodePoint(foldCodePoint(cp));
      i += Character.charCount(cp);
    }
    return s.contentEquals(out) ? s : out.toString();
  }

  /**
   * Every code point whose folding equals that of the supplementary code point {@code cp}, {@code
   * cp} included. Scanning loops fold only BMP units, so terms are expanded into one literal
   * variant per supplementary case form (Deseret, Osage, Adlam and a few other scripts have them).
   */
  static int[] caseVariants(int cp) {
    int folded = foldCodePoint(cp);
    int[] variants = SupplementaryClasses.BY_FOLD.get(folded);
    return variants == null ? new int[] {cp} : variants.clone();
  }

  /** Built on first use only: scans the supplementary planes once (a few milliseconds). */
  private static final class SupplementaryClasses {
    static final Map<Integer, int[]> BY_FOLD = new HashMap<>();

    static {
      Map<Integer, StringBuilder> classes = new HashMap<>();
      for (int cp = Character.MIN_SUPPLEMENTARY_CODE_POINT; cp <= Character.MAX_CODE_POINT; cp++) {
        int folded = foldCodePoint(cp);
        if (folded != cp) {
          classes
              .computeIfAbsent(folded, f -> new StringBuilder().appendCodePoint(f))
              .appendCodePoint(cp);
        }
      }
      classes.forEach((folded, members) -> BY_FOLD.put(folded, members.codePoints().toArray()));
    }
  }
}
