package dev.burnbox.server.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.server.smtp.SmtpIntake;
import dev.burnbox.server.smtp.SmtpScript;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scanner whose model is compiled in the background: the intake takes connections meanwhile, but
 * a mail is answered only once the model has scored it.
 */
class BackgroundModelTest {
  @TempDir Path dir;

  /** A named pipe: reading it waits until the test writes the model into it. */
  private Path pipe() throws Exception {
    Path pipe = dir.resolve("terms.txt");
    assumeTrue(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor() == 0, "mkfifo");
    return pipe;
  }

  @Test
  void aMailThatComesBeforeTheModelIsReadyIsAnsweredOnceItIsScored() throws Exception {
    Path terms = pipe();
    SpamScanner scanner = SpamScanner.compileInBackground(null, null, terms);
    InboxStore store = InboxStore.memory().build();
    SmtpIntake intake = PipelineIntake.start(scanner, store);
    try (SmtpScript smtp = SmtpScript.ehlo(intake.port(), "127.0.0.1")) {
      smtp.expectAfter("MAIL FROM:<ann@example.com>", "250");
      smtp.expectAfter("RCPT TO:<gina@burnbox.test>", "250");
      smtp.expectAfter("DATA", "354");
      smtp.write("Subject: fruit\r\n\r\na pineapple a day\r\n.\r\n");
      assertThat(smtp.silentFor(Duration.ofMillis(500))).as("answered without a model").isTrue();
      assertThat(store.list(InboxName.of("gina"), 10, null).messages()).isEmpty();

      Files.writeString(terms, "pineapple\n");
      smtp.expect("250");
      assertThat(store.list(InboxName.of("gina"), 10, null).messages())
          .singleElement()
          .satisfies(m -> assertThat(m.verdict().terms()).containsExactly("pineapple"));
      scanner.awaitModel();
      assertThat(scanner.source()).isEqualTo(terms.toString());
    } finally {
      intake.stop(Duration.ofSeconds(2));
      store.close();
    }
  }

  @Test
  void aModelThatCannotBeUsedIsReportedByAwaitModel() throws Exception {
    SpamScanner missing = SpamScanner.compileInBackground(null, null, dir.resolve("none.txt"));
    assertThatThrownBy(missing::awaitModel).isInstanceOf(NoSuchFileException.class);

    Path bad = Files.writeString(dir.resolve("bad.txt"), "ok\n\u200b\n");
    SpamScanner invalid = SpamScanner.compileInBackground(null, null, bad);
    assertThatThrownBy(invalid::awaitModel)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty once normalised");
  }

  @Test
  void aModelThatFailsBeforeTheScannerIsBuiltIsStillReportedByAwaitModel() throws Exception {
    // The compile thread races the constructor; a failure that wins the race must not escape it.
    Path missing = dir.resolve("none.txt");
    for (int i = 0; i < 2_000; i++) {
      SpamScanner scanner = SpamScanner.compileInBackground(null, null, missing);
      assertThatThrownBy(scanner::awaitModel).isInstanceOf(NoSuchFileException.class);
    }
  }

  @Test
  void theBuiltInModelIsCompiledInTheBackgroundToo() throws Exception {
    SpamScanner scanner = SpamScanner.compileInBackground(null, 0.9, null);
    scanner.awaitModel();
    assertThat(scanner.source()).isEqualTo("built-in model");
    assertThat(scanner.threshold()).isEqualTo(0.9);
    assertThatThrownBy(() -> SpamScanner.compileInBackground(null, 1.5, null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
