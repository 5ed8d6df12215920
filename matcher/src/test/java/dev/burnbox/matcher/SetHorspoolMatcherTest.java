package dev.burnbox.matcher;

import static dev.burnbox.matcher.AllocationMeter.allocatedBytes;
import static dev.burnbox.matcher.SkippingMatcherCases.assertSameAsNaive;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SetHorspoolMatcherTest {
  private static final MatchOptions WHOLE_WORDS = new MatchOptions(false, true);
  private static final MatchOptions ANY_CASE_WHOLE_WORDS = new MatchOptions(true, true);

  private static SetHorspoolMatcher compile(MatchOptions options, String... terms) {
    return new SetHorspoolMatcher(TermSet.of(options, terms));
  }

  private static List<String> spans(TermMatcher matcher, String text) {
    List<String> out = new ArrayList<>();
    for (Match m : matcher.findAll(text)) {
      out.add(m.term() + "@" + m.start() + "-" + m.end());
    }
    return out;
  }

  private static void assertAgreesWithNaive(TermSet set, String text, String name) {
    assertSameAsNaive(SetHorspoolMatcher::new, set, text, name);
  }

  @Test
  void caseVariantsOutsideAsciiPassTheShiftTableAndPairFilter() {
    // KELVIN SIGN folds to 'k' and LATIN SMALL LETTER LONG S to 's'.
    SetHorspoolMatcher matcher = compile(MatchOptions.IGNORE_CASE, "kiss", "ask");
    assertThat(spans(matcher, "\u212Ai\u017Fs a\u017F\u212A"))
        .containsExactly("kiss@0-4", "ask@5-8");
  }

  @Test
  void oneCharTermsDisableThePairFilter() {
    SetHorspoolMatcher matcher = compile(MatchOptions.EXACT, "x", "yz");
    assertThat(spans(matcher, "x ayz x")).containsExactly("x@0-1", "yz@3-5", "x@6-7");
  }

  @Test
  void emptySetNeverMatches() {
    SetHorspoolMatcher matcher = new SetHorspoolMatcher(TermSet.of(MatchOptions.EXACT));
    assertThat(matcher.findAll("anything at all")).isEmpty();
    assertThat(matcher.containsAny("")).isFalse();
  }

  @Test
  void termsLongerThanTextNeverMatch() {
    SetHorspoolMatcher matcher = compile(MatchOptions.EXACT, "longer than the text", "text!");
    assertThat(matcher.findAll("text")).isEmpty();
    assertThat(matcher.containsAny("")).isFalse();
  }

  @Test
  void reportsOverlappingOccurrencesByEndThenStart() {
    SetHorspoolMatcher matcher = compile(MatchOptions.EXACT, "c", "abc", "bc", "aa");
    assertThat(spans(matcher, "aaabc"))
        .containsExactly("aa@0-2", "aa@1-3", "abc@2-5", "bc@3-5", "c@4-5");
  }

  @Test
  void findsMatchesAtTextEdges() {
    SetHorspoolMatcher matcher = compile(MatchOptions.EXACT, "free", "cash");
    assertThat(spans(matcher, "free money, cash")).containsExactly("free@0-4", "cash@12-16");
  }

  @Test
  void shiftAfterTrieWalkDoesNotSkipAnOverlappingOccurrence() {
    // 'b' ends "abab" and also occurs two units before its end.
    SetHorspoolMatcher matcher = compile(MatchOptions.EXACT, "abab");
    assertThat(spans(matcher, "abababab")).containsExactly("abab@0-4", "abab@2-6", "abab@4-8");
  }

  @Test
  void oneCharTermNextToFortyCharTermFindsBoth() {
    String longTerm = "a-forty-character-long-spam-phrase-xyzzy";
    SetHorspoolMatcher matcher = compile(MatchOptions.EXACT, "$", longTerm);
    assertThat(spans(matcher, "pay $5 for " + longTerm + "!"))
        .containsExactly("$@4-5", longTerm + "@11-51");
  }

  @Test
  void nonLatinTextSharingLowBitsWithTermUnitsIsStillExact() {
    // U+0161 and U+0261 share their low 8 bits with 'a' (0x61): same shift-table entry.
    SetHorspoolMatcher matcher = compile(MatchOptions.EXACT, "ab");
    assertThat(spans(matcher, "\u0161b \u0261b ab")).containsExactly("ab@6-8");
  }

  @Test
  void ignoresCaseWithSimpleFoldingOnly() {
    SetHorspoolMatcher matcher =
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
    SetHorspoolMatcher matcher = compile(MatchOptions.IGNORE_CASE, "x\ud801\udc00y");
    assertThat(spans(matcher, "X\ud801\udc28Y x\ud801\udc00y"))
        .containsExactly("x\ud801\udc00y@0-4", "x\ud801\udc00y@5-9");
  }

  @Test
  void wholeWordsTreatsDigitsAsWordCharsAndHyphensAsBoundaries() {
    SetHorspoolMatcher matcher = compile(WHOLE_WORDS, "win", "cash");
    assertThat(spans(matcher, "win2 win-cash cash's wins\r\nwin\tcash1"))
        .containsExactly("win@5-8", "cash@9-13", "cash@14-18", "win@27-30");
  }

  @Test
  void containsAnySkipsRejectedBoundariesAndStopsAtFirstAccepted() {
    SetHorspoolMatcher matcher = compile(WHOLE_WORDS, "sale");
    assertThat(matcher.containsAny("wholesale resale")).isFalse();
    assertThat(matcher.containsAny("wholesale sale")).isTrue();
  }

  @Test
  void scansWithoutOccurrencesAllocateNothing() {
    for (MatchOptions options : List.of(MatchOptions.EXACT, ANY_CASE_WHOLE_WORDS)) {
      TermMatcher matcher =
          new SetHorspoolMatcher(TermSet.of(options, "viagra", "casino", "free money"));
      // Near misses: many windows end in a term's last unit and walk the trie.
      String text = "Viagr casin0 free mone, vi4gra CAS1NO freemoney viagrr casi no\r\n".repeat(20);
      MatchSink sink =
          (term, start, end) -> {
            throw new AssertionError("unexpected match");
          };
      assertThat(matcher.findAll(text)).isEmpty();
      assertThat(allocatedBytes(() -> matcher.forEachMatch(text, sink), 200))
          .as("forEachMatch %s", options)
          .isZero();
      assertThat(allocatedBytes(() -> matcher.containsAny(text), 200))
          .as("containsAny %s", options)
          .isZero();
    }
  }

  @Test
  void agreesWithNaiveOnTinyAlphabets() {
    SkippingMatcherCases.agreesWithNaiveOnTinyAlphabets(
        SetHorspoolMatcherTest::assertAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveOnMixedCaseUnicodeIgnoringCase() {
    SkippingMatcherCases.agreesWithNaiveOnMixedCaseUnicodeIgnoringCase(
        SetHorspoolMatcherTest::assertAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveOnWholeWordsWithDigitsHyphensApostrophesAndLineBreaks() {
    SkippingMatcherCases.agreesWithNaiveOnWholeWordsWithDigitsHyphensApostrophesAndLineBreaks(
        SetHorspoolMatcherTest::assertAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveOnVeryDifferentTermLengths() {
    SkippingMatcherCases.agreesWithNaiveOnVeryDifferentTermLengths(
        SetHorspoolMatcherTest::assertAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveWhenTermsAreLongerThanTheLongestShift() {
    SkippingMatcherCases.agreesWithNaiveWhenTermsAreLongerThanTheLongestShift(
        SetHorspoolMatcherTest::assertAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveOnTextWithUnpairedSurrogates() {
    SkippingMatcherCases.agreesWithNaiveOnTextWithUnpairedSurrogates(
        SetHorspoolMatcherTest::assertAgreesWithNaive);
  }

  @Test
  void agreesWithNaiveOnLargeSets() {
    SkippingMatcherCases.agreesWithNaiveOnLargeSets(SetHorspoolMatcherTest::assertAgreesWithNaive);
  }
}
