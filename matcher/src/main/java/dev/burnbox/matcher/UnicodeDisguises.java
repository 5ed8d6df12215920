package dev.burnbox.matcher;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.SpoofChecker;
import com.ibm.icu.text.UnicodeSet;
import java.util.BitSet;

/**
 * Steps 1 to 5 of {@link TextNormalizer}, the ones that look at one character (with its combining
 * marks) at a time: invisible characters, compatibility forms, look-alikes, case and marks on ASCII
 * letters. They apply to non-ASCII text; {@link TextNormalizer} handles runs of ASCII itself.
 *
 * <p>Text is cut into NFKC segments: a code point with an NFKC boundary before it, plus the code
 * points up to the next one (its combining marks, or the jamo it composes with). Each segment is
 * normalised on its own, so every normalised char comes from exactly one segment, whose original
 * range it maps to.
 *
 * <p>Thread-safe. The results for single BMP code points, and for recent short segments, are cached
 * in tables shared by all threads; their entries are immutable (strings, and records of strings),
 * computed idempotently, so unsynchronised writes are benign (a thread that does not see another's
 * entry computes the same one). Memory: at most 64 Ki single results and 1 Ki segments.
 */
final class UnicodeDisguises {
  private static final Normalizer2 NFKC = Normalizer2.getNFKCInstance();
  private static final Normalizer2 NFKC_CASEFOLD = Normalizer2.getNFKCCasefoldInstance();
  private static final Normalizer2 NFD = Normalizer2.getNFDInstance();
  private static final Normalizer2 NFC = Normalizer2.getNFCInstance();
  private static final SpoofChecker SPOOF_CHECKER = new SpoofChecker.Builder().build();

  /** Step 1: format characters (Cf) and every other default-ignorable code point. */
  private static final UnicodeSet INVISIBLE =
      new UnicodeSet("[[:General_Category=Format:][:Default_Ignorable_Code_Point:]]").freeze();

  private static final BitSet INVISIBLE_BMP = new BitSet(0x10000);

  static {
    for (int cp = 0x80; cp < 0x10000; cp++) {
      if (INVISIBLE.contains(cp)) {
        INVISIBLE_BMP.set(cp);
      }
    }
  }

  /**
   * Prototypes that the UTS #39 skeleton leaves outside ASCII although they stand for a Latin
   * letter: the small capitals and look-alikes that lower-case Cyrillic and Greek letters map to
   * ({@code к κ -> ĸ}, {@code т τ -> ᴛ}, {@code в -> ʙ}, {@code н -> ʜ}, {@code м -> ʍ}, {@code ь
   * -> ƅ}, {@code ε є -> ꞓ}).
   */
  private static final String EXTRA_PROTOTYPES = "ĸᴛʙʜʍƅꞓ";

  /** The ASCII letter each of {@link #EXTRA_PROTOTYPES} stands for. */
  private static final String EXTRA_PROTOTYPE_LETTERS = "ktbhmbe";

  /** The skeleton of bullets and other middle dots; it counts as ASCII, a separator for step 6. */
  static final char MIDDLE_DOT = '\u00B7';

  private static final String[] SINGLE_CODE_POINT = new String[0x10000];

  /** A short segment (a letter and a mark or two) and its normalised form. */
  private record CachedSegment(String segment, String normalized) {}

  private static final int MAX_CACHED_SEGMENT = 8;

  // direct-mapped by hash, so bounded: 1024 recent short segments (accented letters in NFD)
  private static final CachedSegment[] SHORT_SEGMENTS = new CachedSegment[1024];

  private UnicodeDisguises() {}

  /** Step 1: whether {@code cp} is dropped as invisible. */
  static boolean isInvisible(int cp) {
    return cp < 0x10000 ? INVISIBLE_BMP.get(cp) : INVISIBLE.contains(cp);
  }

  /** Whether {@code cp} starts a new NFKC segment (nothing before it can combine with it). */
  static boolean startsSegment(int cp) {
    return NFKC.hasBoundaryBefore(cp);
  }

  /** Whether {@code cp} is a combining mark (general category Mn, Mc or Me). */
  static boolean isMark(int cp) {
    int type = UCharacter.getType(cp);
    return type == UCharacterCategory.NON_SPACING_MARK
        || type == UCharacterCategory.ENCLOSING_MARK
        || type == UCharacterCategory.COMBINING_SPACING_MARK;
  }

  /** Whether {@code c} is a base whose combining marks are dropped: printable ASCII, not space. */
  static boolean isAsciiBase(int c) {
    return c > ' ' && c < 0x7F;
  }

  /** {@link #normalizeSegment} of the one code point {@code cp}, cached for the BMP. */
  static String normalizeCodePoint(int cp) {
    if (cp >= 0x10000) {
      return normalizeSegment(Character.toString(cp));
    }
    String cached = SINGLE_CODE_POINT[cp];
    if (cached == null) {
      cached = normalizeSegment(Character.toString(cp));
      SINGLE_CODE_POINT[cp] = cached;
    }
    return cached;
  }

