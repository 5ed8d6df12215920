package dev.burnbox.server.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.burnbox.server.logging.LogCapture;
import dev.burnbox.server.mime.DecodedMail.ScanParts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TermsFileWatcherTest {
  @TempDir Path dir;

  @Test
  void editingTheFileSwapsTheListWithoutARestart() throws Exception {
    Path file = dir.resolve("terms.txt");
    Files.writeString(file, "alpha\n");
    SpamScanner scanner = SpamScanner.fromFile(null, null, file);
    try (var watcher = new TermsFileWatcher(scanner, file, Duration.ofMillis(50))) {
      Files.writeString(file, "alpha\nbeta\n");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> scanner.scan(new ScanParts("", "beta", "")).terms().equals(List.of("beta")));
    }
  }

  @Test
  void aBrokenFileKeepsTheOldList() throws Exception {
    Path file = dir.resolve("terms.txt");
    Files.writeString(file, "alpha\n");
    SpamScanner scanner = SpamScanner.fromFile(null, null, file);
    try (var watcher = new TermsFileWatcher(scanner, file, Duration.ofMillis(50))) {
      Files.write(file, new byte[] {(byte) 0xff, (byte) 0xfe, 'x'});
      assertThat(watcher.reloadNow()).isFalse();
      Files.delete(file);
      assertThat(watcher.reloadNow()).isFalse();
      assertThat(scanner.scan(new ScanParts("", "alpha", "")).terms()).containsExactly("alpha");
      Files.writeString(file, "gamma\n", StandardCharsets.UTF_8);
      assertThat(watcher.reloadNow()).isTrue();
      assertThat(scanner.scan(new ScanParts("", "alpha gamma", "")).terms())
          .containsExactly("gamma");
    }
  }

  @Test
  void aFileThatCannotBeUsedIsLoggedInItsOwnWordsWithoutAnExceptionClass() throws Exception {
    Path file = dir.resolve("model.tsv");
    Files.writeString(file, "alpha\n");
    SpamScanner scanner = SpamScanner.fromFile(null, null, file);
    LogCapture warnings = LogCapture.of(TermsFileWatcher.class);
    try (warnings;
        var watcher = new TermsFileWatcher(scanner, file, Duration.ofHours(1))) {
      Files.writeString(file, "lottery\tbar\tany\t1\n");
      assertThat(watcher.reloadNow()).isFalse();
      Files.delete(file);
      assertThat(watcher.reloadNow()).isFalse();
    }
    assertThat(warnings.events())
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly(
            "kept the previous spam terms: cannot use "
                + file
                + ": "
                + file
                + ":1: weight is not a number: 'bar'",
            "kept the previous spam terms: cannot use " + file + ": no such file");
  }
}
