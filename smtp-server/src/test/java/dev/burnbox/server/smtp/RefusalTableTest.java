package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docs/security.md lists every {@link Refusal} exactly as the enum declares it, between {@code <!--
 * refusals:begin -->} and {@code <!-- refusals:end -->}: a new or changed refusal fails here until
 * the table is pasted from this test's message.
 */
class RefusalTableTest {
  private static final Path DOC = Path.of("../docs/security.md");
  private static final String BEGIN = "<!-- refusals:begin -->\n";
  private static final String END = "<!-- refusals:end -->";

  /** The table as docs/security.md must show it. */
  static String table() {
    StringBuilder md = new StringBuilder();
    md.append("| `reason` | `stage` | reply | when |\n");
    md.append("|---|---|---|---|\n");
    for (Refusal refusal : Refusal.values()) {
      md.append("| `")
          .append(refusal.tag())
          .append("` | `")
          .append(refusal.stage().tag())
          .append("` | `")
          .append(refusal.reply())
          .append("` | ")
          .append(refusal.situation())
          .append(" |\n");
    }
    return md.toString();
  }

  @Test
  void theDocsListEveryRefusalAsDeclared() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int begin = doc.indexOf(BEGIN);
    int end = doc.indexOf(END);
    assertThat(begin).as("%s has %s", DOC, BEGIN.strip()).isNotNegative();
    assertThat(end).as("%s has %s", DOC, END).isGreaterThan(begin);
    assertThat(doc.substring(begin + BEGIN.length(), end))
        .as("the refusal table in %s; paste:%n%s", DOC, table())
        .isEqualTo(table());
  }

  @Test
  void tagsAreUniqueSnakeCaseAndRepliesAreRefusals() {
    Set<String> tags = new HashSet<>();
    for (Refusal refusal : Refusal.values()) {
      assertThat(tags.add(refusal.tag())).as("unique tag %s", refusal.tag()).isTrue();
      assertThat(refusal.tag()).matches("[a-z]+(_[a-z]+)*");
      assertThat(refusal.reply().isPositive()).as(refusal.name()).isFalse();
      assertThat(refusal.situation()).doesNotContain("|").doesNotContain("\n");
    }
  }
}
