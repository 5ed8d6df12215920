package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
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
    assertThat(decode("Date: 3 Feb 2026 10:00:00 EST\nSubject: x\n\nbody").date())
        .contains(Instant.parse("2026-02-03T15:00:00Z"));
    assertThat(decode("Date: Tue,  3 Feb 26 10:00 GMT\nSubject: x\n\nbody").date())
        .contains(Instant.parse("2026-02-03T10:00:00Z"));
    assertThat(decode("Date: Tue, 24 Nov 2026 10:00:00 CET\nSubject: x\n\nbody").date())
        .contains(Instant.parse("2026-11-24T09:00:00Z"));
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
  void iso8859LabelledTextShowsTheEuroSignAndQuotesItsSenderMeant() {
    DecodedMail mail = DECODER.decode(MimeCorpus.read("33-iso-8859-1-means-windows-1252.eml"));

    assertThat(mail.subject()).isEqualTo("Price €100 – “today” only");
    assertThat(mail.from()).isEqualTo("“Smart” Sender <s@example.org>");
    assertThat(mail.text()).isEqualTo("Only €100 – “today”, it’s true.");
    assertThat(mail.html()).isEqualTo("<p>Sale – <b>€100</b></p>");
    assertThat(mail.attachments())
        .extracting(AttachmentInfo::filename)
        .containsExactly("€ prices.txt", "€uro “list”.txt");
    assertThat(mail.scanText()).contains("Price €100 – “today” only", "it’s true", "Sale – €100");
    assertThat(mail.scanText()).doesNotContain("\u0080", "\u0093", "\u0096");
  }

  @Test
  void mailLabelledAsBrowsersReadItShowsItsCharactersInTextSubjectAndFileNames() {
    Base64.Encoder base64 = Base64.getEncoder();
    String raw =
        "Subject: =?ks_c_5601-1987?B?"
            + base64.encodeToString(TextCharsetsTest.hex("8C 63 B9 E6 B0 A2 C7 CF"))
            + "?=\nContent-Type: multipart/mixed; boundary=b\n\n"
            + "--b\nContent-Type: text/plain; charset=gb2312\nContent-Transfer-Encoding: base64\n\n"
            + base64.encodeToString(TextCharsetsTest.hex("D6 EC E9 46 BB F9"))
            + "\n--b\nContent-Type: text/html; charset=\"shift_jis\"\n"
            + "Content-Transfer-Encoding: quoted-printable\n\n<p>=87@=87A =FB=FC=8B=B4</p>\n"
            + "--b\nContent-Disposition: attachment;\n"
            + " filename*=big5''%CA%5C%92%5D%9D%EF%9D%CF.txt\n\nx\n"
            + "--b\nContent-Disposition: attachment;\n"
            + " filename=\"=?tis-620?Q?=CA=C7=D1=CA=B4=D5=85?=\"\n\ny\n--b--\n";

    DecodedMail mail = decode(raw);

    assertThat(mail.subject()).isEqualTo("똠방각하");
    assertThat(mail.text()).isEqualTo("朱镕基");
    assertThat(mail.html()).isEqualTo("<p>①② 髙橋</p>");
    assertThat(mail.attachments())
        .extracting(AttachmentInfo::filename)
        .containsExactly("佢哋嘅嘢.txt", "สวัสดี…");
    assertThat(mail.scanText()).doesNotContain("\uFFFD");
  }

  @Test
  void aNamedTextPartIsListedAndFetchedUnderItsNameAndOnlyTheScanStillReadsIt() {
    byte[] raw = MimeCorpus.read("34-named-text-parts.eml");
    DecodedMail mail = DECODER.decode(raw);

    assertThat(mail.text()).isEqualTo("See attached.");
    assertThat(mail.html()).isEmpty();
    assertThat(mail.attachments())
        .containsExactly(
            new AttachmentInfo(0, "файл.txt", "text/plain", 12),
            new AttachmentInfo(1, "notes.txt", "text/plain", 17),
            new AttachmentInfo(2, "page.html", "text/html", 22));
    assertThat(DECODER.attachment(raw, 0).orElseThrow())
        .isEqualTo(
            new Attachment("файл.txt", "text/plain", "привет".getBytes(StandardCharsets.UTF_8)));
    // the spam scan reads them where they stood among the text parts, as when they were shown
    assertThat(mail.scannedText()).isEqualTo("See attached.\nпривет\nApple notes words");
    assertThat(mail.scannedHtml()).isEqualTo("<p>html file words</p>");
    assertThat(mail.scanParts().body())
        .isEqualTo("See attached.\nпривет\nApple notes words\nhtml file words");
  }

  /**
   * Which text/plain and text/html parts are the message's text and which are files, as mail
   * clients show them: one that names a file is that file, unless it is the message's first text
   * part or an alternative form of the text; one marked {@code attachment} always is.
   */
  @Test
  void aTextPartThatNamesAFileAfterTheMessagesTextIsAnAttachment() {
    record Case(String what, String parts, String text, String html, List<String> files) {}
    String body = "--b\nContent-Type: text/plain\n\nbody\n";
    List<Case> cases =
        List.of(
            new Case(
                "a name in the Content-Type, no disposition",
                body + "--b\nContent-Type: text/plain; name*=utf-8''%D1%84.txt\n\nfile\n",
                "body",
                "",
                List.of("ф.txt")),
            new Case(
                "an inline disposition with a file name (Apple Mail)",
                body
                    + "--b\nContent-Type: text/plain\nContent-Disposition: inline; filename=n.txt"
                    + "\n\nfile\n",
                "body",
                "",
                List.of("n.txt")),
            new Case(
                "named HTML",
                body + "--b\nContent-Type: text/html; name=\"p.html\"\n\n<p>file</p>\n",
                "body",
                "",
                List.of("p.html")),
            new Case(
                "the first text part, named",
                "--b\nContent-Type: application/pdf\n\n%PDF\n"
                    + "--b\nContent-Type: text/plain; name=a.txt\n\nbody\n"
                    + "--b\nContent-Type: text/plain; name=b.txt\n\nfile\n",
                "body",
                "",
                List.of("", "b.txt")),
            new Case(
                "alternative forms of the text, named",
                "--b\nContent-Type: multipart/alternative; boundary=a\n\n"
                    + "--a\nContent-Type: text/plain; name=a.txt\n\nbody\n"
                    + "--a\nContent-Type: text/html; name=a.html\n\n<p>body</p>\n--a--\n",
                "body",
                "<p>body</p>",
                List.of()),
            new Case(
                "no name, or a blank one",
                body
                    + "--b\nContent-Type: text/plain; name=\"\"\n\nmore\n"
                    + "--b\nContent-Type: text/plain\nContent-Disposition: inline\n\nend\n",
                "body\nmore\nend",
                "",
                List.of()),
            new Case(
                "marked attachment, even unnamed and first",
                "--b\nContent-Type: text/plain\nContent-Disposition: attachment\n\nfile\n" + body,
                "body",
                "",
                List.of("")));
    for (Case c : cases) {
      DecodedMail mail =
          decode(
              "Subject: s\nContent-Type: multipart/mixed; boundary=b\n\n" + c.parts() + "--b--\n");
      assertThat(mail.text()).as(c.what()).isEqualTo(c.text());
      assertThat(mail.html()).as(c.what()).isEqualTo(c.html());
      assertThat(mail.attachments())
          .as(c.what())
          .extracting(AttachmentInfo::filename)
          .containsExactlyElementsOf(c.files());
    }
    DecodedMail single = decode("Subject: s\nContent-Type: text/plain; name=only.txt\n\nbody\n");
    assertThat(single.text()).as("a single-part message").isEqualTo("body\n");
    assertThat(single.attachments()).isEmpty();
  }

  @Test
  void fileNamesInEveryFormAreDecodedByTheSameCharsetRules() {
    String raw =
        "Subject: names\nContent-Type: multipart/mixed; boundary=b\n\n"
            + "--b\nContent-Type: application/pdf; name*=latin1''%93a+b%94.txt\n\nx\n"
            + "--b\nContent-Disposition: attachment;\n filename*0*=iso-8859-1'en'%80%20;"
            + " filename*1=rates.txt\n\ny\n"
            + "--b\nContent-Disposition: attachment; filename*=x-unknown''caf%C3%A9.txt\n\nz\n"
            + "--b\nContent-Disposition: attachment; size=1; filename=\"a;\\\"b\\\".txt\"; x=\"y\"\n\nw\n"
            + "--b--\n";

    assertThat(decode(raw).attachments())
        .extracting(AttachmentInfo::filename)
        .containsExactly("“a+b”.txt", "€ rates.txt", "café.txt", "a;\"b\".txt");
  }

  @Test
  void aBodyWithNoBlankLineBeforeItIsTheTextNotAHeaderLineSkipped() {
    DecodedMail mail =
        decode(
            "Received: from client by burnbox.test;\r\n Fri, 27 Nov 2026 01:00:00 +0000\r\n"
                + "just a body with no headers at all\r\n");

    assertThat(mail.text()).isEqualTo("just a body with no headers at all\n");
    assertThat(mail.headers()).extracting(MailHeader::name).containsExactly("Received");
    assertThat(mail.scanText()).contains("just a body with no headers at all");
    assertThat(mail.malformed()).isFalse();
    assertThat(mail.problems()).anyMatch(p -> p.startsWith("no blank line after the header"));
  }

  @Test
  void theHeaderEndsAtItsFirstLineThatIsNotAFieldAndTheRestIsBodyAsWritten() {
    DecodedMail mail =
        decode("Subject: s\nX-Folded: a\n b\nline one\n continued\nX-Not: a field now\n\nlast\n");

    assertThat(mail.subject()).isEqualTo("s");
    assertThat(mail.headers()).extracting(MailHeader::name).containsExactly("Subject", "X-Folded");
    assertThat(mail.text()).isEqualTo("line one\n continued\nX-Not: a field now\n\nlast\n");

    DecodedMail mbox = decode("From ann@example.com Fri Nov 27 01:00:00 2026\nSubject: m\nbody\n");
    assertThat(mbox.subject()).isEqualTo("m");
    assertThat(mbox.text()).isEqualTo("body\n");

    DecodedMail noField = decode("hello there\nSubject: not a subject\n\nbody\n");
    assertThat(noField.subject()).isEmpty();
    assertThat(noField.text()).isEqualTo("hello there\nSubject: not a subject\n\nbody\n");
  }

  @Test
  void aBodyWithNoBlankLineBeforeItListsTheAttachmentsItFetches() {
    byte[] raw =
        ("Subject: a\nnot a field\nContent-Type: multipart/mixed; boundary=b\n\n"
                + "--b\nContent-Type: application/pdf\n\npdf\n--b--\n")
            .getBytes(StandardCharsets.US_ASCII);

    assertThat(DECODER.decode(raw).attachments()).isEmpty(); // its Content-Type is body text
    assertThat(DECODER.decode(raw).text()).startsWith("not a field\nContent-Type: multipart/");
    assertThat(DECODER.attachment(raw, 0)).isEmpty();
  }

  @Test
  void aBodyPartWithNoBlankLineAfterItsHeaderKeepsItsText() {
    DecodedMail mail =
        decode(
            "Subject: parts\r\nContent-Type: multipart/alternative; boundary=\"b\"\r\n\r\n"
                + "--b\r\nContent-Type: text/plain; charset=utf-8\r\nHello there,\r\nsecond line\r\n"
                + "--b\r\nContent-Type: text/html\r\n<p>Hello <b>there</b></p>\r\n--b--\r\n");

    assertThat(mail.text()).isEqualTo("Hello there,\nsecond line");
    assertThat(mail.html()).isEqualTo("<p>Hello <b>there</b></p>");
    assertThat(mail.scanText()).contains("Hello there,", "second line");
    assertThat(mail.malformed()).isFalse();
    assertThat(mail.problems())
        .containsExactly(
            "no blank line after a body part's header: its first line that is not a header field"
                + " starts the part's body");
  }

  @Test
  void aBodyPartsTextStartsAtItsHeadersFirstLineThatIsNotAField() {
    byte[] raw =
        ("Subject: s\nContent-Type: multipart/mixed; boundary=b\n\n"
                + "--b\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\nSGVsbG8=\n"
                + "--b\nno header at all\nX-Not: a field now\n"
                + "--b\nContent-Type: application/pdf\nContent-Disposition: attachment;\n"
                + " filename=a.pdf\nContent-Transfer-Encoding: base64\nJVBERg==\n--b--\n")
            .getBytes(StandardCharsets.US_ASCII);

    DecodedMail mail = DECODER.decode(raw);
    assertThat(mail.text()).isEqualTo("Hello\nno header at all\nX-Not: a field now");
    assertThat(mail.attachments())
        .containsExactly(new AttachmentInfo(0, "a.pdf", "application/pdf", 4));
    assertThat(DECODER.attachment(raw, 0).orElseThrow().content())
        .isEqualTo("%PDF".getBytes(StandardCharsets.US_ASCII));
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
