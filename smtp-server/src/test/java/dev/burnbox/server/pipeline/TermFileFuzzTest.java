package dev.burnbox.server.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.matcher.TermMatcher;
import dev.burnbox.matcher.TermSet;
import dev.burnbox.server.fuzz.FuzzInputs;
import dev.burnbox.wordlists.SpamModel;
import dev.burnbox.wordlists.TermList;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz target: a term file as the service reads it ({@link TermList}, strict UTF-8, as {@link
 * SpamScanner#fromFile} and {@link TermsFileWatcher} do) and the matchers built from it. A file
 * either fails with the documented {@link CharacterCodingException} (not UTF-8) or parses into
 * terms that are stripped, non-blank, not comments and one line each; writing them one per line and
 * parsing again gives the same terms; a {@link SpamScanner} accepts them; and every {@link
 * MatcherKind} finds exactly what {@link MatcherKind#NAIVE} finds in a text made of the file and
 * its terms.
 *
 * <p>In a normal build the seeds in {@code TermFileFuzzTestInputs/termFilesParseAndMatch/} run
 * through Jazzer's regression mode and {@link #mutationsOfTheSeedsParseAndMatch} runs seeded
 * mutations of them; {@code scripts/fuzz.sh terms 30m} fuzzes for real.
 */
class TermFileFuzzTest {
  private static final List<MatchOptions> OPTIONS =
      List.of(MatchOptions.EXACT, new MatchOptions(true, true));

  private static final List<String> SNIPPETS =
      List.of(
          "\n",
          "\r\n",
          "\r",
          "#",
          " # ",
          "\uFEFF",
          "\u00A0",
          "\u2028",
          "\t",
          "\u0130",
          "\u00DF",
          "\u212A",
          "\uD801\uDC00",
          "\uD83D\uDE00",
          "\u00ff",
          "\u0000");

  @FuzzTest(maxDuration = "5m")
  @DictionaryFile(resourcePath = "terms.dict")
  void termFilesParseAndMatch(byte[] file) {
    checkTermFile(file);
  }

  static LongStream seeds() {
    return LongStream.range(0, 8);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void mutationsOfTheSeedsParseAndMatch(long seed) {
    FuzzInputs.checkMutations(
        seed,
        FuzzInputs.seeds(TermFileFuzzTest.class, "termFilesParseAndMatch"),
        150,
        SNIPPETS,
        TermFileFuzzTest::checkTermFile);
  }

  /** The properties every input must have; throws AssertionError if one fails. */
  static void checkTermFile(byte[] file) {
    List<String> terms;
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(file)).toString();
      terms = parseStrictUtf8(file);
    } catch (CharacterCodingException notUtf8) {
      return; // the documented failure: SpamScanner reports it and keeps the old list
    } catch (IOException e) {
      throw new AssertionError("only a UTF-8 decoding error may fail parsing", e);
    }

    for (String term : terms) {
      assertThat(term).isNotBlank().isEqualTo(term.strip()).doesNotStartWith("#");
      assertThat(term).doesNotContain("\n", "\r");
    }
    try {
      // a writer of the format starts with a byte order mark, so a first term may start with one
      String written = "\uFEFF" + String.join("\n", terms) + "\n";
      assertThat(TermList.parse(new StringReader(written)))
          .as("terms written one per line parse back the same")
          .isEqualTo(terms);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    if (!terms.isEmpty()) {
      try {
        assertThat(SpamScanner.of(null, null, SpamModel.ofPlainTerms(terms, "fuzz")).termCount())
            .isEqualTo(terms.size());
      } catch (IllegalArgumentException e) {
        assertThat(e).hasMessageContaining("is empty once normalised");
      }
    }

    String haystack = text + " " + String.join(" ", terms) + String.join("", terms);
    for (MatchOptions options : OPTIONS) {
      TermSet set = TermSet.of(terms, options);
      var expected = MatcherKind.NAIVE.compile(set).findAll(haystack);
      for (MatcherKind kind : MatcherKind.values()) {
        assertThat(TermMatcher.compile(kind, set).findAll(haystack))
            .as("%s with %s agrees with NAIVE", kind, options)
            .isEqualTo(expected);
      }
    }
  }

  private static List<String> parseStrictUtf8(byte[] file) throws IOException {
    try (Reader in =
        new InputStreamReader(
            new ByteArrayInputStream(file), StandardCharsets.UTF_8.newDecoder())) {
      return TermList.parse(in);
    }
  }
}
