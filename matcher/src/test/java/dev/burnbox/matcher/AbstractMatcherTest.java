package dev.burnbox.matcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Behaviour and property tests every matcher of this branch must pass, on its own (independent of
 * the shared contract table). Subclasses say how to compile a term set.
 *
 * <p>Property tests compare {@link TermMatcher#findAll} and {@link TermMatcher#containsAny} with
 * {@link MatcherKind#NAIVE} over term sets and texts drawn from seeded {@link Random}s; a failure
 * message names the seed, terms and text.
 */
abstract class AbstractMatcherTest {
  private static final MatchSink IGNORE = (term, start, end) -> {};
  private static final MatchOptions WHOLE_WORDS = new MatchOptions(false, true);
  private static final MatchOptions WHOLE_WORDS_IGNORE_CASE = new MatchOptions(true, true);

  /** Compiles {@code terms} with the matcher under test. */
  abstract TermMatcher compile(TermSet terms);

  private List<Match> find(MatchOptions options, String text, String... terms) {
    return compile(TermSet.of(options, terms)).findAll(text);
  }

  private static Match match(String term, int index, int start, int end) {
    return new Match(term, index, start, end);
  }

  @Test
  void reportsOverlappingOccurrencesByEndThenStart() {
    assertThat(find(MatchOptions.EXACT, "ushers", "he", "she", "his", "hers"))
        .containsExactly(match("she", 1, 1, 4), match("he", 0, 2, 4), match("hers", 3, 2, 6));
  }

  @Test
  void reportsTermsThatArePrefixesSuffixesAndInfixesOfEachOther() {
    assertThat(find(MatchOptions.EXACT, "abcd", "abcd", "a", "bc", "cd", "abc", "d"))
        .containsExactly(
            match("a", 1, 0, 1),
            match("abc", 4, 0, 3),
            match("bc", 2, 1, 3),
            match("abcd", 0, 0, 4),
            match("cd", 3, 2, 4),
            match("d", 5, 3, 4));
  }

  @Test
  void reportsEveryOccurrenceInARunOfOneLetter() {
    List<Match> found = find(MatchOptions.EXACT, "aaaa", "a", "aa", "aaa");
    assertThat(found).hasSize(4 + 3 + 2);
    assertThat(found.subList(0, 3))
        .containsExactly(match("a", 0, 0, 1), match("aa", 1, 0, 2), match("a", 0, 1, 2));
  }

  @Test
  void isCaseSensitiveByDefault() {
    assertThat(find(MatchOptions.EXACT, "Viagra viagra", "viagra"))
        .containsExactly(match("viagra", 0, 7, 13));
  }

  @Test
  void ignoresCaseWithSimpleFoldingAndReportsTheTermAsGiven() {
    assertThat(find(MatchOptions.IGNORE_CASE, "VIAGRA and ViAgRa", "Viagra"))
        .containsExactly(match("Viagra", 0, 0, 6), match("Viagra", 0, 11, 17));
    // Kelvin sign folds to k; final sigma folds with sigma
    assertThat(find(MatchOptions.IGNORE_CASE, "\u212Aσ ΚΣ kς", "kσ")).hasSize(2);
  }

  @Test
  void keepsTurkishDottedAndDotlessIApartFromPlainI() {
    assertThat(find(MatchOptions.IGNORE_CASE, "I i İ ı", "i"))
        .extracting(Match::start)
        .containsExactly(0, 2);
    assertThat(find(MatchOptions.IGNORE_CASE, "I i İ ı", "ı"))
        .extracting(Match::start)
        .containsExactly(6);
  }

  @Test
  void doesNotMatchSharpSWithDoubleS() {
    assertThat(find(MatchOptions.IGNORE_CASE, "strasse straße STRAẞE", "straße"))
        .extracting(Match::start)
        .containsExactly(8, 15);
  }

  @Test
  void matchesSupplementaryCaseVariantsAndEmoji() {
    // Deseret capital long I (U+10400) and its small form (U+10428)
    String capital = "\uD801\uDC00";
    String small = "\uD801\uDC28";
    assertThat(
            find(MatchOptions.IGNORE_CASE, "x" + capital + "y" + small + "😀", small + "y", "😀"))
        .containsExactly(match(small + "y", 0, 1, 4), match("😀", 1, 6, 8));
    assertThat(find(MatchOptions.EXACT, capital + small, small))
        .containsExactly(match(small, 0, 2, 4));
  }

  @Test
  void wholeWordsTreatsPunctuationAsBoundariesAndDigitsAsWordCharacters() {
    String text = "win-win, don't win2 2win win's\r\n\twin";
    assertThat(find(WHOLE_WORDS, text, "win"))
        .extracting(Match::start)
        .containsExactly(0, 4, 25, 33);
    assertThat(find(WHOLE_WORDS, text, "don")).extracting(Match::start).containsExactly(9);
    assertThat(find(WHOLE_WORDS_IGNORE_CASE, "WIN winner", "win")).hasSize(1);
  }

  @Test
  void wholeWordsSeesSupplementaryLettersAsWordCharacters() {
    String deseret = "\uD801\uDC00";
    assertThat(find(WHOLE_WORDS, "ab" + deseret + " ab", "ab"))
        .extracting(Match::start)
        .containsExactly(5);
  }

  @Test
  void containsAnyIgnoresOccurrencesRejectedByWordBoundaries() {
    TermMatcher matcher = compile(TermSet.of(WHOLE_WORDS, "cash", "free"));
    assertThat(matcher.containsAny("cashback freedom")).isFalse();
    assertThat(matcher.containsAny("cashback freedom, free")).isTrue();
  }

  @Test
  void emptyTermSetNeverMatches() {
    TermMatcher matcher = compile(TermSet.of(MatchOptions.IGNORE_CASE));
    assertThat(matcher.containsAny("anything at all")).isFalse();
    assertThat(matcher.findAll("anything at all")).isEmpty();
  }

  @Test
  void termsLongerThanTheTextAndEmptyTextAreFine() {
    TermMatcher matcher = compile(TermSet.of(MatchOptions.EXACT, "a much longer term", "lon"));
    assertThat(matcher.findAll("a much lon")).containsExactly(match("lon", 1, 7, 10));
    assertThat(matcher.findAll("")).isEmpty();
    assertThat(matcher.containsAny("")).isFalse();
  }

  @Test
  void summarizeCountsOccurrencesPerTerm() {
    MatchSummary summary =
        compile(TermSet.of(MatchOptions.IGNORE_CASE, "free", "cash")).summarize("FREE cash, free!");
    assertThat(summary.counts()).containsExactly(Map.entry("free", 2), Map.entry("cash", 1));
  }

  @Test
  void scanningTextWithoutOccurrencesAllocatesNothing() {
    String text =
        "Dear colleague, the report is attached. Ünïcödé σοφός 😀 \uD801\uDC00\r\n".repeat(10);
    for (MatchOptions options :
        List.of(MatchOptions.EXACT, MatchOptions.IGNORE_CASE, WHOLE_WORDS_IGNORE_CASE)) {
      // partial matches ("report" in "reports", "dear" in "dearest") walk deep states; with whole
      // words, "rep", "ear" and "olleague" occur but only inside words, so they are rejected
      TermMatcher matcher =
          options.wholeWords()
              ? compile(TermSet.of(options, "viagra", "qq", "rep", "ear", "olleague"))
              : compile(
                  TermSet.of(options, "viagra", "wire transfer", "xyz", "reports", "dearest"));
      assertThat(matcher.containsAny(text)).as("%s", options).isFalse();
      long allocated =
          AllocationMeter.allocatedBytes(
              () -> {
                matcher.containsAny(text);
                matcher.forEachMatch(text, IGNORE);
              },
              20);
      assertThat(allocated).as("bytes allocated by 40 scans with %s", options).isZero();
    }
  }

  // ---- properties against the naive matcher ----

  @Test
  void agreesWithNaiveOnTinyAlphabets() {
    for (int seed = 0; seed < 300; seed++) {
      Random random = new Random(seed);
      String alphabet = random.nextBoolean() ? "a" : random.nextBoolean() ? "ab" : "abc";
      checkAgainstNaive(seed, random, codePoints(alphabet), options(random), 8, 300);
    }
  }

  @Test
  void agreesWithNaiveOnMixedCaseUnicode() {
    int[] alphabet =
        codePoints("aAiIİısSßẞσςΣkK\u212Aé É\uD801\uDC00\uD801\uDC28\uD801\uDC01😀ΐ\u1FD3-'");
    for (int seed = 0; seed < 300; seed++) {
      Random random = new Random(1_000 + seed);
      checkAgainstNaive(seed, random, alphabet, options(random), 5, 120);
    }
  }

  @Test
  void agreesWithNaiveOnWordsWithDigitsHyphensApostrophesAndLineBreaks() {
    int[] alphabet = codePoints("abAB12 -'\r\n\t.");
    for (int seed = 0; seed < 300; seed++) {
      Random random = new Random(2_000 + seed);
      MatchOptions options = new MatchOptions(random.nextBoolean(), true);
      checkAgainstNaive(seed, random, alphabet, options, 6, 200);
    }
  }

  @Test
  void agreesWithNaiveOnManyTermsOverLowerCaseText() {
    int[] alphabet = codePoints("abcdefghij ");
    for (int seed = 0; seed < 30; seed++) {
      Random random = new Random(3_000 + seed);
      List<String> terms = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        terms.add(randomString(random, alphabet, 1 + random.nextInt(7)));
      }
      String text = randomString(random, alphabet, 2_000);
      compareWithNaive("seed " + seed, TermSet.of(terms, options(random)), text);
    }
  }

  private void checkAgainstNaive(
      int seed,
      Random random,
      int[] alphabet,
      MatchOptions options,
      int maxTermLength,
      int maxText) {
    List<String> terms = new ArrayList<>();
    int count = random.nextInt(10);
    for (int i = 0; i < count; i++) {
      String term = randomString(random, alphabet, 1 + random.nextInt(maxTermLength));
      // derived terms make prefix and suffix relations common
      if (!terms.isEmpty() && random.nextInt(3) == 0) {
        String other = terms.get(random.nextInt(terms.size()));
        term = random.nextBoolean() ? other + term : term + other;
      }
      if (!term.isBlank() || random.nextBoolean()) {
        terms.add(term.isEmpty() ? "a" : term);
      }
    }
    String text = randomString(random, alphabet, random.nextInt(maxText));
    compareWithNaive(
        "seed " + seed + ", " + options + ", terms " + terms + ", text '" + text + "'",
        TermSet.of(terms, options),
        text);
  }

  private void compareWithNaive(String context, TermSet set, String text) {
    List<Match> expected = MatcherKind.NAIVE.compile(set).findAll(text);
    TermMatcher matcher = compile(set);
    assertThat(matcher.findAll(text)).as(context).containsExactlyElementsOf(expected);
    assertThat(matcher.containsAny(text)).as(context).isEqualTo(!expected.isEmpty());
  }

  private static MatchOptions options(Random random) {
    return new MatchOptions(random.nextBoolean(), random.nextInt(4) == 0);
  }

  private static int[] codePoints(String s) {
    return s.codePoints().toArray();
  }

  private static String randomString(Random random, int[] alphabet, int codePoints) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < codePoints; i++) {
      out.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
    }
    return out.toString();
  }
}
