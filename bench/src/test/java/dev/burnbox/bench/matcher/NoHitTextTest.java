package dev.burnbox.bench.matcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.bench.TermSetKind;
import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.matcher.TermMatcher;
import dev.burnbox.matcher.TermSet;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The benchmarks' random text really has no occurrence, and is the same on every run. */
class NoHitTextTest {

  @Test
  void hasNoOccurrenceOfAHitHeavySet() {
    TermSet terms = TermSet.of(TermSetKind.HIT_HEAVY.terms(1000), MatchOptions.IGNORE_CASE);

    NoHitText text = NoHitText.generate(terms, 8, 2048, 7);

    TermMatcher naive = MatcherKind.NAIVE.compile(terms);
    assertThat(text.mails()).hasSize(8).allSatisfy(m -> assertThat(m).hasSize(2048));
    assertThat(text.mails()).allSatisfy(m -> assertThat(naive.findAll(m)).isEmpty());
    assertThat(text.replacedShare()).isBetween(0.0, 0.5);
  }

  @Test
  void isDeterministic() {
    TermSet terms = TermSet.of(TermSetKind.REALISTIC.terms(100), MatchOptions.IGNORE_CASE);

    assertThat(NoHitText.generate(terms, 4, 512, 7).mails())
        .isEqualTo(NoHitText.generate(terms, 4, 512, 7).mails());
    assertThat(
            Arrays.equals(
                NoHitText.generate(terms, 4, 512, 7).mails(),
                NoHitText.generate(terms, 4, 512, 8).mails()))
        .isFalse();
  }
}
