package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property: for seeded random mutations of every corpus message, decoding never throws, stays
 * within tight limits, and every attachment it lists can be fetched. A failing seed is in the test
 * name: rerun it alone to reproduce.
 */
class MailDecoderMutationTest {
  private static final int SEEDS = 40;
  private static final MimeLimits TIGHT = new MimeLimits(3, 2_000, 12);
  private static final MailDecoder DECODER = new MailDecoder(TIGHT);
  private static final String[] SNIPPETS = {
    "\n--",
    "\n\n",
    "=?utf-8?B?",
    "?=",
    "=\n",
    "Content-Type: multipart/mixed; boundary=\"B1\"\n",
    "--B1\n",
    "--B1--\n",
    "Content-Transfer-Encoding: base64\n",
    "Content-Type: message/rfc822\n\n",
    "charset=\"x-nope\"",
    "\r",
    "\u00ff\u00fe",
    "=E9",
    "filename*0*=utf-8''%FF",
  };

  static IntStream seeds() {
    return IntStream.range(0, SEEDS);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void mutatedMessagesDecodeWithinLimits(int seed) {
    Random random = new Random(seed);
    for (byte[] original : MimeCorpus.messages()) {
      byte[] raw = mutate(original, random);
      DecodedMail mail = DECODER.decode(raw);
      String scan = mail.scanText();

      long parts = TIGHT.maxParts();
      assertThat((long) mail.text().length() + mail.html().length())
          .as("seed %d: decoded text within the byte budget (plus one separator per part)", seed)
          .isLessThanOrEqualTo(TIGHT.maxDecodedBytes() + 2 * parts);
      assertThat(mail.attachments().size()).isLessThanOrEqualTo(TIGHT.maxParts() + 1);
      assertThat(mail.problems()).hasSizeLessThanOrEqualTo(DecodedMailBuilder.MAX_PROBLEMS);
      assertThat(scan).startsWith(mail.subject());
      for (AttachmentInfo info : mail.attachments()) {
        assertThat(DECODER.attachment(raw, info.index()))
            .as("seed %d: attachment %d of %s", seed, info.index(), mail.subject())
            .hasValueSatisfying(a -> assertThat((long) a.content().length).isEqualTo(info.size()));
      }
    }
  }

  /** One to four random edits: byte flips, inserted MIME syntax, deletions, cuts, duplications. */
  static byte[] mutate(byte[] original, Random random) {
    List<Byte> bytes = new ArrayList<>(original.length + 64);
    for (byte b : original) {
      bytes.add(b);
    }
    int edits = 1 + random.nextInt(4);
    for (int e = 0; e < edits && !bytes.isEmpty(); e++) {
      int at = random.nextInt(bytes.size());
      switch (random.nextInt(5)) {
        case 0 -> bytes.set(at, (byte) random.nextInt(256));
        case 1 -> {
          byte[] snippet =
              SNIPPETS[random.nextInt(SNIPPETS.length)].getBytes(StandardCharsets.UTF_8);
          for (int i = snippet.length - 1; i >= 0; i--) {
            bytes.add(at, snippet[i]);
          }
        }
        case 2 -> bytes.subList(at, Math.min(bytes.size(), at + 1 + random.nextInt(40))).clear();
        case 3 -> bytes.subList(at, bytes.size()).clear();
        default -> {
          int end = Math.min(bytes.size(), at + 1 + random.nextInt(200));
          bytes.addAll(at, new ArrayList<>(bytes.subList(at, end)));
        }
      }
    }
    byte[] mutated = new byte[bytes.size()];
    for (int i = 0; i < mutated.length; i++) {
      mutated[i] = bytes.get(i);
    }
    return mutated;
  }
}
