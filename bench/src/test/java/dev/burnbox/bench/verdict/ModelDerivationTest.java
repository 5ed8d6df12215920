package dev.burnbox.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped model is what its derivation gives: same corpus, same file, byte for byte. Needs the
 * corpus ({@code bench/fetch-corpus.sh}, which CI runs); skipped without it.
 */
class ModelDerivationTest {
  private static final Path CORPUS = Path.of("corpus");
  private static final Path SHIPPED =
      Path.of("../wordlists/src/main/resources/dev/burnbox/wordlists/spam-model.txt");

  @Test
  void derivingTheModelAgainGivesTheShippedFile(@TempDir Path dir) throws Exception {
    assumeTrue(
        Files.isDirectory(CORPUS.resolve(LabelledMail.HAM_GROUP))
            && Files.isDirectory(CORPUS.resolve(LabelledMail.SPAM_GROUP)),
        "no corpus in bench/corpus: run bench/fetch-corpus.sh");
    Path derived = dir.resolve("spam-model.txt");
    VerdictBench.derive(CORPUS, derived);
    assertThat(Files.readString(derived))
        .as("run wordlists/scripts/derive-model.sh and commit the result")
        .isEqualTo(Files.readString(SHIPPED));
  }
}
