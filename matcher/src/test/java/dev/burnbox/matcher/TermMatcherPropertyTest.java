package dev.burnbox.matcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every matcher agrees with {@link MatcherKind#NAIVE} on random term sets and texts, generated from
 * fixed seeds so a failure names the seed that reproduces it.
 *
 * <p>Alphabets range from two letters (where every position starts an occurrence and terms are
 * prefixes and suffixes of each other) to mixed-case Unicode with the characters whose folding is
 * unusual (Turkish i's, sharp s, Greek sigmas, Kelvin sign, supplementary letters and emoji).
 */
class TermMatcherPropertyTest {

  /** A named alphabet of code points to draw terms and text from. */
  record Alphabet(String name, int[] codePoints) {
    static Alphabet of(String name, String chars) {
      return new Alphabet(name, chars.codePoints().toArray());
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static final List<Alphabet> ALPHABETS =
      List.of(
          Alphabet.of("two letters", "ab"),
          Alphabet.of("four letters and a space", "abcd "),
          Alphabet.of("mixed-case ASCII with punctuation", "aAbBcCdDeE xX-'0.9\t\r\n"),
          Alphabet.of(
              "Unicode with unusual foldings",
              "aAiIıİsSßẞσςΣkK\u212A -'1\uD801\uDC00\uD801\uDC28😀é"));

  private static final List<MatchOptions> OPTIONS =
      List.of(
          MatchOptions.EXACT,
          MatchOptions.IGNORE_CASE,
          new MatchOptions(false, true),
          new MatchOptions(true, true));

  static Stream<Arguments> cases() {
    return Arrays.stream(MatcherKind.values())
        .filter(kind -> kind != MatcherKind.NAIVE)
        .flatMap(
            kind ->
                ALPHABETS.stream()
                    .flatMap(
                        alphabet ->
                            OPTIONS.stream()
                                .map(options -> Arguments.of(kind, alphabet, options))));
  }

  @ParameterizedTest(name = "{0} over {1} with {2}")
  @MethodSource("cases")
  void agreesWithTheNaiveMatcherOnRandomInput(
      MatcherKind kind, Alphabet alphabet, MatchOptions options) {
    for (int seed = 0; seed < 60; seed++) {
      Random random = new Random(seed * 31L + alphabet.name().hashCode());
      List<String> terms = randomTerms(random, alphabet);
      String text = randomString(random, alphabet, random.nextInt(400));
      TermSet set = TermSet.of(terms, options);

      List<Match> expected = MatcherKind.NAIVE.compile(set).findAll(text);
      TermMatcher matcher = kind.compile(set);
      String context = "seed " + seed + ", terms " + terms + ", text '" + text + "'";
      assertThat(matcher.findAll(text)).as(context).containsExactlyElementsOf(expected);
      assertThat(matcher.containsAny(text)).as(context).isEqualTo(!expected.isEmpty());
      assertCountsAgree(matcher, expected, text, context);
      // long enough for a matcher to count in parts side by side (Aho-Corasick: two walks from
      // 256 chars, four from 1,024)
      String longText = randomString(random, alphabet, 256 + random.nextInt(2000));
      assertCountsAgree(
          matcher,
          MatcherKind.NAIVE.compile(set).findAll(longText),
          longText,
          "seed " + seed + ", terms " + terms + ", long text '" + longText + "'");
    }
  }

  /** {@link TermMatcher#count} counts exactly the occurrences {@code expected} lists. */
  private static void assertCountsAgree(
      TermMatcher matcher, List<Match> expected, String text, String context) {
    int[] counts = new int[matcher.terms().size()];
    expected.forEach(match -> counts[match.termIndex()]++);
    TermCounts counted = new TermCounts(matcher.terms().size());
    matcher.count(text, counted);
    for (int term = 0; term < counts.length; term++) {
      assertThat(counted.count(term)).as(context + ", term " + term).isEqualTo(counts[term]);
    }
    assertThat(counted.distinct())
        .as(context)
        .isEqualTo((int) Arrays.stream(counts).filter(c -> c > 0).count());
    counted.clear();
    matcher.count(text, counted);
    assertThat(counted.distinct())
        .as("counted again after clear(): " + context)
        .isEqualTo((int) Arrays.stream(counts).filter(c -> c > 0).count());
  }

  private static List<String> randomTerms(Random random, Alphabet alphabet) {
    int count = random.nextInt(12);
    List<String> terms = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int length = 1 + (int) Math.min(12, Math.abs(random.nextGaussian() * 4));
      String term = randomString(random, alphabet, length);
      // derived terms make prefix, suffix and infix relations common
      if (!terms.isEmpty() && random.nextInt(3) == 0) {
        String other = terms.get(random.nextInt(terms.size()));
        int cut =
            other.offsetByCodePoints(0, random.nextInt(other.codePointCount(0, other.length())));
        term = random.nextBoolean() ? other.substring(cut) + term : other.substring(0, cut) + term;
      }
      if (!term.isEmpty()) {
        terms.add(term);
      }
    }
    return terms;
  }

  private static String randomString(Random random, Alphabet alphabet, int codePoints) {
    StringBuilder out = new StringBuilder();
    IntStream.range(0, codePoints)
        .forEach(
            i ->
                out.appendCodePoint(
                    alphabet.codePoints()[random.nextInt(alphabet.codePoints().length)]));
    return out.toString();
  }
}
