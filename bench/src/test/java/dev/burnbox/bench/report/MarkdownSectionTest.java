package dev.burnbox.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replacing the generated section of a markdown file and nothing else. */
class MarkdownSectionTest {
  private static final String B = MarkdownSection.BEGIN;
  private static final String E = MarkdownSection.END;

  @Test
  void replacesOnlyTheTextBetweenTheMarkers() {
    String doc = "# Title\n\nIntro.\n\n" + B + "\nold table\n" + E + "\n\n## After\nkept\n";

    String updated = MarkdownSection.replace(doc, "new table");

    assertThat(updated)
        .isEqualTo("# Title\n\nIntro.\n\n" + B + "\nnew table\n" + E + "\n\n## After\nkept\n");
  }

  @Test
  void replacingTwiceGivesTheSameFile() {
    String doc = "intro\n" + B + "\n" + E + "\noutro\n";

    String once = MarkdownSection.replace(doc, "| a |\n|---|\n");
    String twice = MarkdownSection.replace(once, "| a |\n|---|\n");

    assertThat(twice).isEqualTo(once);
  }

  @Test
  void rejectsMissingRepeatedOrReversedMarkers() {
    assertThatThrownBy(() -> MarkdownSection.replace("no markers", "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MarkdownSection.replace(E + "\n" + B, "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MarkdownSection.replace(B + E + B + E, "x"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void updateEditsAnExistingFileInPlace(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("benchmarks.md");
    Files.writeString(file, "hand-written\n" + B + "\nold\n" + E + "\nfooter\n");

    MarkdownSection.update(file, "generated");

    assertThat(file).hasContent("hand-written\n" + B + "\ngenerated\n" + E + "\nfooter\n");
  }

  @Test
  void updateCreatesAMissingFileWithAnIntroduction(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("docs").resolve("benchmarks.md");

    MarkdownSection.update(file, "generated");

    assertThat(Files.readString(file))
        .startsWith("# Matcher benchmarks")
        .endsWith(B + "\ngenerated\n" + E + "\n");
  }

  @Test
  void updateAppendsMarkersToAFileWithoutThem(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("benchmarks.md");
    Files.writeString(file, "# Other notes\n");

    MarkdownSection.update(file, "generated");

    assertThat(file).hasContent("# Other notes\n\n" + B + "\ngenerated\n" + E + "\n");
  }
}
