package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link HeaderText#decodeEncodedWords}: RFC 2047 words decoded, and a word that cannot be decoded
 * shown as written (RFC 2047, section 6.3), never as the garbage a lenient decoding gives.
 */
class HeaderTextEncodedWordsTest {
  private static String decode(String value) {
    return HeaderText.decodeEncodedWords(value);
  }

  @Test
  void aSenderWhoseNameIsNotBase64IsListedAsWritten() {
    DecodedMail mail =
        MailDecoder.withDefaults()
            .decode(
                "From: =?UTF-8?B?!!!notb64?= <b@example.org>\r\nSubject: =?UTF-8?Q?bad=ZZq?=\r\n\r\nx\r\n"
                    .getBytes(StandardCharsets.US_ASCII));

    assertThat(mail.from()).isEqualTo("=?UTF-8?B?!!!notb64?= <b@example.org>");
    assertThat(mail.subject()).isEqualTo("=?UTF-8?Q?bad=ZZq?=");
    assertThat(mail.headers().getFirst().value())
        .isEqualTo("=?UTF-8?B?!!!notb64?= <b@example.org>");
  }

  @Test
  void base64ThatIsNotBase64IsShownAsWritten() {
    assertThat(decode("=?UTF-8?B?!!!notb64?=")).isEqualTo("=?UTF-8?B?!!!notb64?=");
    assertThat(decode("=?UTF-8?B?QUJDR?=")).isEqualTo("=?UTF-8?B?QUJDR?="); // 6 bits left over
    assertThat(decode("=?UTF-8?B?QQ==QQ==?=")).isEqualTo("=?UTF-8?B?QQ==QQ==?=");
  }

  @Test
  void base64WithoutPaddingOrInTheUrlSafeAlphabetStillDecodes() {
    assertThat(decode("=?UTF-8?B?Q2Fmw6k?=")).isEqualTo("Café");
    assertThat(decode("=?UTF-8?B?Q2Fmw6k=?=")).isEqualTo("Café");
    assertThat(decode("=?UTF-8?B?_-8?=")).isEqualTo(decode("=?UTF-8?B?/+8?="));
  }

  @Test
  void qEncodingThatIsNotQEncodingIsShownAsWritten() {
    assertThat(decode("=?UTF-8?Q?bad=ZZq?=")).isEqualTo("=?UTF-8?Q?bad=ZZq?=");
    assertThat(decode("=?UTF-8?Q?cut=E?=")).isEqualTo("=?UTF-8?Q?cut=E?=");
    assertThat(decode("=?UTF-8?Q?caf\u00e9?=")).isEqualTo("=?UTF-8?Q?caf\u00e9?=");
    assertThat(decode("=?UTF-8?Q?caf=c3=a9_ok?=")).isEqualTo("café ok");
  }

  @Test
  void aWordShownAsWrittenKeepsTheSpaceAroundItAndItsNeighboursStillDecode() {
    assertThat(
            decode("=?utf-8?q?a?= =?utf-8?q?b=Z?= =?utf-8?q?c?= and =?utf-8?q?d?= =?utf-8?q?e?="))
        .isEqualTo("a =?utf-8?q?b=Z?= c and de");
  }

  @Test
  void anUnknownCharsetIsReadAsUtf8WhenItsBytesAreUtf8AndShownAsWrittenWhenNot() {
    assertThat(decode("=?x-no-such?Q?caf=C3=A9?=")).isEqualTo("café");
    assertThat(decode("=?x-no-such?Q?plain_text?=")).isEqualTo("plain text");
    assertThat(decode("Re: =?x-no-such?Q?caf=E9?= =?x-no-such?Q?_ok?= !"))
        .isEqualTo("Re: =?x-no-such?Q?caf=E9?= =?x-no-such?Q?_ok?= !");
  }
}
