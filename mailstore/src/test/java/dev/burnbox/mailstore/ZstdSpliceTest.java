package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link ZstdCodec#encodeAgainst}'s {@link Splice} form: a copy with a few stretches replaced. */
class ZstdSpliceTest {
  private final ZstdCodec codec = ZstdCodec.plain(3);

  @Test
  void aCopyWithOneShortStretchReplacedIsASpliceThatRoundTrips() {
    Random random = new Random(23);
    for (int trial = 0; trial < 2_000; trial++) {
      byte[] reference = TestMail.message(random, 20 + random.nextInt(400));
      byte[] raw = replaceStretch(random, reference, Splice.REACH);
      byte[] stored = codec.encodeAgainst(raw, reference);
      assertThat(stored[0]).as("trial %d", trial).isEqualTo(StoredForm.SPLICE);
      assertThat(stored.length).isLessThanOrEqualTo(Splice.REACH + 16);
      assertThat(codec.decodeAgainst(stored, reference)).as("trial %d", trial).isEqualTo(raw);
    }
  }

  @Test
  void aCopyWithSeveralShortStretchesReplacedIsASpliceThatRoundTrips() {
    Random random = new Random(41);
    for (int trial = 0; trial < 2_000; trial++) {
      byte[] reference = TestMail.message(random, 500 + random.nextInt(3_000));
      byte[] raw = reference;
      int stretches = 1 + random.nextInt(6);
      for (int s = 0; s < stretches; s++) {
        raw = replaceStretch(random, raw, 24);
      }
      byte[] stored = codec.encodeAgainst(raw, reference);
      assertThat(stored[0]).as("trial %d", trial).isEqualTo(StoredForm.SPLICE);
      assertThat(stored.length).as("trial %d", trial).isLessThan(stretches * (24 + 6) + 16);
      assertThat(codec.decodeAgainst(stored, reference)).as("trial %d", trial).isEqualTo(raw);
    }
  }

  @Test
  void copiesOfOneMailWithTheirOwnTraceFieldsDateAndIdAreSplices() {
    byte[] reference = smtpSourceMail("4f3a21c9", "04:19:48", "3999.0003.0001");
    byte[] raw = smtpSourceMail("a01b7e55d2", "04:19:49", "3999.0003.0217");
    byte[] stored = codec.encodeAgainst(raw, reference);
    assertThat(stored[0]).isEqualTo(StoredForm.SPLICE);
    assertThat(stored.length).isLessThan(40);
    assertThat(codec.decodeAgainst(stored, reference)).isEqualTo(raw);
  }

  @Test
  void aCopyThatDiffersInMoreThanASpliceHoldsIsCompressedAgainstItsReference() {
    Random random = new Random(29);
    for (int trial = 0; trial < 300; trial++) {
      byte[] reference = TestMail.message(random, 2_000 + random.nextInt(2_000));
      byte[] raw = reference.clone();
      // single changed bytes far apart: one edit each, more than a splice holds
      for (int at = 7; at < raw.length; at += raw.length / (Splice.MAX_EDITS + 2)) {
        raw[at] ^= 1;
      }
      byte[] stored = codec.encodeAgainst(raw, reference);
      assertThat(stored[0]).isEqualTo(StoredForm.ZSTD_AGAINST);
      assertThat(codec.decodeAgainst(stored, reference)).isEqualTo(raw);
    }
  }

  @Test
  void unrelatedMailIsNoSplice() {
    Random random = new Random(43);
    for (int trial = 0; trial < 300; trial++) {
      byte[] reference = TestMail.message(random, 1_000 + random.nextInt(2_000));
      byte[] raw = TestMail.message(random, 1_000 + random.nextInt(2_000));
      byte[] stored = codec.encodeAgainst(raw, reference);
      assertThat(stored[0]).as("trial %d", trial).isNotEqualTo(StoredForm.SPLICE);
      assertThat(codec.decodeAgainst(stored, reference)).isEqualTo(raw);
    }
  }

