package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.mailstore.PieceTable.Part;
import dev.burnbox.mailstore.PieceTable.Piece;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PieceTableTest {
  private static final byte[] NO_METADATA = new byte[0];

  private static Part part(String body) {
    Part part = new Part(body.getBytes(StandardCharsets.UTF_8), false, NO_METADATA);
    part.stored = part.raw.clone();
    return part;
  }

  /** What the store does with a part to store alone: uses the piece holding it, or adds one. */
  private static Piece acquire(PieceTable table, Part part) {
    Piece held = table.find(part);
    if (held == null) {
      return table.add(part);
    }
    table.use(held);
    return held;
  }

  /**
   * Seeded adds and releases in random order, through the table's doubling and halving: every held
   * piece is found under its hash, no released one is, and the table stays between an eighth and
   * half full with its costs summed right.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void findsExactlyTheHeldPiecesThroughGrowthAndShrinking(long seed) {
    Random random = new Random(seed);
    PieceTable table = new PieceTable(null);
    Map<Piece, Integer> held = new HashMap<>();
    List<Piece> order = new ArrayList<>();
    int dropped = 0;
    for (int step = 0; step < 20_000; step++) {
      boolean grow = step < 10_000 ? random.nextInt(4) != 0 : random.nextInt(4) == 0;
      if (grow || order.isEmpty()) {
        String body = "mail " + random.nextLong();
        Piece p = acquire(table, part(body));
        if (held.merge(p, 1, Integer::sum) == 1) {
          order.add(p);
        }
      } else {
        Piece p = order.get(random.nextInt(order.size()));
        table.release(p);
        if (held.merge(p, -1, Integer::sum) == 0) {
          held.remove(p);
          order.remove(p);
          dropped++;
        }
      }
      if (step % 997 == 0) {
        table.checkInvariants(held, 0, 0, 0);
        assertThat(table.costBytes())
            .isEqualTo(
                table.encodedBytes()
                    + (PieceTable.PIECE_OVERHEAD + PieceTable.arrayBytes(NO_METADATA))
                        * table.size()
                    + (long) PieceTable.SLOT_BYTES * table.capacity());
      }
    }
    table.checkInvariants(held, 0, 0, 0);
    assertThat(table.size()).isEqualTo(held.size());
    for (Piece p : order) {
      assertThat(table.find(part(new String(p.stored, StandardCharsets.UTF_8)))).isSameAs(p);
    }
    assertThat(table.find(part("never stored"))).isNull();
    assertThat(dropped).as("pieces dropped with their last use").isGreaterThan(1000);
    while (!order.isEmpty()) {
      Piece p = order.removeLast();
      for (int uses = held.remove(p); uses > 0; uses--) {
        table.release(p);
      }
    }
    table.checkInvariants(held, 0, 0, 0);
    assertThat(table.capacity()).isEqualTo(PieceTable.MIN_CAPACITY);
  }

  /**
   * A delta is counted but neither found by its hash (an exact resend of it is encoded again) nor
   * held by the table: it costs a delta's overhead and no slot, holds its base while its delivery
   * holds it, and releases the base with it.
   */
  @Test
  void aDeltaHoldsItsBaseAndIsNotFoundByItsHash() {
    PieceTable table = new PieceTable(SimilarPieces.forBudget(1 << 20));
    Part basePart = new Part(ascii("a campaign's first copy, stored alone"), true, NO_METADATA);
    basePart.stored = basePart.raw.clone();
    Piece base = table.add(basePart);
    long aloneCost = table.costBytes();

    Part copyPart =
        new Part(ascii("a campaign's next copy, stored against the first"), true, NO_METADATA);
    copyPart.base = base;
    copyPart.stored = ascii("delta");
    assertThat(table.canStore(copyPart)).isTrue();
    assertThat(table.addDelta(copyPart)).isSameAs(base);
    assertThat(table.addDelta(copyPart)).isSameAs(base);

    assertThat(table.find(copyPart)).isNull();
    assertThat(table.find(basePart)).isSameAs(base);
    assertThat(base.uses).isEqualTo(3);
    assertThat(table.size()).isEqualTo(3);
    assertThat(table.costBytes() - aloneCost)
        .isEqualTo(2L * (PieceTable.DELTA_OVERHEAD + "delta".length()));
    int copyLength = copyPart.length();
    table.checkInvariants(Map.of(base, 3), 2, 2L * copyLength, 2L * "delta".length());
    table.release(base); // the delivery of the first copy goes; its deltas still hold it
    table.releaseDelta(base, copyLength, copyPart.stored);
    assertThat(table.find(basePart)).isSameAs(base);
    table.checkInvariants(Map.of(base, 1), 1, copyLength, "delta".length());
    table.releaseDelta(base, copyLength, copyPart.stored);
    assertThat(table.find(basePart)).isNull();
    assertThat(table.size()).isZero();
    assertThat(table.encodedBytes()).isZero();
    assertThat(table.rawBytes()).isZero();
    assertThat(table.canStore(copyPart)).as("a released base takes no more deltas").isFalse();
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
