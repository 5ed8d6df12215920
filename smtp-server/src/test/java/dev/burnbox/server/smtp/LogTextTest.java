package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LogTextTest {
  static Stream<Arguments> unsafeCharacters() {
    return Stream.of(
        Arguments.of("a\rb", "a\\u000db"),
        Arguments.of("a\nb", "a\\u000ab"),
        Arguments.of("a\u0000b", "a\\u0000b"),
        Arguments.of("a\tb", "a\\u0009b"),
        Arguments.of("\u001b[31mred", "\\u001b[31mred"),
        Arguments.of("a\u007fb", "a\\u007fb"),
        Arguments.of("a\u0085b", "a\\u0085b"),
        Arguments.of("a\u2028b", "a\\u2028b"),
        Arguments.of("a\u2029b", "a\\u2029b"),
        Arguments.of("a\u202eb", "a\\u202eb"),
        Arguments.of("a\u200bb", "a\\u200bb"),
        Arguments.of("a\udb80\udc00b", "a\\U000f0000b")); // a private-use code point
  }

  @ParameterizedTest
  @MethodSource("unsafeCharacters")
  void escapesCharactersThatCouldBreakOrDisguiseALine(String text, String logged) {
    assertThat(LogText.printable(text)).isEqualTo(logged);
  }

  @Test
  void keepsPrintableTextIncludingNonAsciiLettersAndEmoji() {
    String text = "jürgen@exämple.org Grüße ✉ 😀 <a@b> [x] \"q\" \\";
    assertThat(LogText.printable(text)).isEqualTo(text);
  }

  @Test
  void escapesALoneSurrogateButKeepsAPair() {
    assertThat(LogText.printable("a\ud83db")).isEqualTo("a\\ud83db");
    assertThat(LogText.printable("a\ud83d\ude00b")).isEqualTo("a\ud83d\ude00b");
  }

  @Test
  void cutsLongTextWithoutSplittingAnEscapeOrASurrogatePair() {
    assertThat(LogText.printable("x".repeat(1000))).isEqualTo("x".repeat(120) + "...");
    assertThat(LogText.printable("x".repeat(118) + "\u001b")).isEqualTo("x".repeat(118) + "...");
    assertThat(LogText.printable("x".repeat(119) + "😀")).isEqualTo("x".repeat(119) + "...");
    assertThat(LogText.printable("x".repeat(120))).isEqualTo("x".repeat(120));
  }

  @Test
  void printsNullAsNull() {
    assertThat(LogText.printable(null)).isEqualTo("null");
  }

  /** Whatever the input, the output is one bounded line of visible characters. */
  @Test
  void randomTextAlwaysBecomesOneBoundedVisibleLine() {
    Random random = new Random(7);
    for (int i = 0; i < 2_000; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(300);
      for (int j = 0; j < length; j++) {
        text.append(
            (char)
                switch (random.nextInt(4)) {
                  case 0 -> random.nextInt(0x40); // C0 controls, space, punctuation
                  case 1 -> 0x7f + random.nextInt(0x30); // DEL, C1 controls, Latin-1
                  case 2 -> 0x2000 + random.nextInt(0x70); // separators, bidi and format
                  default -> random.nextInt(0x10000); // anything, lone surrogates included
                });
      }
      String printable = LogText.printable(text.toString());
      assertThat(printable.length()).isLessThanOrEqualTo(LogText.MAX_LENGTH + 3);
      int unsafe =
          printable
              .codePoints()
              .filter(
                  c ->
                      switch (Character.getType(c)) {
                        case Character.CONTROL,
                            Character.FORMAT,
                            Character.LINE_SEPARATOR,
                            Character.PARAGRAPH_SEPARATOR,
                            Character.SURROGATE ->
                            true;
                        default -> false;
                      })
              .findFirst()
              .orElse(-1);
      assertThat(unsafe).as("an unsafe character in %s", printable).isEqualTo(-1);
    }
  }
}
