package dev.burnbox.bench.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StoreBlastReportTest {
  private static final String OTHERS =
      "# Benchmarks\n\n## SMTP load\n\n<!-- smtp-bench:begin -->\nold load\n<!-- smtp-bench:end -->\n";

  @Test
  void aFileWithoutItsMarkersGetsTheSectionAppendedAndKeepsTheRest() {
    String updated = StoreBlastReport.replaceSection(OTHERS, "table\n");

    assertThat(updated).startsWith(OTHERS);
    assertThat(updated.substring(OTHERS.length()))
        .startsWith("\n" + StoreBlastReport.HEADING + "\n")
        .endsWith(StoreBlastReport.BEGIN + "\ntable\n" + StoreBlastReport.END + "\n");
  }

  @Test
  void aSecondRunReplacesOnlyWhatIsBetweenItsMarkers() {
    String first = StoreBlastReport.replaceSection(OTHERS, "first\n") + "\nnotes by hand\n";

    String second = StoreBlastReport.replaceSection(first, "second\n");

    assertThat(second).isEqualTo(first.replace("first\n", "second\n"));
    assertThat(second).contains("old load").contains("notes by hand").doesNotContain("first");
  }
}
