package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.burnbox.server.fuzz.FuzzInputs;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz target: {@link MailDecoder} on arbitrary bytes. Checks that decoding never throws, stays
 * within tight {@link MimeLimits}, produces well-formed UTF-16 (no unpaired surrogates) in every
 * decoded string, is deterministic, and can fetch every attachment it lists.
 *
 * <p>In a normal build the seeds in {@code MailDecoderFuzzTestInputs/decodesAnyBytes/} run through
 * Jazzer's regression mode, and {@link #mutationsOfTheSeedsDecodeSafely} runs seeded mutations of
 * them; {@code scripts/fuzz.sh mime 30m} fuzzes for real.
 */
class MailDecoderFuzzTest {
  private static final MimeLimits TIGHT = new MimeLimits(3, 2_000, 12);
  private static final MailDecoder TIGHT_DECODER = new MailDecoder(TIGHT);
  private static final MailDecoder DEFAULT_DECODER = MailDecoder.withDefaults();
  private static final List<String> SNIPPETS =
      List.of(
          "\r\n--",
          "\r\n\r\n",
          "=?utf-8?B?",
          "=?iso-8859-1?q?",
          "?=",
          "=\r\n",
          "=E9",
          "Content-Type: multipart/mixed; boundary=\"B\"\r\n",
          "Content-Type: multipart/alternative; boundary=B\r\n",
          "--B\r\n",
          "--B--\r\n",
          "Content-Transfer-Encoding: base64\r\n",
          "Content-Transfer-Encoding: quoted-printable\r\n",
          "Content-Type: message/rfc822\r\n\r\n",
          "Content-Type: text/html; charset=utf-16\r\n",
          "Content-Disposition: attachment; filename*=utf-8''%F0%9F\r\n",
          "\u00ed\u00a0\u0080",
          "\r",
          "\u0000");

  @FuzzTest(maxDuration = "5m")
  @DictionaryFile(resourcePath = "mime.dict")
  void decodesAnyBytes(byte[] raw) {
    checkDecoding(raw);
  }

  static LongStream seeds() {
    return LongStream.range(0, 8);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void mutationsOfTheSeedsDecodeSafely(long seed) {
    FuzzInputs.checkMutations(
        seed,
        FuzzInputs.seeds(MailDecoderFuzzTest.class, "decodesAnyBytes"),
        250,
        SNIPPETS,
        MailDecoderFuzzTest::checkDecoding);
  }

  /** The properties every input must have; throws AssertionError if one fails. */
  static void checkDecoding(byte[] raw) {
    DecodedMail tight = TIGHT_DECODER.decode(raw);
    long parts = TIGHT.maxParts();
    assertThat((long) tight.text().length() + tight.html().length())
        .as("decoded text within the byte budget (plus one separator per part)")
        .isLessThanOrEqualTo(TIGHT.maxDecodedBytes() + 2 * parts);
    assertThat(tight.attachments().size()).isLessThanOrEqualTo(TIGHT.maxParts() + 1);
    assertThat(tight.problems()).hasSizeLessThanOrEqualTo(DecodedMailBuilder.MAX_PROBLEMS);
    for (AttachmentInfo info : tight.attachments()) {
      assertThat(TIGHT_DECODER.attachment(raw, info.index()))
          .as("attachment %d can be fetched", info.index())
          .hasValueSatisfying(a -> assertThat((long) a.content().length).isEqualTo(info.size()));
    }

    DecodedMail mail = DEFAULT_DECODER.decode(raw);
    assertThat(DEFAULT_DECODER.decode(raw)).as("deterministic").isEqualTo(mail);
    String scan = mail.scanText();
    assertThat(scan)
        .as("scan text starts with the subject (less invisible characters) and a newline")
        .startsWith(HtmlText.withoutInvisibleCharacters(mail.subject()) + "\n");
    for (String text : strings(mail)) {
      assertWellFormed(text);
    }
    assertWellFormed(scan);
  }

  private static List<String> strings(DecodedMail mail) {
    List<String> all = new ArrayList<>(List.of(mail.subject(), mail.from(), mail.text()));
    all.add(mail.html());
    all.addAll(mail.to());
    mail.headers().forEach(h -> all.addAll(List.of(h.name(), h.value())));
    mail.attachments().forEach(a -> all.addAll(List.of(a.filename(), a.contentType())));
    return all;
  }

  private static void assertWellFormed(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new AssertionError("unpaired surrogate at " + i + " in: " + text);
      }
    }
  }
}
