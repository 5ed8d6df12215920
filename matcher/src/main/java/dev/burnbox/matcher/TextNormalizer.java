package dev.burnbox.matcher;

import java.util.Objects;

/**
 * A normalised view of a text that sees through spammers' disguises, for matching terms: scan
 * {@link NormalizedText#text()} with a {@link TermMatcher} compiled over terms passed through
 * {@link #normalizeTerm} (with {@link MatchOptions#EXACT}: the text is already lower case), then
 * map each match back with {@link NormalizedText#originalStart} and {@link
 * NormalizedText#originalEnd} to highlight exactly the disguised word in the original.
 *
 * <p>The steps, in this order:
 *
 * <ol>
 *   <li><b>Invisible characters are dropped</b>: general category Cf and every other
 *       Default_Ignorable_Code_Point: zero-width space and joiners, word joiner, byte-order mark,
 *       soft hyphen, bidi controls, variation selectors, tag characters, Hangul fillers, combining
 *       grapheme joiner (a superset of what {@code HtmlText.withoutInvisibleCharacters} drops).
 *       First, so that they can separate neither a letter from its marks nor a word from itself.
 *   <li><b>Compatibility forms</b> become plain ones (Unicode NFKC): fullwidth {@code ＦＲＥＥ} gives
 *       {@code FREE}, and so do ligatures, mathematical, circled and superscript letters and
 *       digits; odd spaces (no-break, em, ideographic) become the ordinary space.
 *   <li><b>Look-alikes</b>: each non-ASCII character whose UTS #39 confusable skeleton (ICU {@code
 *       SpoofChecker}) is made of ASCII characters and combining marks is replaced by it, so
 *       Cyrillic {@code а і о р с}, Greek {@code ο ν ι} and their like become Latin letters, and
 *       bullets and other middle dots become {@code ·}. Other characters are kept ({@code й},
 *       Hangul and Han are no look-alikes, and their skeletons would only scramble them). ASCII is
 *       left as written, also inside a decomposition: the full skeleton would turn {@code m} into
 *       {@code rn} and {@code 1} into {@code l}. This step comes before case folding so that a
 *       capital maps to the capital it imitates (Greek {@code Ν} is an {@code N}, its lower-case
 *       {@code ν} a {@code v}); capitals whose skeleton is the {@code l} that UTS #39 uses for
 *       {@code I l 1} (Cyrillic {@code І}, Greek {@code Ι}) become {@code I}; and the few non-ASCII
 *       prototypes of Cyrillic and Greek lower case ({@code ĸ ᴛ ʙ ʜ ʍ ƅ ꞓ}) count as {@code k t b h
 *       m b e}.
 *   <li><b>Case folding</b> with ICU's NFKC_Casefold: full Unicode case folding ({@code ß} gives
 *       {@code ss}), and NFKC again for whatever the skeletons produced. The output is lower case.
 *       Full folding may change lengths, which is fine here because offsets are mapped (the
 *       matchers' own {@link CaseFolding} is the simple, length-preserving folding they need), and
 *       unlike lower-casing it is locale-independent and closed under normalisation.
 *   <li><b>Marks on ASCII</b>: a combining mark (category M) whose base is a printable ASCII
 *       character is dropped, so {@code víagra}, {@code v̲i̲a̲g̲r̲a̲} and {@code vïagra} give
 *       {@code viagra}, and {@code café} gives {@code cafe}. Marks on other bases are kept, and the
 *       text is recomposed (NFC).
 *   <li><b>Split letters are joined</b>: a <em>unit</em> is a single letter or leet character (step
 *       7) with no letter, digit or mark right before or after it; a run of at least three units,
 *       at least two of them letters and the first a letter or digit, each separated from the next
 *       by exactly one of space, {@code . - _ * /} or {@code ·} (mixed freely), loses its
 *       separators: {@code v i a g r a}, {@code v.i.a.g.r.a}, {@code v-i_a/g*r•a} give {@code
 *       viagra}. Two units stay ({@code a b}, {@code e.g.}), a single letter next to a longer word
 *       stays ({@code I have a dog}), and so does an abbreviation: units separated by dots only and
 *       followed by a dot ({@code U.S.A.}).
 *   <li><b>Leetspeak</b> inside words: {@code 0 1 3 4 5 7 @ $ ! |} stand for {@code o i e a s t a s
 *       i l}. A word here is a maximal run of letters, digits, marks and those symbols. In a word
 *       with at least two letters and no other digit (2, 6, 8, 9 or non-ASCII, which make numbers
 *       and codes such as {@code h264}, {@code x86}, {@code covid19}), a leet character is read as
 *       its letter if a letter of the word comes before it and another after it ({@code v1agra},
 *       {@code p@ssword}, {@code m0n3y}, {@code ca$h}), and so is a run of two or more of {@code 3
 *       4 5 7} that ends the word right after a letter ({@code fr33}, {@code busine55}). So numbers
 *       stay ({@code 2002}, {@code $100}, {@code 3.5}, {@code v2.0}), and so do numbers with units
 *       ({@code 24h}, {@code 3rd}, {@code 5pm}: no letter before the digit), names with one
 *       trailing digit ({@code mp3}, {@code ipv4}) and punctuation at the edges of words ({@code
 *       free!}, {@code @john}).
 * </ol>
 *
 * <p>Steps 6 and 7 leave URLs and e-mail addresses as they are: whitespace-separated tokens that
 * contain {@code ://} or {@code www.}, or an {@code @} between letters or digits followed later by
 * a dot and a letter or digit. Step 6 runs before step 7 so that {@code v 1 a g r a} becomes the
 * word {@code v1agra}, which step 7 then reads like any written word.
 *
 * <p>What it gets wrong, by design or trade-off: Cyrillic and Greek text turns into its Latin
 * look-alikes ({@code сор} reads {@code cop}); accents on Latin letters are lost; codes such as
 * {@code a11y}, {@code l10n}, {@code H1N1} or {@code usd45} and symbols between letters ({@code
 * a|b}, {@code me@home}) are read as leetspeak, while {@code 0ffer} (a leading digit), {@code
 * win10} (a trailing 0 or 1) and {@code v1agr4} (one trailing digit) are not; initials such as
 * {@code J R R Tolkien} and {@code A/B/C} are joined; and a dotted split word followed by a full
 * stop ({@code v.i.a.g.r.a.}) is taken for an abbreviation.
 *
 * <p>Offsets: see {@link NormalizedText}. Steps 1 to 5 work on NFKC segments (a character with its
 * combining marks), each of which maps to its original range; step 6 drops chars and step 7
 * replaces them one for one.
 *
 * <p>Cost: O(n) time and memory (the normalised text can be longer than the original: a ligature
 * gives several letters). Runs of ASCII take a fast path with no ICU call: case is folded in place
 * and steps 6 and 7 each scan the text once with table lookups. Other characters go through ICU
 * once per segment, with the results for single BMP code points and short segments cached; the
 * first text with a non-ASCII character loads ICU's data (about a tenth of a second). No limit on
 * the text's length other than memory. Immutable and thread-safe.
 */
