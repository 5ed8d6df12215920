package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.james.mime4j.io.BufferedLineReaderInputStream;
import org.apache.james.mime4j.util.BufferRecycler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A copy of a message already decoded, which differs in its header only, takes the kept body: its
 * result must be exactly what a fresh decoder gives, for every corpus message and for seeded random
 * mutations of them (a failing seed is in the test name).
 */
class MailDecoderCopiesTest {
  private static final int SEEDS = 30;

  /** {@code raw} with two header fields of its own in front, as a relay's trace field would be. */
  private static byte[] copyOf(byte[] raw, int n) {
    String eol = new String(raw, StandardCharsets.ISO_8859_1).contains("\r\n") ? "\r\n" : "\n";
    byte[] fields =
        ("Received: from relay"
                + n
                + ".test by burnbox.test; Fri, 27 Nov 2026 01:00:00 +0000"
                + eol
                + "X-Copy: "
                + n
                + eol)
            .getBytes(StandardCharsets.US_ASCII);
    byte[] copy = new byte[fields.length + raw.length];
    System.arraycopy(fields, 0, copy, 0, fields.length);
    System.arraycopy(raw, 0, copy, fields.length, raw.length);
    return copy;
  }

  @Test
  void aCopyOfEachCorpusMessageDecodesAsAFreshDecoderDecodesIt() {
    MailDecoder decoder = MailDecoder.withDefaults();
    int clean = 0;
    for (byte[] original : MimeCorpus.messages()) {
      DecodedMail first = decoder.decode(original);
      clean += first.problems().isEmpty() ? 1 : 0;
      for (int n = 1; n <= 2; n++) {
        byte[] copy = copyOf(original, n);
        assertThat(decoder.decode(copy))
            .as("copy %d of %s", n, first.subject())
            .isEqualTo(MailDecoder.withDefaults().decode(copy));
      }
    }
    // every clean message's copies took its body; a message with problems is never kept
    assertThat(clean).isGreaterThan(20);
    assertThat(decoder.reusedBodies()).isGreaterThanOrEqualTo(clean);
  }

  @Test
  void aCopyTakesTheKeptTextAsItIsNotWithItsLineEndsReadAgain() {
    // CR CR LF decodes to CR LF: read again, a copy's text would lose that CR
    byte[] raw =
        ("Subject: s\r\nContent-Type: text/plain; charset=us-ascii\r\n"
                + "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
                + "one=0D\r\ntwo\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    MailDecoder decoder = MailDecoder.withDefaults();
    DecodedMail first = decoder.decode(raw);
    assertThat(first.text()).contains("one\r\ntwo");
    DecodedMail copy = decoder.decode(copyOf(raw, 1));
    assertThat(decoder.reusedBodies()).isEqualTo(1);
    assertThat(copy.text()).isEqualTo(first.text());
  }

  @Test
  void aCopyGivesMime4jsLineBufferBackToTheThreadsRecycler() {
    MailDecoder decoder = MailDecoder.withDefaults();
    byte[] original =
        ("From: a@example.org\r\nSubject: hi\r\nContent-Type: text/plain\r\n\r\n"
                + "Hello, world.\r\n".repeat(100))
            .getBytes(StandardCharsets.US_ASCII);
    decoder.decode(original); // walked to its end: its buffer is back in the recycler
    BufferRecycler recycler = BufferedLineReaderInputStream.getBufferRecycler();
    byte[] buffer = recycler.allocByteBuffer(0, 4096);
    recycler.releaseByteBuffer(0, buffer); // the one buffer the next parse takes

    DecodedMail copy = decoder.decode(copyOf(original, 1));

    assertThat(decoder.reusedBodies()).isEqualTo(1);
    assertThat(copy.text()).contains("Hello, world.");
    assertThat(recycler.allocByteBuffer(0, 4096)).isSameAs(buffer);
  }

  @Test
  void aBodyIsNotReusedWhenTheFieldsThatSayHowToReadItDiffer() {
    MailDecoder decoder = MailDecoder.withDefaults();
    String body = "\r\nSGVsbG8sIHdvcmxkIQ==\r\n";
    DecodedMail base64 =
        decoder.decode(
            ("Subject: a\r\nContent-Transfer-Encoding: base64\r\n" + body)
                .getBytes(StandardCharsets.US_ASCII));
    DecodedMail plain =
        decoder.decode(
            ("Subject: b\r\nContent-Transfer-Encoding: 7bit\r\n" + body)
                .getBytes(StandardCharsets.US_ASCII));
    assertThat(base64.text()).contains("Hello, world!");
    assertThat(plain.text()).contains("SGVsbG8sIHdvcmxkIQ==");
    assertThat(decoder.reusedBodies()).isZero();

    DecodedMail again =
        decoder.decode(
            ("Subject: c\r\nContent-Transfer-Encoding: base64\r\n" + body)
                .getBytes(StandardCharsets.US_ASCII));
    assertThat(again.subject()).isEqualTo("c");
    assertThat(again.text()).isEqualTo(base64.text());
    assertThat(decoder.reusedBodies()).isEqualTo(1);
  }

  @Test
  void aBodyWithNoBlankLineBeforeItIsNeitherKeptNorTakenFromAnother() {
    MailDecoder decoder = MailDecoder.withDefaults();
    String tail = "\n\nthe same last line\n";
    DecodedMail first =
        decoder.decode(("Subject: a\nfirst line of a" + tail).getBytes(StandardCharsets.US_ASCII));
    DecodedMail second =
        decoder.decode(("Subject: b\nfirst line of b" + tail).getBytes(StandardCharsets.US_ASCII));
    DecodedMail wellFormed =
        decoder.decode(("Subject: c" + tail).getBytes(StandardCharsets.US_ASCII));

    assertThat(first.text()).isEqualTo("first line of a" + tail);
    assertThat(second.text()).isEqualTo("first line of b" + tail);
    assertThat(wellFormed.text()).isEqualTo("the same last line\n");
    assertThat(decoder.reusedBodies()).isZero();
  }

  static IntStream seeds() {
    return IntStream.range(0, SEEDS);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void copiesOfMutatedMessagesDecodeAsAFreshDecoderDecodesThem(int seed) {
    Random random = new Random(seed);
    MailDecoder decoder = MailDecoder.withDefaults();
    for (byte[] original : MimeCorpus.messages()) {
      byte[] raw = MailDecoderMutationTest.mutate(original, random);
      decoder.decode(raw);
      // a copy, and a copy of another mutation of the same message (often the same body)
      for (byte[] copy :
          new byte[][] {
            copyOf(raw, seed), copyOf(MailDecoderMutationTest.mutate(original, random), seed)
          }) {
        assertThat(decoder.decode(copy))
            .as("seed %d", seed)
            .isEqualTo(MailDecoder.withDefaults().decode(copy));
      }
    }
  }
}
