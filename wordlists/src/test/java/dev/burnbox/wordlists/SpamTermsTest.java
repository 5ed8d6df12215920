package dev.burnbox.wordlists;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SpamTermsTest {
  private static String resourceText() throws IOException {
    try (InputStream in = SpamTerms.class.getResourceAsStream(SpamTerms.RESOURCE)) {
      assertThat(in).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void hasAtLeast300DistinctTerms() {
    List<String> terms = SpamTerms.defaults();
    assertThat(terms.stream().map(t -> t.toLowerCase(Locale.ROOT)).distinct().count())
        .isGreaterThanOrEqualTo(300);
    assertThat(terms).doesNotContain("").allSatisfy(t -> assertThat(t).isEqualTo(t.strip()));
  }

  @Test
  void isImmutableAndShared() {
    List<String> terms = SpamTerms.defaults();
    assertThat(SpamTerms.defaults()).isSameAs(terms);
    assertThatThrownBy(() -> terms.add("x")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void coversEveryFamilyUnderItsHeading() throws IOException {
    String text = resourceText();
    List<String> headings =
        text.lines().filter(l -> l.startsWith("# == ")).collect(Collectors.toList());
    assertThat(headings)
        .containsExactly(
            "# == pharmacy ==",
            "# == finance / advance-fee ==",
            "# == adult ==",
            "# == lottery / prizes ==",
            "# == phishing / account security ==",
            "# == crypto / investment ==",
            "# == seo / marketing ==",
            "# == urgency / generic ==");
    // each family has at least 20 terms
    String[] sections = text.split("# == ");
    for (int i = 1; i < sections.length; i++) {
      long terms =
          sections[i]
              .lines()
              .skip(1)
              .map(String::strip)
              .filter(l -> !l.isEmpty() && !l.startsWith("#"))
              .count();
      assertThat(terms)
          .as(sections[i].lines().findFirst().orElseThrow())
          .isGreaterThanOrEqualTo(20);
    }
  }

  @Test
  void containsTypicalSpamVocabulary() {
    assertThat(SpamTerms.defaults())
        .contains(
            "act now",
            "wire transfer",
            "verify your account",
            "100% free",
            "no prescription",
            "next of kin");
  }

  @Test
  void avoidsWordsThatAreCommonInOrdinaryMailOnTheirOwn() {
    assertThat(SpamTerms.defaults().stream().map(t -> t.toLowerCase(Locale.ROOT)))
        .doesNotContain("free", "money", "click", "offer", "account", "password", "order");
  }

  @Test
  void noTermHidesInsideCommonWords() {
    List<String> common = EnglishWords.COMMON;
    for (String term : SpamTerms.defaults()) {
      String t = term.toLowerCase(Locale.ROOT);
      assertThat(common.subList(0, 3_000)).as("common word").doesNotContain(t);
      for (String word : common.subList(0, 10_000)) {
        if (!word.equals(t)) {
          assertThat(word).as("term %s", term).doesNotContain(t);
        }
      }
    }
  }

  @Test
  void mostTermsHaveAtLeastFourCharacters() {
    List<String> terms = SpamTerms.defaults();
    long short3 = terms.stream().filter(t -> t.length() < 4).count();
    assertThat(short3).isLessThan(terms.size() / 20);
  }
}
