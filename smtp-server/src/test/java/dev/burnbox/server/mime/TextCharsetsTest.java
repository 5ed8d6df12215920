package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
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
  void theBytesWindowsCodePagesLeaveUndefinedAreTheirIso8859CodePointsNotReplacementCharacters() {
    byte[] undefined = {(byte) 0x81, (byte) 0x8D, (byte) 0x8F, (byte) 0x90, (byte) 0x9D};
    String expected = "\u0081\u008D\u008F\u0090\u009D";

    assertThat(TextCharsets.decode(undefined, TextCharsets.lookup("windows-1252")))
        .isEqualTo(expected);
    assertThat(TextCharsets.decode(hex("81 83 88"), TextCharsets.lookup("windows-1250")))
        .isEqualTo("\u0081\u0083\u0088"); // the same in the other Windows code pages
    assertThat(TextCharsets.decode(hex("81 DB"), TextCharsets.lookup("windows-874")))
        .isEqualTo("\u0081\uFFFD"); // but a byte undefined outside 0x80-0x9F stays undefined
    assertThat(TextCharsets.decodeUtf8OrWindows1252(undefined, 0, undefined.length))
        .isEqualTo(expected);
  }

  /** The bytes written in hex, spaces between them. */
  static byte[] hex(String bytes) {
    return HexFormat.ofDelimiter(" ").parseHex(bytes);
  }

  @Test
  void everyLabelIsReadAsTheEncodingWhatwgGivesItNotAsTheStandardItNames() {
    String[][] labelBytesText = { // each read wrongly, or not at all, as Java reads the label
      {"gb2312", "D6 EC E9 46 BB F9", "朱镕基"}, // 镕 is GBK, not GB2312
      {"x-gbk", "D6 EC E9 46 BB F9", "朱镕基"},
      {"chinese", "D6 EC E9 46 BB F9", "朱镕基"},
      {"ks_c_5601-1987", "8C 63 B9 E6 B0 A2 C7 CF", "똠방각하"}, // 똠 is Windows-949, not EUC-KR
      {"euc-kr", "8C 63 B9 E6 B0 A2 C7 CF", "똠방각하"},
      {"iso-8859-9", "93 47 FC 6C 65 20 67 FC 6C 65 94 20 80 35", "“Güle güle” €5"},
      {"latin5", "93 47 FC 6C 65 20 67 FC 6C 65 94 20 80 35", "“Güle güle” €5"},
      {"tis-620", "CA C7 D1 CA B4 D5 85 20 80", "สวัสดี… €"}, // windows-874's … and €
      {"iso-8859-11", "CA C7 D1 CA B4 D5 85 20 80", "สวัสดี… €"},
      {"shift_jis", "87 40 87 41 20 FB FC 8B B4", "①② 髙橋"}, // Windows-31J's NEC and IBM rows
      {"sjis", "87 40 87 41 20 FB FC 8B B4", "①② 髙橋"},
      {"big5", "CA 5C 92 5D 9D EF 9D CF", "佢哋嘅嘢"}, // Cantonese: HKSCS characters
      {"x-x-big5", "CA 5C 92 5D 9D EF 9D CF", "佢哋嘅嘢"},
      {"euc-jp", "AD A1", "①"},
      {"iso-2022-jp", "1B 24 42 2D 21 1B 28 42", "①"},
      {"iso-8859-8-i", "F9 EC E5 ED", "שלום"},
      {"x-mac-roman", "43 61 66 8E", "Café"},
      {"macintosh", "43 61 66 8E", "Café"},
      {"\"ISO-8859-9\"", "80", "€"},
      {"8859_9", "80", "€"} // a name only Java knows: WHATWG's reading of Java's ISO-8859-9
    };
    for (String[] row : labelBytesText) {
      assertThat(TextCharsets.decode(hex(row[1]), TextCharsets.lookup(row[0])))
          .as(row[0])
          .isEqualTo(row[2]);
      assertThat(TextCharsets.isKnown(row[0])).as(row[0]).isTrue();
    }
  }

  @Test
  void aBadLeadByteNeverTakesTheAsciiByteAfterItWithIt() {
    for (String label : new String[] {"gb2312", "big5", "big5-hkscs", "euc-jp", "sjis", "euc-kr"}) {
      Charset charset = TextCharsets.lookup(label);
      assertThat(TextCharsets.decode(hex("81 3C 62 3E 78"), charset))
          .as(label)
          .isEqualTo("\uFFFD<b>x"); // WHATWG's decoders give the < back; Java's GB18030 took it
      assertThat(TextCharsets.decode(hex("81 0A 78"), charset)).as(label).isEqualTo("\uFFFD\nx");
    }
  }

  @Test
  void theReplacementAndUtf16LabelsAreReadAsMimeMeansThem() {
    assertThat(TextCharsets.lookup("iso-2022-kr")).isEqualTo(Charset.forName("ISO-2022-KR"));
    assertThat(TextCharsets.decode(hex("00 48 00 69"), TextCharsets.lookup("utf-16")))
        .isEqualTo("Hi"); // no byte-order mark: big-endian (RFC 2781), not WHATWG's little-endian
    assertThat(TextCharsets.decode(hex("FF FE 48 00 69 00"), TextCharsets.lookup("utf-16")))
        .isEqualTo("Hi");
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
