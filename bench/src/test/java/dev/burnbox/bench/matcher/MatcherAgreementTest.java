package dev.burnbox.bench.matcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.bench.MailCorpus;
import dev.burnbox.bench.TermSetKind;
import dev.burnbox.matcher.Match;
import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.matcher.TermMatcher;
import dev.burnbox.matcher.TermSet;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@link MatcherKind} returns the same {@code findAll} result as the reference ({@link
 * MatcherKind#ORG_AHOCORASICK}) on real mail: the SpamAssassin bodies in {@code bench/corpus/} when
 * present, else generated mail-like text (the test prints which). Realistic and hit-heavy term sets
 * of 100 and 1,000 terms, case-insensitive, with and without whole words. Kept to a few seconds:
 * {@value #MAILS_PER_GROUP} ham and as many spam bodies, each cut to {@value #MAX_CHARS} chars;
 * NAIVE is skipped at 1,000 terms (it is O(text x terms)).
 */
class MatcherAgreementTest {
  private static final int MAILS_PER_GROUP = 40;
  private static final int MAX_CHARS = 6_000;
  private static final int NAIVE_MAX_TERMS = 100;

  private static List<String> mails;

  @BeforeAll
  static void loadMail() {
    MailCorpus corpus = MailCorpus.locate();
    System.out.println("MatcherAgreementTest scans: " + corpus.source());
    mails = new ArrayList<>();
    for (List<String> group : List.of(corpus.hamBodies(), corpus.spamBodies())) {
      group.stream()
          .limit(MAILS_PER_GROUP)
          .map(body -> body.length() > MAX_CHARS ? cut(body) : body)
          .forEach(mails::add);
    }
  }

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (TermSetKind set : TermSetKind.values()) {
      for (int terms : new int[] {100, 1000}) {
        for (boolean wholeWords : new boolean[] {false, true}) {
          for (MatcherKind kind : MatcherKind.values()) {
            if (kind == MatcherKind.ORG_AHOCORASICK
                || (kind == MatcherKind.NAIVE && terms > NAIVE_MAX_TERMS)) {
              continue;
            }
            cases.add(Arguments.of(kind, set, terms, wholeWords));
          }
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, {1} x {2}, wholeWords={3}")
  @MethodSource("cases")
  void agreesWithTheReference(MatcherKind kind, TermSetKind set, int terms, boolean wholeWords) {
    TermSet termSet = TermSet.of(set.terms(terms), new MatchOptions(true, wholeWords));
    TermMatcher reference = MatcherKind.ORG_AHOCORASICK.compile(termSet);
    TermMatcher matcher = kind.compile(termSet);

    long total = 0;
    for (int m = 0; m < mails.size(); m++) {
      List<Match> expected = reference.findAll(mails.get(m));
      assertThat(matcher.findAll(mails.get(m))).as("%s on mail %d", kind, m).isEqualTo(expected);
      total += expected.size();
    }
    if (set == TermSetKind.HIT_HEAVY) {
      assertThat(total).as("hit-heavy sets must hit real mail").isGreaterThan(mails.size());
    }
  }

  private static String cut(String body) {
    int end = MAX_CHARS;
    if (Character.isHighSurrogate(body.charAt(end - 1))) {
      end--;
    }
    return body.substring(0, end);
  }
}
