package dev.burnbox.matcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MatcherKindTest {

  @Test
  void cliNamesAreTheIssuesNamesAndRoundTrip() {
    assertThat(List.of(MatcherKind.values()).stream().map(MatcherKind::cliName))
        .containsExactly(
            "naive", "boyer-moore", "trie", "aho-corasick", "wu-manber", "org-ahocorasick");
    for (MatcherKind kind : MatcherKind.values()) {
      assertThat(MatcherKind.fromCliName(kind.cliName())).isEqualTo(kind);
    }
  }

  @Test
  void anUnknownNameIsRejected() {
    assertThatThrownBy(() -> MatcherKind.fromCliName("quantum"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("quantum");
  }

  @Test
  void bestPicksWuManberForFewLongTerms() {
    TermSet few = TermSet.of(MatchOptions.IGNORE_CASE, "wire transfer", "lottery", "viagra");
    assertThat(MatcherKind.bestFor(few)).isEqualTo(MatcherKind.WU_MANBER);
    assertThat(TermMatcher.best(few).kind()).isEqualTo(MatcherKind.WU_MANBER);
  }

  @Test
  void bestPicksAhoCorasickForShortTermsOrManyTerms() {
    TermSet withShortTerm = TermSet.of(MatchOptions.IGNORE_CASE, "lottery", "btc");
    TermSet many =
        TermSet.of(IntStream.range(0, 201).mapToObj(i -> "term" + i).toList(), MatchOptions.EXACT);
    assertThat(MatcherKind.bestFor(withShortTerm)).isEqualTo(MatcherKind.AHO_CORASICK);
    assertThat(MatcherKind.bestFor(many)).isEqualTo(MatcherKind.AHO_CORASICK);
    assertThat(MatcherKind.bestFor(TermSet.of(MatchOptions.EXACT)))
        .isEqualTo(MatcherKind.AHO_CORASICK);
  }
}