  @Test
  void copiesThatAreTheReferenceOrPartOfItAreSplices() {
    byte[] reference = TestMail.message(new Random(31), 200);
    byte[][] raws = {
      reference.clone(),
      Arrays.copyOf(reference, 100), // a prefix of the reference
      Arrays.copyOfRange(reference, 100, reference.length), // a suffix of it
      Arrays.copyOf(reference, reference.length + 50), // the reference and 50 more bytes
      new byte[0]
    };
    for (byte[] raw : raws) {
      byte[] stored = codec.encodeAgainst(raw, reference);
      assertThat(stored[0]).isEqualTo(StoredForm.SPLICE);
      assertThat(codec.decodeAgainst(stored, reference)).isEqualTo(raw);
    }
  }

  @Test
  void aSpliceReadAgainstAnotherReferenceOrDamagedFailsItsChecksum() {
    Random random = new Random(37);
    byte[] reference = TestMail.message(random, 600);
    byte[] raw = reference.clone();
    raw[raw.length / 3] = '#';
    raw[2 * raw.length / 3] = '#';
    byte[] stored = codec.encodeAgainst(raw, reference);
    assertThat(stored[0]).isEqualTo(StoredForm.SPLICE);

    byte[] sameLengthOtherReference = reference.clone();
    sameLengthOtherReference[3] ^= 1; // inside the first stretch the splice keeps
    assertThatThrownBy(() -> codec.decodeAgainst(stored, sameLengthOtherReference))
        .isInstanceOf(DamagedBodyException.class)
        .hasMessageContaining("checksum");
    assertThatThrownBy(() -> codec.decodeAgainst(stored, Arrays.copyOf(reference, 10)))
        .isInstanceOf(DamagedBodyException.class)
        .hasMessageContaining("another reference");
    for (int at = 1; at < stored.length; at++) {
      byte[] damaged = stored.clone();
      damaged[at] ^= 0x10;
      assertThatThrownBy(() -> codec.decodeAgainst(damaged, reference))
          .as("byte %d damaged", at)
          .isInstanceOf(DamagedBodyException.class);
    }
  }

  /** A mail as Postfix's smtp-source sends it, with Burnbox's trace field on top. */
  private static byte[] smtpSourceMail(String id, String time, String messageId) {
    StringBuilder mail =
        new StringBuilder()
            .append("Received: from vm ([127.0.0.1])\r\n\tby bench.test (Burnbox 0.1.0) with ESMTP")
            .append(" id ")
            .append(id)
            .append("\r\n\tfor <sink@bench.test>; Fri, 27 Nov 2026 ")
            .append(time)
            .append(" +0000\r\nFrom: <load@bench.test>\r\nTo: <sink@bench.test>\r\n")
            .append("Date: Fri, 27 Nov 2026 ")
            .append(time)
            .append(" +0000 (UTC)\r\nMessage-Id: <")
            .append(messageId)
            .append("@vm>\r\n\r\n");
    for (int line = 1; line <= 26; line++) {
      mail.append(line).append("X".repeat(78)).append("\r\n");
    }
    return mail.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** {@code reference} with a random stretch replaced by at most {@code max} random bytes. */
  private static byte[] replaceStretch(Random random, byte[] reference, int max) {
    int start = random.nextInt(reference.length + 1);
    int end = Math.min(reference.length, start + random.nextInt(max + 1));
    byte[] stretch = new byte[random.nextInt(max + 1)];
    random.nextBytes(stretch);
    byte[] raw = new byte[start + stretch.length + reference.length - end];
    System.arraycopy(reference, 0, raw, 0, start);
    System.arraycopy(stretch, 0, raw, start, stretch.length);
    System.arraycopy(reference, end, raw, start + stretch.length, reference.length - end);
    return raw;
  }
}
