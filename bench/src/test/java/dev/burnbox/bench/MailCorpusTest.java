package dev.burnbox.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading mail bodies from a corpus folder, the generated fallback, and cutting batches. */
class MailCorpusTest {

  @Test
  void bodyIsEverythingAfterTheFirstBlankLine() {
    assertThat(MailCorpus.body("From: a\nSubject: b\n\nHello\n\nBye\n"))
        .isEqualTo("Hello\n\nBye\n");
    assertThat(MailCorpus.body("From: a\r\n\r\nHello\r\n")).isEqualTo("Hello\r\n");
    assertThat(MailCorpus.body("no header block")).isEqualTo("no header block");
  }

  @Test
  void loadsBodiesOfBothGroupsInFileNameOrder(@TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve(MailCorpus.HAM_GROUP));
    Files.createDirectories(dir.resolve(MailCorpus.SPAM_GROUP));
    Files.writeString(dir.resolve(MailCorpus.HAM_GROUP).resolve("00002.x.txt"), "H: 1\n\nsecond");
    Files.writeString(dir.resolve(MailCorpus.HAM_GROUP).resolve("00001.x.txt"), "H: 1\n\nfirst");
    Files.writeString(dir.resolve(MailCorpus.HAM_GROUP).resolve("00001.x.json"), "{}");
    Files.writeString(dir.resolve(MailCorpus.SPAM_GROUP).resolve("00001.y.txt"), "H: 1\n\nbuy");

    MailCorpus corpus = MailCorpus.load(dir);

    assertThat(corpus.isReal()).isTrue();
    assertThat(corpus.hamBodies()).containsExactly("first", "second");
    assertThat(corpus.spamBodies()).containsExactly("buy");
    assertThat(corpus.source()).contains("SpamAssassin", "2 easy-ham-2", "1 spam-2");
  }

  @Test
  void generatedCorpusIsDeterministicAndSaysSo() {
    MailCorpus a = MailCorpus.generated();
    MailCorpus b = MailCorpus.generated();

    assertThat(a.isReal()).isFalse();
    assertThat(a.source()).startsWith("generated");
    assertThat(a.hamBodies()).isEqualTo(b.hamBodies()).hasSizeGreaterThan(100);
    assertThat(a.spamBodies()).isEqualTo(b.spamBodies());
    assertThat(String.join("", a.spamBodies()).toLowerCase()).contains("click here");
  }

  @Test
  void batchCutsFixedSizeMailsFromTheJoinedBodies() {
    String[] mails = MailCorpus.batch(List.of("abcdef", "ghij"), 2, 4);

    assertThat(mails).containsExactly("abcd", "ef\n\n");
    assertThatThrownBy(() -> MailCorpus.batch(List.of("ab"), 2, 4))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