  /**
   * {@link #normalizeSegment} of a segment of several code points; short ones are cached in a small
   * table that a new segment with the same hash slot replaces.
   */
  static String normalizeSegmentCached(String segment) {
    if (segment.length() > MAX_CACHED_SEGMENT) {
      return normalizeSegment(segment);
    }
    int slot = (segment.hashCode() * 0x9E3779B9 >>> 22) & (SHORT_SEGMENTS.length - 1);
    CachedSegment cached = SHORT_SEGMENTS[slot];
    if (cached != null && cached.segment().equals(segment)) {
      return cached.normalized();
    }
    String normalized = normalizeSegment(segment);
    SHORT_SEGMENTS[slot] = new CachedSegment(segment, normalized);
    return normalized;
  }

  /**
   * Steps 2 to 5 on one NFKC segment without invisible characters: NFKC, the skeleton of each
   * non-ASCII code point, NFKC case folding, and the removal of combining marks whose base in the
   * segment is {@linkplain #isAsciiBase printable ASCII}. The result is in NFC; marks at its start
   * (with no base in the segment) are left for the caller, who knows what came before.
   */
  static String normalizeSegment(String segment) {
    String compatible = NFKC.normalize(segment);
    StringBuilder lookalikes = new StringBuilder(compatible.length() + 4);
    for (int i = 0; i < compatible.length(); ) {
      int cp = compatible.codePointAt(i);
      i += Character.charCount(cp);
      if (cp < 0x80) {
        lookalikes.append((char) cp);
      } else {
        appendLookalike(cp, lookalikes);
      }
    }
    String decomposed = NFD.normalize(NFKC_CASEFOLD.normalize(lookalikes));
    StringBuilder unmarked = new StringBuilder(decomposed.length());
    boolean afterAsciiBase = false;
    for (int i = 0; i < decomposed.length(); ) {
      int cp = decomposed.codePointAt(i);
      i += Character.charCount(cp);
      if (isMark(cp)) {
        if (afterAsciiBase) {
          continue;
        }
      } else {
        afterAsciiBase = isAsciiBase(cp);
      }
      unmarked.appendCodePoint(cp);
    }
    return NFC.normalize(unmarked);
  }

  /**
   * Step 3 for one non-ASCII code point, before case folding. Its canonical decomposition keeps its
   * ASCII letters and its marks as they are (the skeleton of {@code ḿ} would be {@code rń}); each
   * other code point in it is replaced by its UTS #39 skeleton, provided every such skeleton is
   * made of ASCII characters and marks, that is, the code point is a look-alike of ASCII. Otherwise
   * the code point is kept ({@code й}, Hangul and Han are no look-alikes, and their skeletons would
   * only scramble them).
   *
   * <p>Taken before case folding so that a capital becomes the capital it imitates (Greek {@code Ν}
   * gives {@code N}, where its lower-case {@code ν} gives {@code v}), with two corrections: the
   * skeleton's prototype for {@code I}, {@code l} and {@code 1} is {@code l}, so a capital whose
   * skeleton starts with {@code l} (Cyrillic {@code І}, Greek {@code Ι}) gets {@code I}; and {@link
   * #EXTRA_PROTOTYPES} become their ASCII letters.
   */
  private static void appendLookalike(int cp, StringBuilder out) {
    String decomposed = NFD.normalize(Character.toString(cp));
    StringBuilder latin = new StringBuilder(decomposed.length() + 2);
    for (int i = 0; i < decomposed.length(); ) {
      int part = decomposed.codePointAt(i);
      i += Character.charCount(part);
      if (part < 0x80 || isMark(part)) {
        latin.appendCodePoint(part);
      } else if (!appendAsciiSkeleton(part, latin)) {
        out.appendCodePoint(cp);
        return;
      }
    }
    out.append(latin);
  }

  /**
   * Appends the skeleton of {@code cp} (corrected as above) if it is made of ASCII characters,
   * marks and {@link #MIDDLE_DOT}s, and returns whether it did.
   */
  private static boolean appendAsciiSkeleton(int cp, StringBuilder out) {
    String skeleton = SPOOF_CHECKER.getSkeleton(Character.toString(cp));
    int from = out.length();
    if (UCharacter.isUUppercase(cp) && skeleton.startsWith("l")) {
      out.append('I').append(skeleton, 1, skeleton.length());
    } else {
      out.append(skeleton);
    }
    for (int i = from; i < out.length(); i++) {
      char c = out.charAt(i);
      int extra = EXTRA_PROTOTYPES.indexOf(c);
      if (extra >= 0) {
        out.setCharAt(i, EXTRA_PROTOTYPE_LETTERS.charAt(extra));
      } else if (c >= 0x80 && c != MIDDLE_DOT && !isMark(c)) {
        out.setLength(from);
        return false;
      }
    }
    return true;
  }
}
