package dev.burnbox.matcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@link AhoCorasickMatcher}: the shared behaviour and properties, with every state dense (the
 * default for small sets) and again with a tiny dense-row budget, so that most states are sparse
 * and the difference-list transitions are exercised too.
 */
class AhoCorasickMatcherTest extends AbstractMatcherTest {

  @Override
  TermMatcher compile(TermSet terms) {
    return new AhoCorasickMatcher(terms);
  }

  @Test
  void isRegisteredAsAhoCorasick() {
    assertThat(MatcherKind.fromCliName("aho-corasick")).isEqualTo(MatcherKind.AHO_CORASICK);
    TermMatcher matcher = MatcherKind.AHO_CORASICK.compile(TermSet.of(MatchOptions.EXACT, "x"));
    assertThat(matcher).isInstanceOf(AhoCorasickMatcher.class);
    assertThat(matcher.kind()).isEqualTo(MatcherKind.AHO_CORASICK);
  }

  @Test
  void smallSetsGetAnIntRowForEveryState() {
    AhoCorasickMatcher matcher =
        new AhoCorasickMatcher(TermSet.of(MatchOptions.IGNORE_CASE, "he", "she", "his", "hers"));
    assertThat(matcher.isCompact()).isFalse();
    assertThat(matcher.denseStates()).isEqualTo(matcher.states());
  }

  @Test
  void midSizeSetsGetACharRowForEveryState() {
    List<String> terms = randomTerms(5_000);
    AhoCorasickMatcher matcher =
        new AhoCorasickMatcher(TermSet.of(terms, MatchOptions.IGNORE_CASE));
    assertThat(matcher.isCompact()).isTrue();
    assertThat(matcher.denseStates()).isEqualTo(matcher.states());
    assertThat(matcher.tableBytes()).isLessThan(4L << 20);
    assertThat(matcher.findAll(terms.get(7) + " " + terms.get(9)))
        .extracting(Match::termIndex)
        .contains(7, 9);
  }

  @Test
  void largeSetsOfRandomTermsStayUnderFourMebibytes() {
    List<String> terms = randomTerms(10_000);
    AhoCorasickMatcher matcher =
        new AhoCorasickMatcher(TermSet.of(terms, MatchOptions.IGNORE_CASE));
    assertThat(matcher.states()).isGreaterThan(65_536);
    assertThat(matcher.isCompact()).isFalse();
    assertThat(matcher.denseStates()).isLessThan(matcher.states());
    assertThat(matcher.tableBytes()).isLessThan(4L << 20);
    assertThat(matcher.findAll(terms.get(7) + " " + terms.get(9)))
        .extracting(Match::termIndex)
        .contains(7, 9);
  }

  /** Terms of 4 to 20 random lower-case letters: few shared prefixes, so many states. */
  private static List<String> randomTerms(int count) {
    Random random = new Random(42);
    List<String> terms = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      StringBuilder term = new StringBuilder();
      for (int length = 4 + random.nextInt(17); term.length() < length; ) {
        term.append((char) ('a' + random.nextInt(26)));
      }
      terms.add(term.toString());
    }
    return terms;
  }

  /** The same tests with char rows for every state. */
  @Nested
  class WithCharRows extends AbstractMatcherTest {
    @Override
    TermMatcher compile(TermSet terms) {
      AhoCorasickMatcher matcher =
          new AhoCorasickMatcher(
              terms,
              AhoCorasickMatcher.DEFAULT_MAX_TABLE_BYTES,
              AhoCorasickMatcher.Layout.CHAR_ROWS);
      assertThat(matcher.isCompact()).isTrue();
      return matcher;
    }
  }

  /** The same tests with the int layout and a row for every state. */
  @Nested
  class WithIntRowsForEveryState extends AbstractMatcherTest {
    @Override
    TermMatcher compile(TermSet terms) {
      AhoCorasickMatcher matcher =
          new AhoCorasickMatcher(terms, Integer.MAX_VALUE, AhoCorasickMatcher.Layout.INT_ROWS);
      assertThat(matcher.denseStates()).isEqualTo(matcher.states());
      return matcher;
    }
  }

  /** The same tests with a row for the root only: every other state is sparse. */
  @Nested
  class WithEveryOtherStateSparse extends AbstractMatcherTest {
    @Override
    TermMatcher compile(TermSet terms) {
      AhoCorasickMatcher matcher =
          new AhoCorasickMatcher(terms, 4, AhoCorasickMatcher.Layout.INT_ROWS);
      assertThat(matcher.denseStates()).isEqualTo(1);
      return matcher;
    }
  }

  /** A budget of a few rows: the dense prefix ends part-way through a breadth-first level. */
  @Nested
  class WithAFewDenseRows extends AbstractMatcherTest {
    @Override
    TermMatcher compile(TermSet terms) {
      int nodes = 1;
      for (int p = 0; p < terms.patternCount(); p++) {
        nodes += terms.pattern(p).length();
      }
      // the int layout first reserves 20 bytes a state for sparse transitions
      return new AhoCorasickMatcher(terms, 20 * nodes + 160, AhoCorasickMatcher.Layout.INT_ROWS);
    }
  }
}