public final class TextNormalizer {
  private static final TextNormalizer STANDARD = new TextNormalizer();

  private TextNormalizer() {}

  /** The normaliser the service uses: the steps above. Immutable and thread-safe. */
  public static TextNormalizer standard() {
    return STANDARD;
  }

  /** The normalised view of {@code original}, with the map back to its offsets. */
  public NormalizedText normalize(String original) {
    Objects.requireNonNull(original, "original");
    int n = original.length();
    MappedCharBuffer out = new MappedCharBuffer(original);
    int i = 0;
    while (i < n) {
      // ASCII followed by ASCII is a segment of its own that only case folding changes
      i = out.appendLowerCaseAscii(original, i);
      if (i == n) {
        break;
      }
      int cp = original.codePointAt(i);
      if (cp >= 0x80 && UnicodeDisguises.isInvisible(cp)) {
        i += Character.charCount(cp);
      } else {
        i = appendSegment(original, i, out);
      }
    }
    WordDisguises.undo(out);
    return out.toNormalizedText(original);
  }

  /**
   * The normalised form of a term, for compiling term lists that match normalised text: {@code
   * normalize(term).text()}. Empty if the term is all invisible characters (skip it: a {@link
   * TermSet} takes no empty term). A term is normalised as a text of its own, so one that begins or
   * ends with a leet character or a single letter can read differently inside running text.
   */
  public String normalizeTerm(String term) {
    return normalize(term).text();
  }

  /**
   * Applies steps 1 to 5 to the NFKC segment that starts at {@code start} (a visible code point)
   * and appends the result; returns the offset just past the segment.
   */
  private static int appendSegment(String s, int start, MappedCharBuffer out) {
    int n = s.length();
    int first = s.codePointAt(start);
    int end = start + Character.charCount(first);
    int next = skipInvisible(s, end);
    if (next == n || UnicodeDisguises.startsSegment(s.codePointAt(next))) {
      if (first < 0x80) {
        out.append(Character.toLowerCase((char) first), start, end);
      } else {
        appendNormalized(UnicodeDisguises.normalizeCodePoint(first), start, end, out);
      }
      return end;
    }
    StringBuilder segment = new StringBuilder().appendCodePoint(first);
    while (next < n) {
      int cp = s.codePointAt(next);
      if (UnicodeDisguises.startsSegment(cp)) {
        break;
      }
      segment.appendCodePoint(cp);
      end = next + Character.charCount(cp);
      next = skipInvisible(s, end);
    }
    appendNormalized(UnicodeDisguises.normalizeSegmentCached(segment.toString()), start, end, out);
    return end;
  }

  /**
   * Appends a normalised segment of original range {@code [start, end)}; leading marks are dropped
   * if they follow an ASCII base, whose range then extends over them.
   */
  private static void appendNormalized(
      String normalized, int start, int end, MappedCharBuffer out) {
    int from = 0;
    if (UnicodeDisguises.isAsciiBase(out.lastChar())) {
      while (from < normalized.length() && UnicodeDisguises.isMark(normalized.codePointAt(from))) {
        from += Character.charCount(normalized.codePointAt(from));
      }
      if (from > 0) {
        out.extendLast(end);
      }
    }
    for (int k = from; k < normalized.length(); k++) {
      out.append(normalized.charAt(k), start, end);
    }
  }

  private static int skipInvisible(String s, int i) {
    while (i < s.length() && s.charAt(i) >= 0x80) {
      int cp = s.codePointAt(i);
      if (!UnicodeDisguises.isInvisible(cp)) {
        break;
      }
      i += Character.charCount(cp);
    }
    return i;
  }
}
