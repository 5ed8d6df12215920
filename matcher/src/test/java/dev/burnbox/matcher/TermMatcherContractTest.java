package dev.burnbox.matcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of {@link TermMatcher}, as one table of cases crossed with every {@link
 * MatcherKind}.
 *
 * <p>Each row is run as written and again with the text padded on both sides by characters that no
 * term contains and that are not letters or digits, so offsets shift but matches do not change.
 */
class TermMatcherContractTest {

  private static final MatchOptions EXACT = MatchOptions.EXACT;
  private static final MatchOptions IGNORE_CASE = MatchOptions.IGNORE_CASE;
  private static final MatchOptions WHOLE_WORDS = new MatchOptions(false, true);
  private static final MatchOptions IGNORE_CASE_WHOLE_WORDS = new MatchOptions(true, true);

  /** One row: terms matched against a text with options, and every occurrence expected. */
  record Row(
      String name, MatchOptions options, List<String> terms, String text, List<Match> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Row row(
      String name, MatchOptions options, List<String> terms, String text, String... expected) {
    List<Match> matches = new ArrayList<>();
    for (String e : expected) {
      // "term@start-end"; the term is looked up in the distinct-term list for its index
      int at = e.lastIndexOf('@');
      int dash = e.lastIndexOf('-');
      String term = e.substring(0, at);
      TermSet set = TermSet.of(terms, options);
      matches.add(
          new Match(
              term,
              set.terms().indexOf(term),
              Integer.parseInt(e.substring(at + 1, dash)),
              Integer.parseInt(e.substring(dash + 1))));
    }
    return new Row(name, options, terms, text, List.copyOf(matches));
  }

  static List<Row> rows() {
    return List.of(
        // basics
        row("single term", EXACT, List.of("abc"), "xxabcxx", "abc@2-5"),
        row("no occurrence", EXACT, List.of("abc"), "abd ab bc"),
        row("empty text", EXACT, List.of("abc"), ""),
        row("empty term set", EXACT, List.of(), "anything at all"),
        row("term longer than text", EXACT, List.of("abcdef"), "abc"),
        row("term equals text", EXACT, List.of("abc"), "abc", "abc@0-3"),
        row("repeated occurrences", EXACT, List.of("ab"), "ababab", "ab@0-2", "ab@2-4", "ab@4-6"),
        row(
            "one-char and long terms together",
            EXACT,
            List.of("x", "a long term here"),
            "x a long term here x",
            "x@0-1",
            "a long term here@2-18",
            "x@19-20"),
        // overlaps
        row("self-overlapping term", EXACT, List.of("aa"), "aaaa", "aa@0-2", "aa@1-3", "aa@2-4"),
        row(
            "terms that are prefixes of each other",
            EXACT,
            List.of("he", "hers", "her"),
            "hers",
            "he@0-2",
            "her@0-3",
            "hers@0-4"),
        row(
            "terms that are suffixes of each other",
            EXACT,
            List.of("he", "she"),
            "she",
            "she@0-3",
            "he@1-3"),
        row(
            "classic Aho-Corasick example",
            EXACT,
            List.of("he", "she", "his", "hers"),
            "ushers",
            "she@1-4",
            "he@2-4",
            "hers@2-6"),
        row("infix term", EXACT, List.of("abcd", "bc"), "abcd", "bc@1-3", "abcd@0-4"),
        row(
            "tiny alphabet worst case",
            EXACT,
            List.of("a", "aa", "aaa"),
            "aaaa",
            "a@0-1",
            "aa@0-2",
            "a@1-2",
            "aaa@0-3",
            "aa@1-3",
            "a@2-3",
            "aaa@1-4",
            "aa@2-4",
            "a@3-4"),
        row("duplicate terms collapse", EXACT, List.of("abc", "abc"), "abc", "abc@0-3"),
        row(
            "case variants collapse when ignoring case, first spelling kept",
            IGNORE_CASE,
            List.of("Viagra", "VIAGRA"),
            "viagra",
            "Viagra@0-6"),
        row(
            "case variants stay distinct when exact",
            EXACT,
            List.of("ab", "AB"),
            "abAB",
            "ab@0-2",
            "AB@2-4"),
        // case
        row(
            "ignore case on ASCII",
            IGNORE_CASE,
            List.of("free"),
            "FREE Free fReE",
            "free@0-4",
            "free@5-9",
            "free@10-14"),
        row("exact case", EXACT, List.of("free"), "FREE free", "free@5-9"),
        row("Turkish dotless i matches only itself", IGNORE_CASE, List.of("ı"), "iIıİ", "ı@2-3"),
        row(
            "Turkish dotted capital I matches only itself",
            IGNORE_CASE,
            List.of("İ"),
            "iIıİ",
            "İ@3-4"),
        row(
            "ASCII i does not match Turkish forms",
            IGNORE_CASE,
            List.of("i"),
            "iIıİ",
            "i@0-1",
            "i@1-2"),
        row(
            "German sharp s under simple folding: capital sharp s matches, SS does not",
            IGNORE_CASE,
            List.of("straße"),
            "STRASSE straße STRAẞE",
            "straße@8-14",
            "straße@15-21"),
        row("ss does not match sharp s", IGNORE_CASE, List.of("ss"), "straße"),
        row(
            "Greek final sigma matches sigma and capital sigma",
            IGNORE_CASE,
            List.of("σοφος"),
            "ΣΟΦΟΣ σοφοσ σοφος",
            "σοφος@0-5",
            "σοφος@6-11",
            "σοφος@12-17"),
        row(
            "Kelvin sign folds to k",
            IGNORE_CASE,
            List.of("k"),
            "K k \u212A",
            "k@0-1",
            "k@2-3",
            "k@4-5"),
        row("symbols under ignore case", IGNORE_CASE, List.of("$$$"), "$$$$", "$$$@0-3", "$$$@1-4"),
        // surrogate pairs
        row(
            "emoji terms overlap by whole code points",
            EXACT,
            List.of("💰💰"),
            "win 💰💰💰 now",
            "💰💰@4-8",
            "💰💰@6-10"),
        row(
            "supplementary letters match their other case",
            IGNORE_CASE,
            List.of("\uD801\uDC00"),
            "\uD801\uDC28 \uD801\uDC00",
            "\uD801\uDC00@0-2",
            "\uD801\uDC00@3-5"),
        row("term between emoji", EXACT, List.of("ab"), "😀ab😀", "ab@2-4"),
        // whole words
        row("whole word alone", WHOLE_WORDS, List.of("cash"), "cash", "cash@0-4"),
        row(
            "whole words not inside a word",
            WHOLE_WORDS,
            List.of("cash"),
            "cashier ecash cash.",
            "cash@14-18"),
        row(
            "digits are word characters",
            WHOLE_WORDS,
            List.of("win"),
            "win2 2win win",
            "win@10-13"),
        row(
            "hyphens and apostrophes are boundaries",
            WHOLE_WORDS,
            List.of("free"),
            "free-for-all don't-free free's",
            "free@0-4",
            "free@19-23",
            "free@24-28"),
        row(
            "phrase with inner space",
            IGNORE_CASE_WHOLE_WORDS,
            List.of("act now"),
            "ACT NOW! react now",
            "act now@0-7"),
        row(
            "emoji are boundaries, CJK letters are not",
            WHOLE_WORDS,
            List.of("sale"),
            "💥sale💥 売sale",
            "sale@2-6"),
        row(
            "whole words with overlapping terms",
            WHOLE_WORDS,
            List.of("new york", "york", "new"),
            "new york newyork",
            "new@0-3",
            "new york@0-8",
            "york@4-8"),
        row(
            "a digit before a term that starts with a digit",
            WHOLE_WORDS,
            List.of("100% free"),
            "get 100% free now; 1100% free",
            "100% free@4-13"),
        // whitespace
        row(
            "CRLF and tabs are ordinary characters",
            EXACT,
            List.of("line\r\nbreak", "\t"),
            "a\tline\r\nbreak",
            "\t@1-2",
            "line\r\nbreak@2-13"));
  }

  static Stream<Arguments> kindsAndRows() {
    return Arrays.stream(MatcherKind.values())
        .flatMap(kind -> rows().stream().map(row -> Arguments.of(kind, row)));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("kindsAndRows")
  void findsExactlyTheExpectedOccurrencesInOrder(MatcherKind kind, Row row) {
    TermMatcher matcher = kind.compile(TermSet.of(row.terms(), row.options()));
    assertThat(matcher.kind()).isEqualTo(kind);
    assertThat(matcher.findAll(row.text())).containsExactlyElementsOf(row.expected());
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("kindsAndRows")
  void paddingShiftsOffsetsAndChangesNothingElse(MatcherKind kind, Row row) {
    TermMatcher matcher = kind.compile(TermSet.of(row.terms(), row.options()));
    for (String pad : List.of("☃", "☃ ☃", "☃\n")) {
      List<Match> shifted =
          row.expected().stream()
              .map(
                  m ->
                      new Match(
                          m.term(),
                          m.termIndex(),
                          m.start() + pad.length(),
                          m.end() + pad.length()))
              .toList();
      assertThat(matcher.findAll(pad + row.text() + pad))
          .as("padded with %s", pad)
          .containsExactlyElementsOf(shifted);
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("kindsAndRows")
  void containsAnyAndSummaryAgreeWithTheOccurrences(MatcherKind kind, Row row) {
    TermMatcher matcher = kind.compile(TermSet.of(row.terms(), row.options()));
    assertThat(matcher.containsAny(row.text())).isEqualTo(!row.expected().isEmpty());
    MatchSummary summary = matcher.summarize(row.text());
    assertThat(summary.totalMatches()).isEqualTo(row.expected().size());
    assertThat(summary.counts().keySet())
        .containsExactlyInAnyOrderElementsOf(
            row.expected().stream().map(Match::term).distinct().toList());
  }
}
