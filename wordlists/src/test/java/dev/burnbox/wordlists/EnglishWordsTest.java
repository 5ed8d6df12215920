package dev.burnbox.wordlists;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EnglishWordsTest {
  @Test
  void commonWordsAreDistinctLowercaseAsciiAndRankedByFrequency() {
    List<String> common = EnglishWords.COMMON;
    assertThat(common).hasSize(30_000).doesNotHaveDuplicates();
    assertThat(common).allSatisfy(w -> assertThat(w).matches("[a-z]{4,20}"));
    // the first words are the most frequent ones, not an alphabetical run
    assertThat(common.subList(0, 10)).contains("that", "what", "this", "have");
    assertThat(common.indexOf("house")).isBetween(0, 999);
    assertThat(common.indexOf("thermostat")).isGreaterThan(5_000);
    // proper names are capitalised in SCOWL and so left out
    assertThat(common).doesNotContain("london", "america", "monday");
  }

  @Test
  void rareWordsAreDistinctAndDisjointFromCommonWords() {
    List<String> rare = EnglishWords.RARE;
    assertThat(rare.size()).isGreaterThan(40_000);
    assertThat(rare).allSatisfy(w -> assertThat(w).matches("[a-z]{4,20}"));
    assertThat(rare).isSorted().doesNotHaveDuplicates();
    Set<String> common = new HashSet<>(EnglishWords.COMMON);
    assertThat(rare).noneMatch(common::contains);
  }

  @Test
  void resourcesStayWellUnderTwoMegabytes() throws IOException {
    for (String name : List.of("english-common.txt", "english-rare.txt", SpamTerms.RESOURCE)) {
      try (InputStream in = SpamTerms.class.getResourceAsStream(name)) {
        assertThat(in).as(name).isNotNull();
        assertThat(in.readAllBytes().length).as(name).isLessThan(1_000_000);
      }
    }
  }
}
