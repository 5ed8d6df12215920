package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The dictionary life cycle of {@link ZstdCodec#adaptive} and {@link DictionaryTrainer}. */
class AdaptiveZstdCodecTest {
  private static final DictionaryTrainer.Policy SMALL =
      new DictionaryTrainer.Policy(16 << 10, 200, 300, 2 << 20, 8 << 10, 3);

  @Test
  void startsPlainTrainsThenKeepsDecodingEveryBody() {
    ZstdCodec codec = ZstdCodec.adaptive(3, SMALL, Runnable::run);
    Random random = new Random(1);
    List<byte[]> raws = new ArrayList<>();
    List<byte[]> stored = new ArrayList<>();
    for (int i = 0; i < 1_500; i++) {
      byte[] raw = TestMail.message(random, 50 + random.nextInt(300));
      raws.add(raw);
      stored.add(codec.encode(raw));
    }
    // trained after bodies 200, 500 and 800; then stops at maxDictionaries = 3
    assertThat(TestMail.dictionaryId(stored.get(0))).isZero();
    assertThat(TestMail.dictionaryId(stored.get(199))).isZero();
    assertThat(TestMail.dictionaryId(stored.get(200))).isEqualTo(1);
    assertThat(TestMail.dictionaryId(stored.get(499))).isEqualTo(1);
    assertThat(TestMail.dictionaryId(stored.get(500))).isEqualTo(2);
    assertThat(TestMail.dictionaryId(stored.get(800))).isEqualTo(3);
    assertThat(TestMail.dictionaryId(stored.get(1_499))).isEqualTo(3);
    assertThat(codec.dictionaryCount()).isEqualTo(3);
    assertThat(codec.trainer().reservoirBytes()).as("released after the last training").isZero();
    assertThat(codec.trainer().lastFailure()).isNull();
    for (int i = 0; i < raws.size(); i++) {
      assertThat(codec.decode(stored.get(i))).as("body %d", i).isEqualTo(raws.get(i));
    }
  }

  @Test
  void copiesStoredAsSplicesAreNotSampledForTrainingButOtherBodiesAre() {
    ZstdCodec codec = ZstdCodec.adaptive(3, SMALL, Runnable::run);
    Random random = new Random(3);
    byte[] base = TestMail.message(random, 200);
    for (int i = 0; i < 1_000; i++) {
      byte[] copy = base.clone();
      copy[base.length / 2] = (byte) ('a' + i % 26); // one changed byte: a splice
      assertThat(codec.encodeAgainst(copy, base)[0]).isEqualTo(StoredForm.SPLICE);
    }
    assertThat(codec.dictionaryCount()).as("splices set off no training").isZero();
    assertThat(codec.trainer().reservoirBytes()).isZero();
    for (int i = 0; i < 200; i++) {
      byte[] other = TestMail.message(random, 200); // too unlike the base for a splice
      assertThat(codec.encodeAgainst(other, base)[0]).isEqualTo(StoredForm.ZSTD_AGAINST);
    }
    assertThat(codec.dictionaryCount()).as("trained after 200 bodies compressed").isEqualTo(1);
  }

  @Test
  void trainedDictionaryShrinksSmallMail() {
    ZstdCodec adaptive = ZstdCodec.adaptive(3, SMALL, Runnable::run);
    ZstdCodec plain = ZstdCodec.plain(3);
    Random random = new Random(2);
    for (int i = 0; i < 200; i++) {
      adaptive.encode(TestMail.message(random, 50 + random.nextInt(300)));
    }
    long withDictionary = 0;
    long without = 0;
    for (int i = 0; i < 100; i++) {
      byte[] raw = TestMail.message(random, 50 + random.nextInt(300));
      withDictionary += adaptive.encode(raw).length;
      without += plain.encode(raw).length;
    }
    assertThat(withDictionary).isLessThan(without * 3 / 4);
  }

  @Test
  void reservoirStaysWithinItsBound() {
    DictionaryTrainer.Policy policy =
        new DictionaryTrainer.Policy(16 << 10, 1_000_000, 1_000_000, 100_000, 1_000, 1);
    ZstdCodec codec = ZstdCodec.adaptive(3, policy, Runnable::run);
    Random random = new Random(3);
    for (int i = 0; i < 500; i++) {
      codec.encode(TestMail.message(random, 400)); // each over 1,000 bytes: samples are cut
      assertThat(codec.trainer().reservoirBytes()).isLessThanOrEqualTo(100_000);
    }
    assertThat(codec.trainer().reservoirBytes()).isGreaterThan(99_000);
  }

  @Test
  void failedTrainingIsReportedAndRetriedWhileBodiesStillRoundTrip() {
    DictionaryTrainer.Policy policy =
        new DictionaryTrainer.Policy(16 << 10, 5, 1_000, 1 << 20, 1 << 10, 2);
    ZstdCodec codec = ZstdCodec.adaptive(3, policy, Runnable::run);
    for (int i = 0; i < 12; i++) {
      byte[] raw = {(byte) i}; // too few, too small samples for zstd's trainer
      assertThat(codec.decode(codec.encode(raw))).isEqualTo(raw);
    }
    assertThat(codec.dictionaryCount()).isZero();
    assertThat(codec.trainer().lastFailure()).contains("could not train");
  }

  @Test
  void aBodyIsOnlyReadableByTheCodecHoldingItsDictionary() {
    ZstdCodec writer = ZstdCodec.adaptive(3, SMALL, Runnable::run);
    Random random = new Random(4);
    for (int i = 0; i < 200; i++) {
      writer.encode(TestMail.message(random, 100));
    }
    byte[] stored = writer.encode(TestMail.message(random, 100));
    assertThat(TestMail.dictionaryId(stored)).isEqualTo(1);
    assertThatThrownBy(() -> ZstdCodec.plain(3).decode(stored))
        .isInstanceOf(DamagedBodyException.class)
        .hasMessageContaining("dictionary 1");
  }

  @Test
  void trainingOnAnotherThreadRacesSafelyWithEncoding() throws Exception {
    ExecutorService trainer = Executors.newSingleThreadExecutor();
    ExecutorService writers = Executors.newFixedThreadPool(3);
    try {
      ZstdCodec codec = ZstdCodec.adaptive(3, SMALL, trainer);
      List<java.util.concurrent.Future<?>> tasks = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        long seed = t;
        tasks.add(
            writers.submit(
                () -> {
                  Random random = new Random(seed);
                  List<byte[]> raws = new ArrayList<>();
                  List<byte[]> stored = new ArrayList<>();
                  for (int i = 0; i < 600; i++) {
                    byte[] raw = TestMail.message(random, 50 + random.nextInt(300));
                    raws.add(raw);
                    stored.add(codec.encode(raw));
                  }
                  for (int i = 0; i < raws.size(); i++) {
                    assertThat(codec.decode(stored.get(i))).isEqualTo(raws.get(i));
                  }
                }));
      }
      for (java.util.concurrent.Future<?> task : tasks) {
        task.get();
      }
      trainer.shutdown();
      assertThat(trainer.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      assertThat(codec.dictionaryCount()).isBetween(1, 3);
    } finally {
      trainer.shutdownNow();
      writers.shutdownNow();
    }
  }
}
