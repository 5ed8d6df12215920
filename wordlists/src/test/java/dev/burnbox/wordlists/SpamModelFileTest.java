package dev.burnbox.wordlists;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.burnbox.wordlists.SpamModel.Match;
import dev.burnbox.wordlists.SpamModel.Part;
import dev.burnbox.wordlists.SpamModel.Scoring;
import dev.burnbox.wordlists.SpamModel.WeightedTerm;
import dev.burnbox.wordlists.SpamModelFile.ModelFileException;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SpamModelFileTest {
  private static SpamModel parse(String text) throws IOException {
    return SpamModelFile.parse(new StringReader(text), "m.txt");
  }

  @Test
  void aPlainTermFileIsAPlainListWithWeightOneInEveryPart() throws IOException {
    SpamModel model = parse("# spam\nviagra\n  act now \n");
    assertThat(model).isEqualTo(SpamModel.ofPlainTerms(List.of("viagra", "act now"), "m.txt"));
    assertThat(model.terms()).allSatisfy(t -> assertThat(t.part()).isEqualTo(Part.ANY));
    assertThat(model.scoring()).isEqualTo(Scoring.CAPPED);
    assertThat(model.match()).isEqualTo(Match.WORDS);
  }

  @Test
  void weightedLinesAndDirectivesAreRead() throws IOException {
    SpamModel model =
        parse(
            "#! scoring tfidf-l2\n#! intercept -1.5\n#! threshold 0.9\n#! match substrings\n"
                + "#! smoothing 25\n"
                + "iagr\t2.5\tbody\t3.25\nunsub\t-1\tany\nfree\t0.5\nplain\n");
    assertThat(model.scoring()).isEqualTo(Scoring.TFIDF_L2);
    assertThat(model.intercept()).isEqualTo(-1.5);
    assertThat(model.threshold()).isEqualTo(0.9);
    assertThat(model.match()).isEqualTo(Match.SUBSTRINGS);
    assertThat(model.smoothing()).isEqualTo(25);
    assertThat(model.terms())
        .containsExactly(
            new WeightedTerm("iagr", 2.5, Part.BODY, 3.25),
            new WeightedTerm("unsub", -1, Part.ANY, 1),
            new WeightedTerm("free", 0.5, Part.ANY, 1),
            new WeightedTerm("plain", 1, Part.ANY, 1));
  }

  @Test
  void eachMistakeIsRefusedWithItsLineAndReason() {
    assertThatThrownBy(() -> parse("ok\nbad\tlots\n"))
        .isInstanceOf(ModelFileException.class)
        .hasMessage("m.txt:2: weight is not a number: 'lots'");
    assertThatThrownBy(() -> parse("ok\n\nx\t1\theader\n"))
        .hasMessage("m.txt:3: unknown part 'header' (subject, body, markup or any)");
    assertThatThrownBy(() -> parse("x\t1\tbody\t0\n"))
        .hasMessage("m.txt:1: idf must be positive: 0");
    assertThatThrownBy(() -> parse("x\t1\tbody\t1\textra\n"))
        .hasMessageStartingWith("m.txt:1: too many fields");
    assertThatThrownBy(() -> parse("#! color red\nx\n"))
        .hasMessage("m.txt:1: unknown directive: #! color");
    assertThatThrownBy(() -> parse("#! threshold 5\nx\n"))
        .hasMessageStartingWith("m.txt:1: threshold must be a probability");
    assertThatThrownBy(() -> parse("x\tNaN\n"))
        .hasMessage("m.txt:1: weight is not a number: 'NaN'");
    assertThatThrownBy(() -> parse("# nothing\n\n")).hasMessage("m.txt: holds no terms");
  }

  @Test
  void aTermTheMatcherCouldNeverFindIsRefusedWithItsLine() {
    assertThatThrownBy(
            () ->
                SpamModelFile.parse(
                    new StringReader("fine\n\u200b\t2\n"),
                    "m.txt",
                    term -> term.equals("\u200b") ? "is empty once normalised" : null))
        .hasMessage("m.txt:2: term '\u200b' is empty once normalised");
  }

  @Test
  void writeThenParseGivesTheSameModel() throws IOException {
    Random random = new Random(14);
    List<WeightedTerm> terms =
        java.util.stream.IntStream.range(0, 200)
            .mapToObj(
                i ->
                    new WeightedTerm(
                        "t" + Integer.toString(random.nextInt(1 << 20), 36),
                        random.nextGaussian() * 3,
                        Part.values()[random.nextInt(Part.values().length)],
                        0.5 + random.nextDouble() * 8))
            .toList();
    SpamModel model =
        new SpamModel(
            terms, Scoring.TFIDF_L2, -0.123456789, 0.987, Match.SUBSTRINGS, "m.txt", 3200.5);
    StringWriter out = new StringWriter();
    SpamModelFile.write(model, List.of("a model", ""), out);
    assertThat(parse(out.toString())).isEqualTo(model);
  }

  @Test
  void aTermWithALineBreakIsRefused() {
    assertThatThrownBy(() -> new WeightedTerm("free\nmoney", 1, Part.ANY, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line break");
    assertThatThrownBy(() -> SpamModel.ofPlainTerms(List.of("cash\r"), "list"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theShippedModelLoadsAndIsLearned() {
    SpamModel model = SpamModel.defaults();
    assertThat(model.source()).isEqualTo("built-in model");
    assertThat(model.scoring()).isEqualTo(Scoring.TFIDF_L2);
    assertThat(model.terms()).hasSizeGreaterThan(1000);
    assertThat(model.threshold()).isBetween(0.0, 1.0);
  }
}
