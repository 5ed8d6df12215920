package dev.burnbox.matcher;

/**
 * How terms are compared with text.
 *
 * <ul>
 *   <li>{@code ignoreCase}: a term matches text that is equal to it under Unicode <em>simple</em>
 *       case folding (CaseFolding.txt statuses C and S), applied per code point and independent of
 *       the default locale. Simple folding never changes a string's length, so match offsets are
 *       offsets in the original text. It follows that {@code ß} does not match {@code ss} (that is
 *       a full folding), that Turkish dotted {@code İ} and dotless {@code ı} match only themselves,
 *       and that Greek final sigma {@code ς} matches {@code σ} and {@code Σ}.
 *   <li>{@code wholeWords}: a match is reported only if the code point right before it and the code
 *       point right after it (where they exist) are not letters or digits ({@link
 *       Character#isLetterOrDigit(int)}). Hyphens, apostrophes, punctuation and spaces are
 *       boundaries.
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public record MatchOptions(boolean ignoreCase, boolean wholeWords) {

  /** Exact, case-sensitive matching anywhere in the text. */
  public static final MatchOptions EXACT = new MatchOptions(false, false);

  /** Case-insensitive matching anywhere in the text. */
  public static final MatchOptions IGNORE_CASE = new MatchOptions(true, false);
}
