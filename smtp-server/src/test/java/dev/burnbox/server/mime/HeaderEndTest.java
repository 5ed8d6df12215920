package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Where headers without a blank line after them end: {@link HeaderEnd} on raw bytes. */
class HeaderEndTest {
  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void aPartsHeaderEndsAtItsFirstLineThatIsNotAFieldAndNotPastItsNextDelimiter() {
    String message =
        "--b\nContent-Type: text/plain\nHello\n"
            + "--b\nContent-Type: text/html\n\n<p>fine</p>\n"
            + "--b\nX-Only: a header\n--b--\n";
    byte[] raw = ascii(message);

    assertThat(HeaderEnd.firstLinesNotAFieldInParts(raw, List.of("b")))
        .containsExactly(message.indexOf("Hello"));
    assertThat(HeaderEnd.firstLinesNotAFieldInParts(raw, List.of("other"))).isEmpty();
  }

  @Test
  void aDelimiterIsTheBoundaryFollowedByALineEndWhiteSpaceOrTwoDashes() {
    String message =
        "--b \nContent-Type: text/plain\none\n"
            + "--bb\nnot a part of b\n"
            + "--b\tx\nContent-Type: text/plain\ntwo\n--b--\n";
    assertThat(HeaderEnd.firstLinesNotAFieldInParts(ascii(message), List.of("b")))
        .containsExactly(message.indexOf("one"), message.indexOf("two"));
  }

  /**
   * A long boundary and long lines of white space after {@code --}: each line was read as every
   * prefix up to the boundary's length, copied and hashed, quadratic in the line.
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aLongBoundaryAndLongLinesCostNoMoreThanTheirBytes() {
    String boundary = "x".repeat(100_000);
    String message =
        "--"
            + boundary
            + "\nContent-Type: text/plain\nhi\n"
            + ("--" + " ".repeat(100_000) + "\n").repeat(20);

    assertThat(HeaderEnd.firstLinesNotAFieldInParts(ascii(message), List.of(boundary)))
        .containsExactly(message.indexOf("hi\n"));
  }

  /**
   * A sender may declare as many boundaries and write as many lines as it likes: finding the part
   * headers to repair reads each line once. Each line was compared with every boundary, and each
   * part read on to its next delimiter: this message took hours.
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void findingPartHeadersIsLinearWhateverTheBoundariesDeclared() {
    List<String> boundaries = new ArrayList<>();
    StringBuilder message = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      boundaries.add("b" + i);
      message.append("--b").append(i).append("\nContent-Type: text/plain\nhi\n");
    }
    message.append("x\n".repeat(1_000_000));
    String text = message.toString();

    int[] bodies = HeaderEnd.firstLinesNotAFieldInParts(ascii(text), boundaries);

    assertThat(bodies).hasSize(100_000);
    assertThat(IntStream.of(bodies).allMatch(at -> text.startsWith("hi\n", at))).isTrue();
  }
}
