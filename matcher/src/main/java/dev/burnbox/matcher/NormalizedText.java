package dev.burnbox.matcher;

import java.util.Objects;

/**
 * A text as {@link TextNormalizer} normalised it, with the map from every normalised {@code char}
 * back to the original {@code char}s it came from.
 *
 * <p>The guarantee: for {@code 0 <= s < e <= text().length()}, the normalised chars {@code
 * text().substring(s, e)} were produced by the original chars {@code original().substring(
 * originalStart(s), originalEnd(e))}, and that range holds nothing else at its edges: it starts
 * with the first original char that produced normalised char {@code s} and ends with the last that
 * produced normalised char {@code e - 1}. Original chars that produced nothing (invisible
 * characters, the separators of joined letters) are inside the range only when they lie between
 * chars that did, so a match of {@code viagra} in the normalised form of {@code Buy v.i.a.g.r.a
 * now} maps back to exactly {@code v.i.a.g.r.a}. Combining marks that were dropped from a letter
 * belong to that letter's range.
 *
 * <p>One original char can produce several normalised chars (the ligature {@code ﬁ} gives {@code
 * fi}, both mapped to it) and several original chars can produce one ({@code e} plus a combining
 * acute gives {@code e}); a range can therefore not split an original char or a base from its
 * marks. Both maps are monotone (non-decreasing).
 *
 * <p>Memory: the two strings, plus two {@code int}s per normalised char unless every normalised
 * char came from the original char at the same index (the usual case for ASCII text), in which case
 * nothing more is stored. Immutable and thread-safe.
 */
public final class NormalizedText {
  private final String original;
  private final String text;
  // null when char i came from original char i; otherwise at least text.length() long
  private final int[] starts;
  private final int[] ends;

  NormalizedText(String original, String text, int[] starts, int[] ends) {
    this.original = Objects.requireNonNull(original);
    this.text = Objects.requireNonNull(text);
    this.starts = starts;
    this.ends = ends;
  }

  /** The normalised text: what term matchers scan. */
  public String text() {
    return text;
  }

  /** The text as given to {@link TextNormalizer#normalize}. */
  public String original() {
    return original;
  }

  /**
   * The offset in {@link #original()} of the first char that produced normalised char {@code
   * normalizedStart}; {@code original().length()} for {@code normalizedStart == text().length()}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= normalizedStart <= text().length()}
   */
  public int originalStart(int normalizedStart) {
    Objects.checkIndex(normalizedStart, text.length() + 1);
    if (normalizedStart == text.length()) {
      return original.length();
    }
    return starts == null ? normalizedStart : starts[normalizedStart];
  }

  /**
   * The offset in {@link #original()} just past the last char that produced normalised char {@code
   * normalizedEnd - 1}: the exclusive original end of a normalised range ending (exclusively) at
   * {@code normalizedEnd}; 0 for {@code normalizedEnd == 0}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= normalizedEnd <= text().length()}
   */
  public int originalEnd(int normalizedEnd) {
    Objects.checkIndex(normalizedEnd, text.length() + 1);
    if (normalizedEnd == 0) {
      return 0;
    }
    return ends == null ? normalizedEnd : ends[normalizedEnd - 1];
  }

  @Override
  public String toString() {
    return text;
  }
}
