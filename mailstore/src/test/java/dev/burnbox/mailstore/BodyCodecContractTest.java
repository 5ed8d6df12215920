package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.github.luben.zstd.Zstd;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@link BodyCodec} contract, one test body crossed with every codec of the package. */
class BodyCodecContractTest {

  /** Every codec, fresh per test; dictionary codecs already hold a dictionary. */
  static Stream<Named<Supplier<BodyCodec>>> codecs() {
    return Stream.of(
        Named.of("deflate-1", () -> new DeflateCodec(1)),
        Named.of("deflate-6", () -> new DeflateCodec(6)),
        Named.of("zstd-1", () -> ZstdCodec.plain(1)),
        Named.of("zstd-3", () -> ZstdCodec.plain(3)),
        Named.of("zstd-3+dict", () -> ZstdCodec.withDictionary(3, dictionary(), 2)),
        Named.of(
            "zstd-3+dict per-call contexts", () -> ZstdCodec.withDictionary(3, dictionary(), 0)),
        Named.of("zstd-3+trained", BodyCodecContractTest::trainedAdaptive));
  }

  private static byte[] dictionary() {
    Random random = new Random(7);
    byte[][] samples = new byte[300][];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = TestMail.message(random, 50 + random.nextInt(200));
    }
    byte[] buffer = new byte[16 << 10];
    long size = Zstd.trainFromBuffer(samples, buffer, false);
    assertThat(Zstd.isError(size)).as("training").isFalse();
    return Arrays.copyOf(buffer, (int) size);
  }

  private static BodyCodec trainedAdaptive() {
    ZstdCodec codec =
        ZstdCodec.adaptive(
            3,
            new DictionaryTrainer.Policy(16 << 10, 300, 1_000_000, 4 << 20, 8 << 10, 4),
            Runnable::run);
    Random random = new Random(11);
    for (int i = 0; i < 300; i++) {
      codec.encode(TestMail.message(random, 50 + random.nextInt(200)));
    }
    assertThat(codec.dictionaryCount()).as("trained after 300 bodies").isEqualTo(1);
    return codec;
  }

  private static void assertRoundTrip(BodyCodec codec, byte[] raw) {
    byte[] copy = raw.clone();
    byte[] stored = codec.encode(raw);
    assertThat(raw).as("encode leaves its input alone").isEqualTo(copy);
    assertThat(codec.decode(stored)).as("%s, %d bytes", codec.name(), raw.length).isEqualTo(raw);
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void emptyBodyRoundTrips(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    assertRoundTrip(codec, new byte[0]);
    assertThat(codec.encode(new byte[0]).length).isLessThan(16);
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void randomBytesOfManyLengthsRoundTrip(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    Random random = new Random(42);
    for (int i = 0; i < 300; i++) {
      int length = i < 140 ? i : random.nextInt(i < 280 ? 20_000 : 300_000);
      byte[] raw = new byte[length];
      if (random.nextBoolean()) {
        random.nextBytes(raw); // incompressible
      } else {
        for (int j = 0; j < length; j++) {
          raw[j] = (byte) ('a' + random.nextInt(random.nextInt(26) + 1)); // compressible
        }
      }
      assertRoundTrip(codec, raw);
    }
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void binaryAndEightBitMailRoundTrips(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    byte[] header =
        ("From: a@example.org\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Transfer-Encoding: binary\r\nSubject: =?UTF-8?B?w6nDqMOg?= é\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8);
    byte[] raw = new byte[header.length + 256 * 40 + 3];
    System.arraycopy(header, 0, raw, 0, header.length);
    for (int i = 0; i < 256 * 40; i++) {
      raw[header.length + i] = (byte) (i * 31 + i / 256); // every byte value, NULs, bare CR/LF
    }
    raw[raw.length - 3] = '\r';
    raw[raw.length - 2] = 0;
    raw[raw.length - 1] = (byte) 0xFF;
    assertRoundTrip(codec, raw);
    assertRoundTrip(
        codec, "Subject: Grüße, 日本語, 😀\n\nnaïve café\n".getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void largeMessagesRoundTrip(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    Random random = new Random(3);
    byte[] large = new byte[12 << 20]; // text with a random (incompressible) attachment
    int pos = 0;
    while (pos < large.length / 2) {
      byte[] mail = TestMail.message(random, 500);
      int n = Math.min(mail.length, large.length / 2 - pos);
      System.arraycopy(mail, 0, large, pos, n);
      pos += n;
    }
    byte[] attachment = new byte[large.length - pos];
    random.nextBytes(attachment);
    System.arraycopy(attachment, 0, large, pos, attachment.length);
    assertRoundTrip(codec, large);
    assertRoundTrip(codec, new byte[20 << 20]); // 20 MiB of zeros: a very high ratio
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void mailCompressesAndRoundTrips(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    Random random = new Random(5);
    long raw = 0;
    long stored = 0;
    for (int i = 0; i < 200; i++) {
      byte[] mail = TestMail.message(random, 100 + random.nextInt(400));
      byte[] form = codec.encode(mail);
      assertThat(codec.decode(form)).isEqualTo(mail);
      raw += mail.length;
      stored += form.length;
    }
    assertThat((double) raw / stored).as("%s ratio", codec.name()).isGreaterThan(2.0);
  }

  /**
   * A codec's form for mail at rest, where it has one, decodes to the same bytes, says it is at
   * rest, is not larger in total than the intake form, and damaged copies of it still throw.
   */
  @ParameterizedTest
  @MethodSource("codecs")
  void theFormAtRestRoundTripsAndIsNoLarger(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    Random random = new Random(6);
    long intake = 0;
    long atRest = 0;
    for (int i = 0; i < 100; i++) {
      byte[] mail = TestMail.message(random, 100 + random.nextInt(2000));
      byte[] form = codec.encode(mail);
      byte[] rest = codec.encodeAtRest(mail);
      assertThat(codec.isAtRest(form)).isFalse();
      if (rest == null) {
        continue;
      }
      assertThat(codec.isAtRest(rest)).isTrue();
      assertThat(codec.decode(rest)).isEqualTo(mail);
      byte[] damaged = rest.clone();
      damaged[damaged.length - 1] ^= 0x10;
      assertThatThrownBy(() -> codec.decode(damaged)).isInstanceOf(DamagedBodyException.class);
      intake += form.length;
      atRest += rest.length;
    }
    boolean hasRestForm = codec.encodeAtRest(new byte[10]) != null;
    assertThat(hasRestForm).isEqualTo(codec instanceof ZstdCodec);
    assertThat(atRest).as("%s at rest against at intake", codec.name()).isLessThanOrEqualTo(intake);
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void everyTruncationThrows(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    byte[] raw = TestMail.message(new Random(9), 300);
    byte[] stored = codec.encode(raw);
    for (int length = 0; length < stored.length; length++) {
      byte[] cut = Arrays.copyOf(stored, length);
      assertThatThrownBy(() -> codec.decode(cut))
          .as("cut to %d of %d bytes", length, stored.length)
          .isInstanceOf(DamagedBodyException.class)
          .hasMessageContaining(codec.name().substring(0, 4));
    }
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void damagedBytesThrowOrDecodeExactly(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    Random random = new Random(13);
    int thrown = 0;
    for (int trial = 0; trial < 2_000; trial++) {
      byte[] raw = TestMail.message(random, 20 + random.nextInt(400));
      byte[] stored = codec.encode(raw);
      byte[] damaged = stored.clone();
      int changes = 1 + random.nextInt(3);
      for (int c = 0; c < changes; c++) {
        if (random.nextInt(4) == 0) {
          damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
        } else {
          damaged[random.nextInt(damaged.length)] ^= (byte) (1 << random.nextInt(8));
        }
      }
      if (random.nextInt(10) == 0) {
        damaged = Arrays.copyOf(damaged, damaged.length + 1 + random.nextInt(8)); // trailing bytes
      }
      byte[] decoded;
      try {
        decoded = codec.decode(damaged);
      } catch (DamagedBodyException e) {
        thrown++;
        continue;
      } catch (RuntimeException | OutOfMemoryError e) {
        throw new AssertionError("trial " + trial + ": not a DamagedBodyException", e);
      }
      if (!Arrays.equals(decoded, raw)) {
        fail("trial %d: %s returned wrong bytes for a damaged body", trial, codec.name());
      }
    }
    assertThat(thrown).as("damage detected").isGreaterThan(1_900);
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void aNearDuplicateEncodedAgainstItsReferenceRoundTripsAndCostsWhatDiffers(
      Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    Random random = new Random(17);
    for (int trial = 0; trial < 200; trial++) {
      byte[] reference = TestMail.message(random, 50 + random.nextInt(600));
      byte[] raw = reference.clone();
      raw[random.nextInt(raw.length)] = '#'; // a near-duplicate: one byte differs
      byte[] referenceCopy = reference.clone();
      byte[] stored = codec.encodeAgainst(raw, reference);
      if (!codec.encodesAgainstReferences()) {
        assertThat(stored).isNull();
        assertThatThrownBy(() -> codec.decodeAgainst(codec.encode(raw), reference))
            .isInstanceOf(DamagedBodyException.class);
        return;
      }
      assertThat(reference).as("the reference is left alone").isEqualTo(referenceCopy);
      assertThat(stored.length).as("trial %d", trial).isLessThan(100);
      assertThat(codec.decodeAgainst(stored, reference)).isEqualTo(raw);
      byte[] damaged = stored.clone();
      damaged[1 + random.nextInt(damaged.length - 1)] ^= (byte) (1 << random.nextInt(8));
      try {
        assertThat(codec.decodeAgainst(damaged, reference)).isEqualTo(raw);
      } catch (DamagedBodyException expected) {
        // damage is detected, or it changed nothing
      }
      assertThatThrownBy(() -> codec.decode(stored))
          .as("not a plain stored form")
          .isInstanceOf(DamagedBodyException.class);
      byte[] otherReference = TestMail.message(random, 50 + random.nextInt(600));
      assertThatThrownBy(() -> codec.decodeAgainst(stored, otherReference))
          .as("another reference fails the checksum")
          .isInstanceOf(DamagedBodyException.class);
    }
  }

  /**
   * A codec's form at rest for a near-duplicate, where it has one, decodes against the same
   * reference, says it is at rest, and is not larger in total than the intake's frames; a splice
   * counts as at rest already.
   */
  @ParameterizedTest
  @MethodSource("codecs")
  void theFormAtRestAgainstAReferenceRoundTripsAndIsNoLarger(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    Random random = new Random(19);
    long intake = 0;
    long atRest = 0;
    for (int trial = 0; trial < 50; trial++) {
      byte[] reference = TestMail.message(random, 1000 + random.nextInt(3000));
      byte[] raw = reference.clone();
      for (int i = 0; i < 30; i++) { // too many edits for a splice
        raw[random.nextInt(raw.length)] = (byte) ('a' + random.nextInt(26));
      }
      byte[] rest = codec.encodeAgainstAtRest(raw, reference);
      if (!(codec instanceof ZstdCodec)) {
        assertThat(rest).isNull();
        return;
      }
      byte[] form = codec.encodeAgainst(raw, reference);
      assertThat(codec.isAtRest(form)).isFalse();
      assertThat(codec.isAtRest(rest)).isTrue();
      assertThat(codec.decodeAgainst(rest, reference)).isEqualTo(raw);
      byte[] otherReference = TestMail.message(random, 500);
      assertThatThrownBy(() -> codec.decodeAgainst(rest, otherReference))
          .isInstanceOf(DamagedBodyException.class);
      intake += form.length;
      atRest += rest.length;
    }
    assertThat(atRest).as("at rest against at intake").isLessThanOrEqualTo(intake);
    byte[] reference = TestMail.message(random, 2000);
    byte[] copy = reference.clone();
    copy[100] = '#';
    assertThat(codec.isAtRest(codec.encodeAgainst(copy, reference))).as("a splice").isTrue();
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void aReferenceThatLooksLikeADictionaryIsNotUsed(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    byte[] raw = TestMail.message(new Random(2), 100);
    byte[] lookalike = raw.clone();
    lookalike[0] = 0x37;
    lookalike[1] = (byte) 0xA4;
    lookalike[2] = 0x30;
    lookalike[3] = (byte) 0xEC;
    assertThat(codec.encodeAgainst(raw, lookalike)).isNull();
    assertThat(codec.encodeAgainst(raw, new byte[0])).isNull();
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void anotherCodecsFormIsRejected(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    byte[] raw = TestMail.message(new Random(1), 100);
    BodyCodec other = codec instanceof DeflateCodec ? ZstdCodec.plain(3) : new DeflateCodec(6);
    assertThatThrownBy(() -> codec.decode(other.encode(raw)))
        .isInstanceOf(DamagedBodyException.class)
        .hasMessageContaining("tag");
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void aLengthOverTheLimitIsRejectedBeforeAllocating(Supplier<BodyCodec> codecs) {
    BodyCodec codec = codecs.get();
    byte[] stored = codec.encode(new byte[10]);
    byte tag = stored[0];
    byte[] forged = new byte[16];
    forged[0] = tag;
    StoredForm.writeVarint(forged, 1, Integer.MAX_VALUE);
    assertThatThrownBy(() -> codec.decode(forged))
        .isInstanceOf(DamagedBodyException.class)
        .hasMessageContaining("limit");
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void concurrentCallsRoundTrip(Supplier<BodyCodec> codecs) throws Exception {
    BodyCodec codec = codecs.get();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> tasks = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        long seed = t;
        tasks.add(
            pool.submit(
                () -> {
                  Random random = new Random(seed);
                  for (int i = 0; i < 300; i++) {
                    assertRoundTrip(codec, TestMail.message(random, random.nextInt(600)));
                  }
                }));
      }
      for (Future<?> task : tasks) {
        task.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
