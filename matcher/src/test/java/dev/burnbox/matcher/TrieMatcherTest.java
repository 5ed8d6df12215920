package dev.burnbox.matcher;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link TrieMatcher}: the shared behaviour and properties, plus its registration. */
class TrieMatcherTest extends AbstractMatcherTest {

  @Override
  TermMatcher compile(TermSet terms) {
    return new TrieMatcher(terms);
  }

  @Test
  void isRegisteredAsTrie() {
    assertThat(MatcherKind.fromCliName("trie")).isEqualTo(MatcherKind.TRIE);
    TermMatcher matcher = MatcherKind.TRIE.compile(TermSet.of(MatchOptions.EXACT, "x"));
    assertThat(matcher).isInstanceOf(TrieMatcher.class);
    assertThat(matcher.kind()).isEqualTo(MatcherKind.TRIE);
  }
}
