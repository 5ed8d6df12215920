package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.server.mime.MimeCorpus.Expectation;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Decodes each odd message of the test corpus and checks it against expectations.tsv. */
class MailDecoderCorpusTest {
  private static final MailDecoder DECODER = MailDecoder.withDefaults();

  static List<Expectation> expectations() {
    return MimeCorpus.expectations();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expectations")
  void decodesAsExpected(Expectation expected) {
    DecodedMail mail = DECODER.decode(MimeCorpus.read(expected.file()));
    String scan = mail.scanText();

    assertThat(mail.subject()).isEqualTo(expected.subject());
    assertThat(mail.from()).isEqualTo(expected.from());
    assertThat(scan).startsWith(expected.subject() + "\n");
    for (String snippet : expected.scanContains()) {
      assertThat(scan).contains(snippet);
    }
    for (String snippet : expected.scanLacks()) {
      assertThat(scan).doesNotContain(snippet);
    }
    assertThat(mail.attachments()).hasSize(expected.attachments());
    assertThat(mail.malformed())
        .as("malformed; problems: %s", mail.problems())
        .isEqualTo(expected.malformed());
    if (expected.malformed()) {
      assertThat(mail.problems()).isNotEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expectations")
  void everyListedAttachmentCanBeFetched(Expectation expected) {
    byte[] raw = MimeCorpus.read(expected.file());
    for (AttachmentInfo info : DECODER.decode(raw).attachments()) {
      Attachment attachment = DECODER.attachment(raw, info.index()).orElseThrow();
      assertThat(attachment.filename()).isEqualTo(info.filename());
      assertThat(attachment.contentType()).isEqualTo(info.contentType());
      assertThat((long) attachment.content().length).isEqualTo(info.size());
    }
    assertThat(DECODER.attachment(raw, expected.attachments())).isEmpty();
  }
}
