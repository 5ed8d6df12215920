package dev.burnbox.wordlists;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TermSetGeneratorTest {
  /** Ordinary (ham) English mail, written for this test. */
  static final String HAM =
      """
      Hi Sarah, thanks for sending the minutes from Tuesday's meeting. I read through them this
      morning and everything looks right to me, except that the budget review has moved to next
      Thursday because Mark is travelling for most of the week. Could you let the others know? I
      also spoke with the people from the library about the reading group. They are happy for us
      to use the small room on the second floor every other Wednesday evening, as long as we leave
      it tidy and return the key to the front desk before we go home. The first book will be the
      one we talked about at dinner, so please bring your copy if you still have it. On a
      different note, my sister and her children are coming to stay with us over the holidays,
      which means the house will be busy and rather loud for a couple of weeks. If you need
      anything from me during that time, a phone call is probably the best way to reach me.
      Looking forward to seeing you at the weekend, and give my regards to your family.
      Best wishes, Tom
      """;

  static int hits(List<String> terms, String text) {
    String haystack = text.toLowerCase(Locale.ROOT);
    int hits = 0;
    for (String term : terms) {
      String needle = term.toLowerCase(Locale.ROOT);
      for (int at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
        hits++;
      }
    }
    return hits;
  }

  static void assertWellFormed(List<String> terms, int count) {
    assertThat(terms).hasSize(count);
    assertThat(terms).allSatisfy(t -> assertThat(t.length()).isBetween(4, 20));
    assertThat(terms).allSatisfy(t -> assertThat(t).isEqualTo(t.strip()));
    Set<String> keys = new HashSet<>();
    for (String t : terms) {
      assertThat(keys.add(t.toLowerCase(Locale.ROOT))).as("duplicate %s", t).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 10, 100, 1_000, 10_000})
  void realisticSpamHasExactSizeLengthsAndDistinctTerms(int count) {
    assertWellFormed(TermSetGenerator.realisticSpam(count, 42), count);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 10, 100, 1_000, 10_000})
  void hitHeavyHasExactSizeLengthsAndDistinctTerms(int count) {
    assertWellFormed(TermSetGenerator.hitHeavy(count, 42), count);
  }

  @Test
  void generatorsWorkUpToTheirLimits() {
    assertWellFormed(
        TermSetGenerator.hitHeavy(TermSetGenerator.HIT_HEAVY_MAX, 1),
        TermSetGenerator.HIT_HEAVY_MAX);
    assertWellFormed(
        TermSetGenerator.realisticSpam(TermSetGenerator.REALISTIC_SPAM_MAX, 1),
        TermSetGenerator.REALISTIC_SPAM_MAX);
  }

  @ParameterizedTest
  @ValueSource(ints = {10, 100, 1_000, 10_000})
  void sameSeedSameListDifferentSeedDifferentList(int count) {
    for (BiFunction<Integer, Long, List<String>> gen :
        List.<BiFunction<Integer, Long, List<String>>>of(
            TermSetGenerator::realisticSpam, TermSetGenerator::hitHeavy)) {
      assertThat(gen.apply(count, 7L)).isEqualTo(gen.apply(count, 7L));
      assertThat(gen.apply(count, 7L)).isNotEqualTo(gen.apply(count, 8L));
    }
  }

  @Test
  void outputIsPinnedAcrossJvms() {
    // java.util.Random, String.hashCode and List.hashCode are fixed by the Java SE specification,
    // so these values may only change with the word resources or the generator code; if they
    // do, benchmark results from before the change are no longer comparable.
    assertThat(TermSetGenerator.hitHeavy(5, 1))
        .containsExactly("innocent", "future", "dress", "three", "card");
    assertThat(TermSetGenerator.realisticSpam(5, 1))
        .containsExactly(
            "orphanage overnight", "mayoral", "comfiest", "ponzi voucher", "tantalizers");
    assertThat(TermSetGenerator.hitHeavy(10_000, 1).hashCode()).isEqualTo(-268129181);
    assertThat(TermSetGenerator.realisticSpam(10_000, 1).hashCode()).isEqualTo(1905399596);
  }

  @Test
  void countsOutOfRangeAreRejected() {
    assertThatThrownBy(() -> TermSetGenerator.hitHeavy(TermSetGenerator.HIT_HEAVY_MAX + 1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hitHeavy")
        .hasMessageContaining(String.valueOf(TermSetGenerator.HIT_HEAVY_MAX));
    assertThatThrownBy(
            () -> TermSetGenerator.realisticSpam(TermSetGenerator.REALISTIC_SPAM_MAX + 1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("realisticSpam");
    assertThatThrownBy(() -> TermSetGenerator.hitHeavy(-1, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TermSetGenerator.realisticSpam(-1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void resultsAreImmutable() {
    assertThatThrownBy(() -> TermSetGenerator.hitHeavy(3, 0).add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> TermSetGenerator.realisticSpam(3, 0).add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void hitHeavyHitsOrdinaryTextFarMoreOftenThanRealisticSpam() {
    for (long seed = 0; seed < 5; seed++) {
      int heavy = hits(TermSetGenerator.hitHeavy(1_000, seed), HAM);
      int spam = hits(TermSetGenerator.realisticSpam(1_000, seed), HAM);
      // "a match every few dozen characters"
      assertThat(heavy).as("hitHeavy hits, seed %d", seed).isGreaterThan(HAM.length() / 40);
      assertThat(heavy).as("seed %d", seed).isGreaterThan(10 * Math.max(spam, 1));
      assertThat(spam).as("realisticSpam hits, seed %d", seed).isLessThanOrEqualTo(3);
    }
  }

  @Test
  void defaultSpamListHasFewHitsOnOrdinaryText() {
    assertThat(hits(SpamTerms.defaults(), HAM)).isLessThanOrEqualTo(2);
  }

  @Test
  void realisticSpamMixesSpamVocabularyPhrasesAndRareWords() {
    List<String> terms = TermSetGenerator.realisticSpam(1_000, 3);
    Set<String> spam = new HashSet<>(SpamTerms.defaults());
    assertThat(terms.stream().filter(spam::contains).count()).isGreaterThan(50);
    assertThat(terms.stream().filter(t -> t.contains(" ") && !spam.contains(t)).count())
        .isGreaterThan(200);
    assertThat(terms.stream().filter(t -> t.matches("[a-z]+") && !spam.contains(t)).count())
        .isGreaterThan(200);
  }

  @Test
  void hitHeavyUsesTheMostCommonWords() {
    List<String> common = EnglishWords.COMMON;
    assertThat(common).hasSize(TermSetGenerator.HIT_HEAVY_MAX);
    assertThat(common.subList(0, 20)).contains("that", "what", "this", "have", "with");
    assertThat(TermSetGenerator.hitHeavy(100, 5))
        .allSatisfy(t -> assertThat(common.indexOf(t)).isBetween(0, 999));
  }
}
