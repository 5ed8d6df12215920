package dev.burnbox.matcher;

import static dev.burnbox.matcher.AllocationMeter.allocatedBytes;
import static dev.burnbox.matcher.SkippingMatcherCases.assertSameAsNaive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WuManberMatcherTest {
  private static final MatchOptions WHOLE_WORDS = new MatchOptions(false, true);
  private static final MatchOptions ANY_CASE_WHOLE_WORDS = new MatchOptions(true, true);

  private static WuManberMatcher compile(MatchOptions options, String... terms) {
    return new WuManberMatcher(TermSet.of(options, terms));
  }

  private static List<String> spans(TermMatcher matcher, String text) {
    List<String> out = new ArrayList<>();
    for (Match m : matcher.findAll(text)) {
      out.add(m.term() + "@" + m.start() + "-" + m.end());
    }
    return out;
  }

  /** Checks the default block size and every other legal one against the oracle. */
  private static void assertEveryBlockSizeAgreesWithNaive(TermSet set, String text, String name) {
    assertSameAsNaive(WuManberMatcher::new, set, text, name + " default B");
    int m = set.minPatternLength();
    for (int b = 1; b <= Math.min(4, m); b++) {
      int block = b;
      assertSameAsNaive(s -> new WuManberMatcher(s, block), set, text, name + " B=" + block);
    }
  }

  @Test
  void blockSizeFollowsWuManberRuleWithinThreeToFourAndShortestLength() {
    assertThat(WuManberMatcher.chooseBlock(1, 1000)).isEqualTo(1);
    assertThat(WuManberMatcher.chooseBlock(2, 1000)).isEqualTo(2);
    assertThat(WuManberMatcher.chooseBlock(3, 1000)).isEqualTo(3);
    assertThat(WuManberMatcher.chooseBlock(5, 5)).isEqualTo(3);
    assertThat(WuManberMatcher.chooseBlock(5, 100)).isEqualTo(3);
    assertThat(WuManberMatcher.chooseBlock(4, 1000)).isEqualTo(4);
    assertThat(WuManberMatcher.chooseBlock(5, 1000)).isEqualTo(4);
    assertThat(WuManberMatcher.chooseBlock(20, 100_000)).isEqualTo(4);
  }

  @Test
  void oneCharTermForcesBlockOfOneAndStillFindsLongTerms() {
    String longTerm = "a-forty-character-long-spam-phrase-xyzzy";
    WuManberMatcher matcher = compile(MatchOptions.EXACT, "$", longTerm);
    assertThat(matcher.block()).isEqualTo(1);
    assertThat(spans(matcher, "pay $5 for " + longTerm + "!"))
        .containsExactly("$@4-5", longTerm + "@11-51");
  }

  @Test
  void rejectsBlockLongerThanShortestTerm() {
    TermSet set = TermSet.of(MatchOptions.EXACT, "abc", "abcdef");
    assertThatThrownBy(() -> new WuManberMatcher(set, 4))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new WuManberMatcher(set, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anchorIsTheWindowWithRarestBlocksAndTiesGoToTheEnd() {
    assertThat(WuManberMatcher.anchorStart("the quiz", 4, 3)).isEqualTo(4);
    assertThat(WuManberMatcher.anchorStart("quiz the", 4, 3)).isEqualTo(0);
    assertThat(WuManberMatcher.anchorStart("aaaaaa", 3, 3)).isEqualTo(3);
    assertThat(WuManberMatcher.anchorStart("abc", 3, 2)).isEqualTo(0);
  }

  @Test
  void reportsByEndThenStartWhenAnchorsSitMidPattern() {
    // "quiz" is the anchor of the long term, so it is found before "the quiz" ends.
    WuManberMatcher matcher = compile(MatchOptions.EXACT, "the quiz show", "show", "the quiz");
    assertThat(spans(matcher, "the quiz show"))
        .containsExactly("the quiz@0-8", "the quiz show@0-13", "show@9-13");
  }

  @Test
  void caseVariantsOutsideAsciiReachTheirBlocks() {
    // KELVIN SIGN folds to 'k' and LATIN SMALL LETTER LONG S to 's'.
    WuManberMatcher matcher = compile(MatchOptions.IGNORE_CASE, "kiss", "ask");
    assertThat(spans(matcher, "\u212Ai\u017Fs a\u017F\u212A"))
        .containsExactly("kiss@0-4", "ask@5-8");
  }

  @Test
  void emptySetNeverMatches() {
    WuManberMatcher matcher = new WuManberMatcher(TermSet.of(MatchOptions.EXACT));
    assertThat(matcher.findAll("anything at all")).isEmpty();
    assertThat(matcher.containsAny("")).isFalse();
  }

  @Test
  void termsLongerThanTextNeverMatch() {
    WuManberMatcher matcher = compile(MatchOptions.EXACT, "longer than the text", "text!");
    assertThat(matcher.findAll("text")).isEmpty();
    assertThat(matcher.containsAny("")).isFalse();
  }

  @Test
  void reportsOverlappingOccurrencesByEndThenStart() {
    WuManberMatcher matcher = compile(MatchOptions.EXACT, "c", "abc", "bc", "aa");
    assertThat(spans(matcher, "aaabc"))
        .containsExactly("aa@0-2", "aa@1-3", "abc@2-5", "bc@3-5", "c@4-5");
  }

  @Test
  void findsMatchesAtTextEdges() {
    WuManberMatcher matcher = compile(MatchOptions.EXACT, "free", "cash");
    assertThat(spans(matcher, "free money, cash")).containsExactly("free@0-4", "cash@12-16");
  }

  @Test
  void shiftAfterHitDoesNotSkipAnOverlappingOccurrence() {
    // "abab" ends with block "ab", which also occurs two units earlier in the same tail.
    WuManberMatcher matcher = new WuManberMatcher(TermSet.of(MatchOptions.EXACT, "abab"), 2);
    assertThat(spans(matcher, "abababab")).containsExactly("abab@0-4", "abab@2-6", "abab@4-8");
  }

  @Test
  void ignoresCaseWithSimpleFoldingOnly() {
    WuManberMatcher matcher =
        compile(
            MatchOptions.IGNORE_CASE, "stra\u00dfe", "\u03c3\u03bf\u03c6\u03bf\u03c2", "k\u0131l");
    assertThat(
            spans(matcher, "STRA\u1e9eE strasse \u03a3\u039f\u03a6\u039f\u03a3 \u212a\u0131L kil"))
        .containsExactly(
            "stra\u00dfe@0-6", "\u03c3\u03bf\u03c6\u03bf\u03c2@15-20", "k\u0131l@21-24");
  }

  @Test
  void ignoresCaseOnSupplementaryLetters() {
    // Deseret capital and small long I.
    WuManberMatcher matcher = compile(MatchOptions.IGNORE_CASE, "x\ud801\udc00y");
    assertThat(spans(matcher, "X\ud801\udc28Y x\ud801\udc00y"))
        .containsExactly("x\ud801\udc00y@0-4", "x\ud801\udc00y@5-9");
  }

  @Test
  void wholeWordsTreatsDigitsAsWordCharsAndHyphensAsBoundaries() {
    WuManberMatcher matcher = compile(WHOLE_WORDS, "win", "cash");
    assertThat(spans(matcher, "win2 win-cash cash's wins\r\nwin\tcash1"))
        .containsExactly("win@5-8", "cash@9-13", "cash@14-18", "win@27-30");
  }

  @Test
  void containsAnySkipsRejectedBoundariesAndStopsAtFirstAccepted() {
    WuManberMatcher matcher = compile(WHOLE_WORDS, "sale");
    assertThat(matcher.containsAny("wholesale resale")).isFalse();
    assertThat(matcher.containsAny("wholesale sale")).isTrue();
  }

  @Test
  void scansWithoutOccurrencesAllocateNothing() {
    for (MatchOptions options : List.of(MatchOptions.EXACT, ANY_CASE_WHOLE_WORDS)) {
      for (int block = 1; block <= 4; block++) {
        TermMatcher matcher =
            new WuManberMatcher(TermSet.of(options, "viagra", "casino", "free money"), block);
        // Near misses: every window passes the shift test and reaches verification.
        String text =
            "Viagr casin0 free mone, vi4gra CAS1NO freemoney viagrr casi no\r\n".repeat(20);
        MatchSink sink =
            (term, start, end) -> {
              throw new AssertionError("unexpected match");
            };
        assertThat(matcher.findAll(text)).isEmpty();
        assertThat(allocatedBytes(() -> matcher.forEachMatch(text, sink), 200))
            .as("forEachMatch %s B=%d", options, block)
            .isZero();
        assertThat(allocatedBytes(() -> matcher.containsAny(text), 200))
            .as("containsAny %s B=%d", options, block)
            .isZero();
      }
    }
  }

  @Test
  void agreesWithNaiveOnTinyAlphabets() {
    SkippingMatcherCases.agreesWithNaiveOnTinyAlphabets(
        WuManberMatcherTest::assertEveryBlockSizeAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveOnMixedCaseUnicodeIgnoringCase() {
    SkippingMatcherCases.agreesWithNaiveOnMixedCaseUnicodeIgnoringCase(
        WuManberMatcherTest::assertEveryBlockSizeAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveOnWholeWordsWithDigitsHyphensApostrophesAndLineBreaks() {
    SkippingMatcherCases.agreesWithNaiveOnWholeWordsWithDigitsHyphensApostrophesAndLineBreaks(
        WuManberMatcherTest::assertEveryBlockSizeAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveOnVeryDifferentTermLengths() {
    SkippingMatcherCases.agreesWithNaiveOnVeryDifferentTermLengths(
        WuManberMatcherTest::assertEveryBlockSizeAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveWhenTermsAreLongerThanTheLongestShift() {
    SkippingMatcherCases.agreesWithNaiveWhenTermsAreLongerThanTheLongestShift(
        WuManberMatcherTest::assertEveryBlockSizeAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveOnTextWithUnpairedSurrogates() {
    SkippingMatcherCases.agreesWithNaiveOnTextWithUnpairedSurrogates(
        WuManberMatcherTest::assertEveryBlockSizeAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveOnLargeSets() {
    SkippingMatcherCases.agreesWithNaiveOnLargeSets(
        WuManberMatcherTest::assertEveryBlockSizeAgreesWithNaive);
  }
}
