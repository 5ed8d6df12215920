package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Fields of {@link DecodedMail} the corpus expectations do not cover, and the limits. */
class MailDecoderTest {
  private static final MailDecoder DECODER = MailDecoder.withDefaults();

  private static DecodedMail decode(String raw) {
    return DECODER.decode(raw.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void partsLongerThanTheReadBufferDecodeWholeAndTheBudgetCutsAtItsByte() {
    StringBuilder body = new StringBuilder();
    for (int i = 0; body.length() < 50_000; i++) {
      body.append("line ").append(i).append('\n');
    }
    String raw =
        "Subject: long\nContent-Type: multipart/alternative; boundary=b\n\n--b\n"
            + "Content-Type: text/plain\n\n"
            + body
            + "--b\nContent-Type: text/html\n\n<p>"
            + body
            + "</p>\n--b--\n";

    String text = body.substring(0, body.length() - 1); // the line end before a boundary is its own
    DecodedMail whole = decode(raw);
    assertThat(whole.text()).isEqualTo(text);
    assertThat(whole.html()).startsWith("<p>line 0\n").contains(body.substring(40_000));
    assertThat(whole.problems()).isEmpty();

    DecodedMail cut =
        new MailDecoder(new MimeLimits(3, 60_000, 12)).decode(raw.getBytes(StandardCharsets.UTF_8));
    assertThat(cut.text()).isEqualTo(text);
    assertThat(cut.html()).hasSize(60_000 - text.length()); // the rest of the budget, to the byte
    assertThat(cut.problems()).contains("decoded text beyond 60000 bytes was cut");
  }

  @Test
  void addressListsKeepQuotedAndEncodedNamesWhole() {
    DecodedMail mail = DECODER.decode(MimeCorpus.read("29-address-lists.eml"));

    assertThat(mail.from()).isEqualTo("Doe, Jane <jane@example.com>");
    assertThat(mail.to())
        .containsExactly(
            "Bob B <bob@burnbox.dev>", "Müller, Hans <hans@example.de>", "carol@example.org");
  }

  @Test
  void headersAreDecodedUnfoldedAndInOrder() {
    DecodedMail mail = DECODER.decode(MimeCorpus.read("31-folded-headers.eml"));

    assertThat(mail.headers())
        .containsExactly(
            new MailHeader("From", "fold@example.com"),
            new MailHeader("To", "bob@burnbox.dev"),
            new MailHeader("Subject", "This subject is folded over three lines"),
            new MailHeader("X-Custom", "one two"),
            new MailHeader("Content-Type", "text/plain"));
  }

  @Test
  void dateIsReadLeniently() {
    assertThat(DECODER.decode(MimeCorpus.read("02-crlf-alternative.eml")).date())
        .contains(Instant.parse("2026-11-20T13:30:00Z"));
    assertThat(DECODER.decode(MimeCorpus.read("04-encoded-from-iso-8859-1.eml")).date())
        .contains(Instant.parse("2026-11-18T08:15:00Z"));
    assertThat(decode("Date: not a date\nSubject: x\n\nbody").date()).isEmpty();
  }

  @Test
  void attachmentsCarryDecodedNamesTypesAndBytes() {
    byte[] raw = MimeCorpus.read("17-rfc2231-filenames.eml");
    assertThat(DECODER.decode(raw).attachments())
        .containsExactly(
            new AttachmentInfo(0, "€ rates 2026.pdf", "application/pdf", 9),
            new AttachmentInfo(1, "résumé long-name.csv", "text/csv", 5));
    assertThat(DECODER.attachment(raw, 1).orElseThrow().content())
        .isEqualTo("a,b,c".getBytes(StandardCharsets.US_ASCII));

    byte[] zip = MimeCorpus.read("18-rfc2047-filename.eml");
    Attachment attachment = DECODER.attachment(zip, 0).orElseThrow();
    assertThat(attachment.filename()).isEqualTo("Überweisung.zip");
    assertThat(attachment.content()).isEqualTo(new byte[] {'P', 'K', 3, 4, 'z', 'i', 'p'});
    assertThat(DECODER.attachment(zip, -1)).isEmpty();
  }

  @Test
  void anInlinePartCarriesItsContentIdWithoutAngleBrackets() {
    DecodedMail mail =
        decode(
            """
            Content-Type: multipart/related; boundary="r"

            --r
            Content-Type: text/html

            <img src="cid:logo@x">
            --r
            Content-Type: image/png
            Content-ID: < logo@x >
            Content-Transfer-Encoding: base64

            iVBORw0K
            --r
            Content-Type: image/gif

            GIF89a
            --r--
            """);
    assertThat(mail.attachments())
        .containsExactly(
            new AttachmentInfo(0, "", "image/png", 6, "logo@x"),
            new AttachmentInfo(1, "", "image/gif", 6, ""));
  }

  @Test
  void tooManyPartsStopsTheWalkAndSaysSo() {
    StringBuilder raw =
        new StringBuilder("Subject: parts\nContent-Type: multipart/mixed; boundary=b\n\n");
    for (int i = 0; i < 10; i++) {
      raw.append("--b\nContent-Type: text/plain\n\npart ").append(i).append("\n");
    }
    raw.append("--b--\n");

    DecodedMail mail =
        new MailDecoder(new MimeLimits(20, 1 << 20, 3))
            .decode(raw.toString().getBytes(StandardCharsets.US_ASCII));

    assertThat(mail.text()).contains("part 0", "part 2").doesNotContain("part 3");
    assertThat(mail.problems()).anyMatch(p -> p.contains("more than 3 parts"));
    assertThat(mail.malformed()).isFalse();
  }

  @Test
  void decodedTextBeyondTheLimitIsCut() {
    String raw = "Subject: long\n\n" + "x".repeat(5000);

    DecodedMail mail =
        new MailDecoder(new MimeLimits(20, 1000, 500))
            .decode(raw.getBytes(StandardCharsets.US_ASCII));

    assertThat(mail.text()).hasSize(1000);
    assertThat(mail.problems()).anyMatch(p -> p.contains("beyond 1000 bytes"));
  }

  @Test
  void depthLimitSkipsDeeperParts() {
    byte[] raw = MimeCorpus.read("20-deep-nesting-beyond-limit.eml");

    assertThat(new MailDecoder(new MimeLimits(25, 1 << 20, 500)).decode(raw).text())
        .contains("Buried treasure text.");
    DecodedMail shallow = new MailDecoder(new MimeLimits(1, 1 << 20, 500)).decode(raw);
    assertThat(shallow.text()).isEqualTo("Top level text.");
    assertThat(shallow.problems()).anyMatch(p -> p.contains("deeper than 1 levels"));
  }

  @Test
  void multipartWithoutBoundaryOrDelimiterIsKeptAsText() {
    DecodedMail mail =
        decode("Subject: b\nContent-Type: multipart/mixed\n\nJust text\n----------\nmore text\n");

    assertThat(mail.malformed()).isTrue();
    assertThat(mail.text()).isEqualTo("Just text\n----------\nmore text\n");
  }

  @Test
  void nothingAndGarbageStillDecode() {
    assertThat(DECODER.decode(new byte[0]).scanText()).isEqualTo("\n");
    assertThat(DECODER.decode(new byte[] {0, -1, '\n', '\n', -128}).malformed()).isTrue();
    assertThat(decode("\n\n\n").text()).isBlank();
  }

  @Test
  void scanTextSeparatesBlocksAndDropsInvisibleCharacters() {
    DecodedMail mail =
        decode(
            "Subject: s\nContent-Type: text/html\n\n"
                + "<ul><li>one</li><li>two</li></ul>fr&#8203;ee&shy;dom<br>x&nbsp;y");

    assertThat(mail.scanText()).isEqualTo("s\none\ntwo\nfreedom\nx y");
  }

  @Test
  void oneDecoderServesManyThreads() throws Exception {
    List<byte[]> messages = MimeCorpus.messages();
    List<DecodedMail> expected = messages.stream().map(DECODER::decode).toList();
    try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
      List<Future<List<DecodedMail>>> runs = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        runs.add(pool.submit(() -> messages.stream().map(DECODER::decode).toList()));
      }
      for (Future<List<DecodedMail>> run : runs) {
        assertThat(run.get()).isEqualTo(expected);
      }
    }
  }

  @Test
  void resultsAreImmutable() {
    DecodedMail mail = DECODER.decode(MimeCorpus.read("30-lf-multipart-image.eml"));
    assertThatThrownBy(() -> mail.attachments().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    Attachment attachment =
        DECODER.attachment(MimeCorpus.read("30-lf-multipart-image.eml"), 0).orElseThrow();
    attachment.content()[0] = 0;
    assertThat(attachment.content()[0]).isEqualTo((byte) 0x89);
    assertThat(List.of(new MimeLimits(0, 0, 1))).isNotEmpty();
    assertThatThrownBy(() -> new MimeLimits(-1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
