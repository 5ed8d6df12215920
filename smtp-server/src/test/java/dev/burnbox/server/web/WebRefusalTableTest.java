package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docs/security.md lists every {@link WebRefusal} exactly as the enum declares it, between {@code
 * <!-- web-refusals:begin -->} and {@code <!-- web-refusals:end -->}: a new or changed refusal
 * fails here until the table is pasted from this test's message.
 */
class WebRefusalTableTest {
  private static final Path DOC = Path.of("../docs/security.md");
  private static final String BEGIN = "<!-- web-refusals:begin -->\n";
  private static final String END = "<!-- web-refusals:end -->";

  /** The table as docs/security.md must show it. */
  static String table() {
    StringBuilder md = new StringBuilder();
    md.append("| `reason` | `stage` | answer | when |\n");
    md.append("|---|---|---|---|\n");
    for (WebRefusal refusal : WebRefusal.values()) {
      md.append("| `")
          .append(refusal.tag())
          .append("` | `")
          .append(WebRefusal.STAGE)
          .append("` | ")
          .append(refusal.answer())
          .append(" | ")
          .append(refusal.situation())
          .append(" |\n");
    }
    return md.toString();
  }

  @Test
  void theDocsListEveryWebRefusalAsDeclared() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int begin = doc.indexOf(BEGIN);
    int end = doc.indexOf(END);
    assertThat(begin).as("%s has %s", DOC, BEGIN.strip()).isNotNegative();
    assertThat(end).as("%s has %s", DOC, END).isGreaterThan(begin);
    assertThat(doc.substring(begin + BEGIN.length(), end))
        .as("the web refusal table in %s; paste:%n%s", DOC, table())
        .isEqualTo(table());
  }

  @Test
  void tagsAreUniqueSnakeCaseAndJettysStatusesAreClientErrorsOr505() {
    Set<String> tags = new HashSet<>();
    for (WebRefusal refusal : WebRefusal.values()) {
      assertThat(tags.add(refusal.tag())).as("unique tag %s", refusal.tag()).isTrue();
      assertThat(refusal.tag()).matches("[a-z0-9]+(_[a-z0-9]+)*");
      assertThat(refusal.situation() + refusal.answer()).doesNotContain("|").doesNotContain("\n");
      if (refusal == WebRefusal.READ_BUDGET_FULL) { // answered by the routes, not by Jetty
        assertThat(refusal.status()).isEqualTo(503);
        assertThat(WebRefusal.ofStatus(503)).as("a 503 of Jetty's is no refusal").isNull();
      } else if (refusal == WebRefusal.TOO_MANY_WAITS // answered by the route
          || refusal == WebRefusal.TOO_MANY_CONNECTIONS_PER_IP) { // by WebGuard
        assertThat(refusal.status()).isEqualTo(429);
      } else if (refusal.status() != 0) {
        assertThat(refusal.status()).isIn(400, 414, 426, 431, 505);
        assertThat(WebRefusal.ofStatus(refusal.status())).isNotNull();
      }
    }
  }
}
