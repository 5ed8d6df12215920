package dev.burnbox.bench.matcher;

import dev.burnbox.matcher.CaseFolding;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.matcher.TermMatcher;
import dev.burnbox.matcher.TermSet;
import java.util.BitSet;
import java.util.Random;

/**
 * Random text that no term of a given set occurs in: random lower-case "words" of 1 to 10 letters
 * separated by spaces, punctuation and line breaks; then every accidental occurrence (found with
 * the reference matcher) is broken by replacing its middle character with one that no scan pattern
 * contains, so no new occurrence can appear. {@link #mails} verifies the result has no occurrence.
 *
 * <p>With large hit-heavy sets many letters end up replaced: {@link #replacedShare} says how many.
 * Deterministic for a given term set and seed. Not thread-safe.
 */
final class NoHitText {
  private static final String FILLERS = "qxzjkvwy0123456789#~^|";
  private final double replacedShare;
  private final String[] mails;

  private NoHitText(String[] mails, double replacedShare) {
    this.mails = mails;
    this.replacedShare = replacedShare;
  }

  /** {@code count} mails of {@code chars} chars each, free of {@code terms}. */
  static NoHitText generate(TermSet terms, int count, int chars, long seed) {
    Random random = new Random(seed);
    char filler = filler(terms);
    TermMatcher reference = MatcherKind.ORG_AHOCORASICK.compile(terms);
    String[] mails = new String[count];
    long replaced = 0;
    for (int m = 0; m < count; m++) {
      char[] mail = randomText(random, chars);
      // One pass suffices (the filler occurs in no pattern); the loop is belt and braces.
      for (int round = 0; round < 3; round++) {
        BitSet hits = new BitSet();
        reference.forEachMatch(new String(mail), (t, start, end) -> hits.set((start + end) / 2));
        if (hits.isEmpty()) {
          break;
        }
        for (int i = hits.nextSetBit(0); i >= 0; i = hits.nextSetBit(i + 1)) {
          mail[i] = filler;
          replaced++;
        }
      }
      mails[m] = new String(mail);
      if (!reference.findAll(mails[m]).isEmpty()) {
        throw new IllegalStateException("random text still has occurrences of " + terms);
      }
    }
    return new NoHitText(mails, (double) replaced / ((long) count * chars));
  }

  private static char[] randomText(Random random, int chars) {
    char[] out = new char[chars];
    int i = 0;
    while (i < chars) {
      int len = 1 + random.nextInt(10);
      for (int k = 0; k < len && i < chars; k++) {
        out[i++] = (char) ('a' + random.nextInt(26));
      }
      if (i < chars) {
        int r = random.nextInt(20);
        out[i++] = r == 0 ? '\n' : r == 1 ? ',' : r == 2 ? '.' : ' ';
      }
    }
    return out;
  }

  private static char filler(TermSet terms) {
    BitSet used = new BitSet(Character.MAX_VALUE + 1);
    for (int p = 0; p < terms.patternCount(); p++) {
      String pattern = terms.pattern(p);
      for (int i = 0; i < pattern.length(); i++) {
        used.set(pattern.charAt(i));
      }
    }
    for (char c : (FILLERS + "\u00b7\u2022").toCharArray()) {
      if (!used.get(CaseFolding.foldChar(c))) {
        return c;
      }
    }
    throw new IllegalStateException("every filler character occurs in some term");
  }

  /** The mails. */
  String[] mails() {
    return mails;
  }

  /** The share of characters that had to be replaced to break accidental occurrences. */
  double replacedShare() {
    return replacedShare;
  }
}
