package dev.burnbox.matcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scanning a text with no occurrence allocates nothing, measured with the JVM's per-thread
 * allocation counter. The first calls run in the interpreter, where escape analysis cannot hide an
 * allocation.
 */
class NoAllocationTest {
  private static final MatchSink IGNORE = (term, start, end) -> {};

  private static final String NO_HITS =
      "Dear colleague, the quarterly report is attached. Let us meet on Tuesday at ten to review"
          + " the figures with the whole team; bring your notes. Ünïcödé ÄÖÜ σοφός 😀 too.\r\n";

  static Stream<Arguments> kindsAndOptions() {
    return Arrays.stream(MatcherKind.values())
        // wraps a library that allocates per scan: documented in OrgAhoCorasickMatcher
        .filter(kind -> kind != MatcherKind.ORG_AHOCORASICK)
        .flatMap(
            kind ->
                Stream.of(
                        MatchOptions.EXACT, MatchOptions.IGNORE_CASE, new MatchOptions(true, true))
                    .map(options -> Arguments.of(kind, options)));
  }

  @ParameterizedTest(name = "{0} with {1}")
  @MethodSource("kindsAndOptions")
  void scanningTextWithoutOccurrencesAllocatesNothing(MatcherKind kind, MatchOptions options) {
    List<String> terms =
        List.of("viagra", "wire transfer", "act now", "lottery winner", "xyz", "qq", "bitcoin");
    TermMatcher matcher = kind.compile(TermSet.of(terms, options));
    String text = NO_HITS.repeat(20);
    assertThat(matcher.containsAny(text)).isFalse();

    long allocated =
        AllocationMeter.allocatedBytes(
            () -> {
              matcher.containsAny(text);
              matcher.forEachMatch(text, IGNORE);
            },
            20);
    assertThat(allocated).as("bytes allocated by 40 scans without occurrences").isZero();
  }
}
