package dev.burnbox.matcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * Seeded random cases for the skipping matchers' property tests, and the comparison with {@link
 * MatcherKind#NAIVE}. Everything is derived from the seed, so a failure message names a
 * reproducible case.
 */
final class SkippingMatcherCases {
  /** Code points that stress simple case folding: Turkish, sharp s, sigmas, Kelvin, long s. */
  static final String FOLDING_ALPHABET =
      "aAbBiIsSkK\u0130\u0131\u00df\u1e9e\u03c3\u03c2\u03a3\u212a\u017f"
          + "\ud801\udc00\ud801\udc28\ud83d\ude00 ";

  /** Word characters and every kind of boundary: digits, hyphen, apostrophe, CRLF, tab. */
  static final String WORD_ALPHABET = "abAB1-' \r\n\t";

  private SkippingMatcherCases() {}

  /** A string of {@code length} code points drawn from {@code alphabet}'s code points. */
  static String randomString(Random random, String alphabet, int length) {
    int[] cps = alphabet.codePoints().toArray();
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < length; i++) {
      out.appendCodePoint(cps[random.nextInt(cps.length)]);
    }
    return out.toString();
  }

  /** {@code count} random terms of {@code minLength..maxLength} code points. */
  static List<String> randomTerms(
      Random random, String alphabet, int count, int minLength, int maxLength) {
    List<String> terms = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      terms.add(
          randomString(random, alphabet, minLength + random.nextInt(maxLength - minLength + 1)));
    }
    return terms;
  }

  /** A text made of random filler with some of the terms (or their prefixes) planted in it. */
  static String plantedText(Random random, String alphabet, List<String> terms, int pieces) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < pieces; i++) {
      int kind = random.nextInt(4);
      if (kind == 0 && !terms.isEmpty()) {
        out.append(terms.get(random.nextInt(terms.size())));
      } else if (kind == 1 && !terms.isEmpty()) {
        String term = terms.get(random.nextInt(terms.size()));
        out.append(
            term,
            0,
            Character.offsetByCodePoints(term, 0, term.codePointCount(0, term.length()) / 2));
      } else {
        out.append(randomString(random, alphabet, random.nextInt(5)));
      }
    }
    return out.toString();
  }

  /** One comparison of a matcher with the oracle, as a scenario runs it. */
  @FunctionalInterface
  interface Check {
    void check(TermSet set, String text, String caseName);
  }

  /**
   * Scenario behind agreesWithNaiveOnTinyAlphabets: seeded, so a failure names a reproducible case.
   */
  static void agreesWithNaiveOnTinyAlphabets(Check check) {
    Random random = new Random(11);
    for (int i = 0; i < 3000; i++) {
      String alphabet = random.nextBoolean() ? "a" : "ab";
      TermSet set =
          TermSet.of(
              randomTerms(random, alphabet, 1 + random.nextInt(6), 1, 7),
              new MatchOptions(random.nextBoolean(), random.nextBoolean()));
      String text =
          randomString(random, alphabet + (random.nextBoolean() ? " " : ""), random.nextInt(40));
      check.check(set, text, "tiny #" + i);
    }
  }

  /**
   * Scenario behind agreesWithNaiveOnMixedCaseUnicodeIgnoringCase: seeded, so a failure names a
   * reproducible case.
   */
  static void agreesWithNaiveOnMixedCaseUnicodeIgnoringCase(Check check) {
    Random random = new Random(12);
    for (int i = 0; i < 3000; i++) {
      List<String> terms = randomTerms(random, FOLDING_ALPHABET, 1 + random.nextInt(8), 1, 5);
      TermSet set = TermSet.of(terms, new MatchOptions(true, random.nextInt(4) == 0));
      String text = plantedText(random, FOLDING_ALPHABET, terms, random.nextInt(12));
      check.check(set, text, "unicode #" + i);
    }
  }

  /**
   * Scenario behind agreesWithNaiveOnWholeWordsWithDigitsHyphensApostrophesAndLineBreaks: seeded,
   * so a failure names a reproducible case.
   */
  static void agreesWithNaiveOnWholeWordsWithDigitsHyphensApostrophesAndLineBreaks(Check check) {
    Random random = new Random(13);
    for (int i = 0; i < 3000; i++) {
      List<String> terms = randomTerms(random, "abAB1-'", 1 + random.nextInt(6), 1, 5);
      TermSet set = TermSet.of(terms, new MatchOptions(random.nextBoolean(), true));
      String text = plantedText(random, WORD_ALPHABET, terms, random.nextInt(12));
      check.check(set, text, "words #" + i);
    }
  }

  /**
   * Scenario behind agreesWithNaiveOnVeryDifferentTermLengths: seeded, so a failure names a
   * reproducible case.
   */
  static void agreesWithNaiveOnVeryDifferentTermLengths(Check check) {
    Random random = new Random(14);
    for (int i = 0; i < 500; i++) {
      List<String> terms = randomTerms(random, "abcd", 1 + random.nextInt(3), 1, 2);
      terms.addAll(randomTerms(random, "abcd", 1 + random.nextInt(3), 30, 40));
      TermSet set = TermSet.of(terms, new MatchOptions(random.nextBoolean(), false));
      String text = plantedText(random, "abcd", terms, random.nextInt(20));
      check.check(set, text, "lengths #" + i);
    }
  }

  /**
   * Scenario behind agreesWithNaiveWhenTermsAreLongerThanTheLongestShift: seeded, so a failure
   * names a reproducible case.
   */
  static void agreesWithNaiveWhenTermsAreLongerThanTheLongestShift(Check check) {
    Random random = new Random(16);
    for (int i = 0; i < 100; i++) {
      List<String> terms = randomTerms(random, "ab", 1 + random.nextInt(3), 126, 140);
      TermSet set = TermSet.of(terms, new MatchOptions(random.nextBoolean(), false));
      String text = plantedText(random, "abc", terms, random.nextInt(8));
      check.check(set, text, "long #" + i);
    }
  }

  /**
   * Scenario behind agreesWithNaiveOnTextWithUnpairedSurrogates: seeded, so a failure names a
   * reproducible case.
   */
  static void agreesWithNaiveOnTextWithUnpairedSurrogates(Check check) {
    Random random = new Random(17);
    for (int i = 0; i < 1000; i++) {
      List<String> terms = randomTerms(random, FOLDING_ALPHABET, 1 + random.nextInt(5), 1, 4);
      TermSet set = TermSet.of(terms, new MatchOptions(random.nextBoolean(), random.nextBoolean()));
      StringBuilder text = new StringBuilder(plantedText(random, FOLDING_ALPHABET, terms, 8));
      for (int j = random.nextInt(3); j > 0; j--) {
        text.insert(random.nextInt(text.length() + 1), random.nextBoolean() ? '\ud801' : '\udc28');
      }
      check.check(set, text.toString(), "surrogates #" + i);
    }
  }

  /** Scenario behind agreesWithNaiveOnLargeSets: seeded, so a failure names a reproducible case. */
  static void agreesWithNaiveOnLargeSets(Check check) {
    Random random = new Random(15);
    for (int i = 0; i < 30; i++) {
      List<String> terms = randomTerms(random, "etaoinshrdlu ", 50 + random.nextInt(500), 3, 12);
      TermSet set = TermSet.of(terms, new MatchOptions(random.nextBoolean(), random.nextBoolean()));
      String text = plantedText(random, "etaoinshrdlu .,ETAOIN", terms, 400);
      check.check(set, text, "large #" + i);
    }
  }

  /** Asserts {@code kind} finds exactly what {@link MatcherKind#NAIVE} finds, in the same order. */
  static void assertSameAsNaive(
      Function<TermSet, TermMatcher> compile, TermSet set, String text, String caseName) {
    TermMatcher naive = MatcherKind.NAIVE.compile(set);
    TermMatcher matcher = compile.apply(set);
    List<Match> expected = naive.findAll(text);
    assertThat(matcher.findAll(text))
        .as("%s: %s in %s", caseName, set, escape(text))
        .isEqualTo(expected);
    assertThat(matcher.containsAny(text))
        .as("containsAny %s: %s in %s", caseName, set, escape(text))
        .isEqualTo(!expected.isEmpty());
  }

  static String escape(String s) {
    StringBuilder out = new StringBuilder("\"");
    s.chars()
        .forEach(
            c -> {
              if (c >= 0x20 && c < 0x7f) {
                out.append((char) c);
              } else {
                out.append(String.format("\\u%04x", c));
              }
            });
    return out.append('"').toString();
  }
}
