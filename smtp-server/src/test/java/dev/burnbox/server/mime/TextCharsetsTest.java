package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link TextCharsets}: charset labels read as browsers and mail clients read them. */
class TextCharsetsTest {
  /** The bytes 0x80-0x9F in windows-1252 as the WHATWG Encoding Standard's index has them. */
  private static final String WINDOWS_1252_0X80_TO_0X9F =
      "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";

  private static byte[] bytes0x80To0x9F() {
    byte[] bytes = new byte[32];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (0x80 + i);
    }
    return bytes;
  }

  @Test
  void everyWhatwgLabelOfWindows1252ReadsTheBytes0x80To0x9FAsWindows1252() {
    String[] labels = {
      "iso-8859-1",
      "ISO-8859-1",
      "latin1",
      "l1",
      "cp819",
      "ibm819",
      "csisolatin1",
      "iso-ir-100",
      "iso8859-1",
      "iso88591",
      "iso_8859-1",
      "iso_8859-1:1987",
      "windows-1252",
      "cp1252",
      "x-cp1252",
      "\"iso-8859-1\"",
      " Latin1 ",
      "8859_1" // the last one a name only Java knows
    };
    for (String label : labels) {
      assertThat(TextCharsets.decode(bytes0x80To0x9F(), TextCharsets.lookup(label)))
          .as(label)
          .isEqualTo(WINDOWS_1252_0X80_TO_0X9F);
    }
  }

  @Test
  void asciiLabelsReadBytesThatAreNotUtf8AsWindows1252() {
    for (String label : new String[] {"us-ascii", "ascii", "ANSI_X3.4-1968", null}) {
      assertThat(TextCharsets.decode(bytes0x80To0x9F(), TextCharsets.lookup(label)))
          .as(String.valueOf(label))
          .isEqualTo(WINDOWS_1252_0X80_TO_0X9F);
      assertThat(TextCharsets.isKnown(label)).isTrue();
    }
  }

  @Test
  void theBytesWindows1252LeavesUndefinedAreTheirIso8859CodePointsNotReplacementCharacters() {
    byte[] undefined = {(byte) 0x81, (byte) 0x8D, (byte) 0x8F, (byte) 0x90, (byte) 0x9D};
    String expected = "\u0081\u008D\u008F\u0090\u009D";

    assertThat(TextCharsets.decode(undefined, TextCharsets.lookup("windows-1252")))
        .isEqualTo(expected);
    assertThat(TextCharsets.decodeUtf8OrWindows1252(undefined, 0, undefined.length))
        .isEqualTo(expected);
  }

  @Test
  void otherCharsetsAndUtf8AreReadAsDeclared() {
    assertThat(TextCharsets.decode("Grüße €".getBytes(StandardCharsets.UTF_8), null))
        .isEqualTo("Grüße €");
    assertThat(TextCharsets.decode(new byte[] {(byte) 0xA4}, TextCharsets.lookup("iso-8859-15")))
        .isEqualTo("€");
    assertThat(TextCharsets.lookup("x-made-up")).isNull();
    assertThat(TextCharsets.isKnown("x-made-up")).isFalse();
  }
}
