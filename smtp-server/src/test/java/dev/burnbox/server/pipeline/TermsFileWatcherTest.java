package dev.burnbox.server.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
}
