package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link ZstdCodec#encodeAgainst}'s splice form: a copy with one short stretch replaced. */
class ZstdSpliceTest {
  private final ZstdCodec codec = ZstdCodec.plain(3);

  @Test
  void aCopyWithOneShortStretchReplacedIsASpliceThatRoundTrips() {
    Random random = new Random(23);
    for (int trial = 0; trial < 2_000; trial++) {
      byte[] reference = TestMail.message(random, 20 + random.nextInt(400));
      byte[] raw = replaceStretch(random, reference, ZstdCodec.SPLICE_MAX_STRETCH);
      byte[] stored = codec.encodeAgainst(raw, reference);
      assertThat(stored[0]).as("trial %d", trial).isEqualTo(StoredForm.SPLICE);
      assertThat(stored.length).isLessThanOrEqualTo(ZstdCodec.SPLICE_MAX_STRETCH + 16);
      assertThat(codec.decodeAgainst(stored, reference)).as("trial %d", trial).isEqualTo(raw);
    }
  }

  @Test
  void aCopyThatDiffersInMoreThanOneShortStretchIsCompressedAgainstItsReference() {
    Random random = new Random(29);
    for (int trial = 0; trial < 300; trial++) {
      byte[] reference = TestMail.message(random, 100 + random.nextInt(400));
      byte[] raw = reference.clone();
      // two changed bytes further apart than the longest stretch a splice keeps
      int first = random.nextInt(raw.length - ZstdCodec.SPLICE_MAX_STRETCH - 2);
      raw[first] ^= 1;
      raw[first + ZstdCodec.SPLICE_MAX_STRETCH + 1] ^= 1;
      byte[] stored = codec.encodeAgainst(raw, reference);
      assertThat(stored[0]).isEqualTo(StoredForm.ZSTD_AGAINST);
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
    byte[] reference = TestMail.message(random, 200);
    byte[] raw = reference.clone();
    raw[raw.length / 2] = '#';
    byte[] stored = codec.encodeAgainst(raw, reference);
    assertThat(stored[0]).isEqualTo(StoredForm.SPLICE);

    byte[] sameLengthOtherReference = reference.clone();
    sameLengthOtherReference[3] ^= 1; // inside the prefix the splice keeps
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
