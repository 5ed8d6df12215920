package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.server.config.OptionCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The README's option table is the one {@link OptionCatalog#markdownTable} derives from the
 * options' declarations. When it fails, run the build with {@code -Dburnbox.writeReadme=true} once
 * to write the table into the README, and review the diff.
 */
class ReadmeOptionsTableTest {
  private static final String BEGIN =
      "<!-- options:begin (generated from the option declarations; see ReadmeOptionsTableTest) -->\n";
  private static final String END = "<!-- options:end -->";

  @Test
  void theReadmeTableIsTheOneTheDeclarationsGive() throws IOException {
    Path readme = Path.of("..", "README.md");
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    assertThat(begin).as("README.md has the table's begin marker").isNotNegative();
    assertThat(end).as("README.md has the table's end marker").isGreaterThan(begin);
    String expected =
        OptionCatalog.markdownTable(new ServeCommand(Map.of()).commandLine().getCommandSpec());
    String actual = text.substring(begin + BEGIN.length(), end);
    if (Boolean.getBoolean("burnbox.writeReadme") && !actual.equals(expected)) {
      Files.writeString(
          readme,
          text.substring(0, begin + BEGIN.length()) + expected + text.substring(end),
          StandardCharsets.UTF_8);
      return;
    }
    assertThat(actual).isEqualTo(expected);
  }
}
