package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.burnbox.mailstore.PieceTable.Piece;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SimilarPiecesTest {
  private static final byte[] NO_METADATA = new byte[0];

  private static Piece piece(byte[] raw) {
    return new Piece(new PieceTable.Part(raw, false, NO_METADATA), new byte[0]);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** {@code raw} with {@code insert} put in at {@code at}. */
  private static byte[] insert(byte[] raw, int at, byte[] insert) {
    byte[] out = new byte[raw.length + insert.length];
    System.arraycopy(raw, 0, out, 0, at);
    System.arraycopy(insert, 0, out, at, insert.length);
    System.arraycopy(raw, at, out, at + insert.length, raw.length - at);
    return out;
  }

  @Test
  void featuresAreSortedDistinctAndFollowTheContentNotItsOffset() {
    byte[] mail = TestMail.message(new Random(1), 800);
    int[] features = SimilarPieces.features(mail, 0, mail.length);
    assertThat(features.length).isBetween(mail.length / SimilarPieces.SAMPLE_EVERY / 3, 256);
    assertThat(features).isSorted().doesNotHaveDuplicates();

    byte[] shifted = insert(mail, 40, ascii("X-Greeting: Dear Jorg, a line to shift the rest\r\n"));
    int[] after = SimilarPieces.features(shifted, 0, shifted.length);
    long shared = Arrays.stream(after).filter(f -> Arrays.binarySearch(features, f) >= 0).count();
    assertThat(shared).as("features shared after a shift").isGreaterThan(features.length * 8 / 10);
  }

  @Test
  void featuresStopAtTheCapForLargeMessages() {
    byte[] large = new byte[1 << 20];
    new Random(2).nextBytes(large);
    assertThat(SimilarPieces.features(large, 0, large.length))
        .hasSizeLessThanOrEqualTo(SimilarPieces.MAX_FEATURES);
    assertThat(SimilarPieces.features(new byte[0], 0, 0)).isEmpty();
  }

  @Test
  void findsTheNearDuplicateAmongUnrelatedMail() {
    SimilarPieces similar = new SimilarPieces(1 << 12, 64);
    Random random = new Random(3);
    Piece campaign = null;
    byte[] campaignRaw = null;
    for (int i = 0; i < 40; i++) {
      byte[] raw = TestMail.message(random, 400);
      Piece p = piece(raw);
      similar.add(p, SimilarPieces.features(raw, 0, raw.length));
      if (i == 17) {
        campaign = p;
        campaignRaw = raw;
      }
    }
    byte[] copy = insert(campaignRaw, campaignRaw.length / 2, ascii("Hello Gina, "));
    assertThat(similar.similarTo(SimilarPieces.features(copy, 0, copy.length))).isSameAs(campaign);

    similar.remove(campaign);
    assertThat(similar.similarTo(SimilarPieces.features(copy, 0, copy.length)))
        .as("a removed piece is never found")
        .isNotSameAs(campaign);
    assertThat(campaign.similarSlot).isEqualTo(-1);
  }

  @Test
  void unrelatedBytesFindNothingAndTheRingForgetsTheOldest() {
    SimilarPieces similar = new SimilarPieces(1 << 10, 4);
    byte[] noise = new byte[6000];
    new Random(4).nextBytes(noise);
    byte[] first = TestMail.message(new Random(5), 400);
    Piece firstPiece = piece(first);
    similar.add(firstPiece, SimilarPieces.features(first, 0, first.length));
    assertThat(similar.similarTo(SimilarPieces.features(noise, 0, noise.length))).isNull();
    assertThat(similar.similarTo(SimilarPieces.features(first, 0, first.length)))
        .isSameAs(firstPiece);

    for (int i = 0; i < 4; i++) { // a ring of 4: the first piece's slot is reused
      byte[] other = new byte[3000];
      new Random(10 + i).nextBytes(other);
      similar.add(piece(other), SimilarPieces.features(other, 0, other.length));
    }
    assertThat(firstPiece.similarSlot).isEqualTo(-1);
    assertThat(similar.similarTo(SimilarPieces.features(first, 0, first.length))).isNull();
  }

  @Test
  void sizesItsTablesToTheBudget() {
    assertThat(SimilarPieces.forBudget(256L << 20).heapBytes()).isBetween(1_000_000L, 1_100_000L);
    assertThat(SimilarPieces.forBudget(64 << 10).heapBytes()).isLessThan(3_000L);
    assertThat(SimilarPieces.forBudget(1L << 40).heapBytes())
        .isEqualTo(SimilarPieces.forBudget(256L << 20).heapBytes());
    assertThatThrownBy(() -> new SimilarPieces(3, 4)).isInstanceOf(IllegalArgumentException.class);
  }
}
