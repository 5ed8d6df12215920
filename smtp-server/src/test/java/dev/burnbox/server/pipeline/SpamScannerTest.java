package dev.burnbox.server.pipeline;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.server.mime.MailDecoder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SpamScannerTest {
  @TempDir Path dir;

  @Test
  void cleanTextGetsTheCleanVerdict() {
    SpamScanner scanner = SpamScanner.of(null, 3, List.of("viagra", "free money"), "test");
    assertThat(scanner.scan("Lunch at noon?")).isEqualTo(SpamVerdict.CLEAN);
  }

  @ParameterizedTest
  @EnumSource(MatcherKind.class)
  void everyMatcherGivesTheSameVerdict(MatcherKind kind) {
    SpamScanner scanner =
        SpamScanner.of(kind, 3, List.of("viagra", "free money", "winner"), "test");
    SpamVerdict verdict = scanner.scan("WINNER! Free  money? no: FREE MONEY and Viagra, viagras");
    assertThat(verdict.terms()).containsExactly("viagra", "free money", "winner");
    assertThat(verdict.score()).isEqualTo(3);
  }

  @Test
  void repeatsOfOneTermAreCappedInTheScore() {
    SpamScanner scanner = SpamScanner.of(null, 5, List.of("cash", "prize"), "test");
    SpamVerdict verdict = scanner.scan("cash ".repeat(100) + "prize");
    assertThat(verdict.score()).isEqualTo(SpamScanner.MAX_POINTS_PER_TERM + 1);
    assertThat(scanner.isSpam(verdict)).isFalse();
    assertThat(scanner.isSpam(scanner.scan("cash cash cash prize prize"))).isTrue();
  }

  @Test
  void reloadSwapsTheListAndABadFileKeepsTheOldOne() throws IOException {
    SpamScanner scanner = SpamScanner.of(null, 1, List.of("alpha"), "test");
    Path file = dir.resolve("terms.txt");
    Files.writeString(file, "# new list\nbeta\ngamma\n");

    assertThat(scanner.reload(file)).isEqualTo(2);
    assertThat(scanner.scan("alpha beta").terms()).containsExactly("beta");
    assertThat(scanner.source()).isEqualTo(file.toString());

    Files.writeString(file, "# nothing left\n");
    assertThatThrownBy(() -> scanner.reload(file)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> scanner.reload(dir.resolve("missing.txt")))
        .isInstanceOf(NoSuchFileException.class);
    assertThat(scanner.scan("alpha beta").terms()).containsExactly("beta");
  }

  @Test
  void scansDuringReloadsSeeOneWholeListOrTheOther() throws Exception {
    SpamScanner scanner = SpamScanner.of(null, 1, List.of("alpha", "beta"), "test");
    Path file = dir.resolve("terms.txt");
    Files.writeString(file, "gamma\ndelta\n");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<List<String>> odd = new AtomicReference<>();
    Thread reader =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (!stop.get()) {
                    List<String> terms = scanner.scan("alpha beta gamma delta").terms();
                    if (!terms.equals(List.of("alpha", "beta"))
                        && !terms.equals(List.of("gamma", "delta"))) {
                      odd.set(terms);
                    }
                  }
                });
    Path other = dir.resolve("other.txt");
    Files.writeString(other, "alpha\nbeta\n");
    for (int i = 0; i < 200; i++) {
      scanner.reload(i % 2 == 0 ? file : other);
    }
    stop.set(true);
    reader.join();
    assertThat(odd.get()).isNull();
  }

  @Test
  void theDefaultListCatchesTheSampleSpam() throws IOException {
    SpamScanner scanner = SpamScanner.withDefaultTerms(null, 5);
    String sample = Files.readString(Path.of("../docs/examples/spam-sample.txt"));
    SpamVerdict verdict = scanner.scan(sample);
    assertThat(scanner.isSpam(verdict)).as("%s", verdict).isTrue();
    assertThat(scanner.termCount()).isGreaterThan(400);
  }

  // found by TermFileFuzzTest: such a term never matched, because the scan text has none of these
  @Test
  void termsWithInvisibleCharactersMatchTheScanText() throws IOException {
    Path file = dir.resolve("terms.txt");
    Files.writeString(file, "\uFEFF\uFEFFfree money\nvi\u00ADagra\nwin\u200Bner\n\u200B\n");
    SpamScanner scanner = SpamScanner.fromFile(null, 3, file);
    assertThat(scanner.termCount()).isEqualTo(3);
    String scanText =
        MailDecoder.withDefaults()
            .decode("Subject: free mo\u00ADney\n\nviagra winner\n".getBytes(UTF_8))
            .scanText();
    assertThat(scanner.scan(scanText).terms()).containsExactly("free money", "viagra", "winner");
  }

  @Test
  void aFileOfInvisibleTermsHoldsNoTerms() throws IOException {
    SpamScanner scanner = SpamScanner.of(null, 3, List.of("viagra"), "test");
    Path file = dir.resolve("invisible.txt");
    Files.writeString(file, "\u200B\n\u00AD\n");
    assertThatThrownBy(() -> scanner.reload(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holds no terms");
    assertThat(scanner.termCount()).isEqualTo(1);
  }

  @Test
  void rejectsANonPositiveThreshold() {
    assertThatThrownBy(() -> SpamScanner.of(null, 0, List.of("a"), "test"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
