package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;

/**
 * Checks that {@link StoreStats#storedBytes()}, the memory backend's estimate that the byte budget
 * bounds, is not below the heap the store really retains (measured with JOL) for mail of several
 * shapes, with bodies kept as they are (identity: the index estimate alone) and with the default
 * codec (compressed bodies, plus the dictionary trainer's reservoir, which the budget counts whole
 * from the start while it fills as mail arrives). The estimate may be larger: the budget then errs
 * on the safe side.
 */
class MemoryFootprintTest {

  @BeforeAll
  static void letJolReadRecordFields() {
    // JOL cannot read record field offsets through Unsafe on recent JDKs without this
    if (System.getProperty("jol.magicFieldOffset") == null) {
      System.setProperty("jol.magicFieldOffset", "true");
    }
  }

  @ParameterizedTest(name = "body {0} B, up to {1} recipients, rich metadata {2}, identity {3}")
  @CsvSource({
    "0, 1, false, true",
    "0, 3, true, true",
    "100, 1, true, true",
    "2000, 3, false, true",
    "0, 3, true, false",
    "2000, 3, false, false"
  })
  void estimateIsNotBelowTheMeasuredHeap(
      int bodySize, int maxRecipients, boolean rich, boolean identity) {
    InboxStore.Builder builder = InboxStore.memory().inboxCap(1000);
    if (identity) {
      builder.codec(BodyCodec.identity());
    }
    InboxStore empty = builder.build(); // the same fixed tables as the store measured
    InboxStore store = builder.build();
    long reserved = store.stats().storedBytes(); // the codec's own, counted before any mail
    Random random = new Random(bodySize);
    for (int i = 0; i < 900; i++) { // under the 1,000 bodies that start dictionary training
      byte[] raw = new byte[bodySize];
      random.nextBytes(raw);
      raw =
          (i + ":" + new String(raw, java.nio.charset.StandardCharsets.ISO_8859_1))
              .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1); // distinct bodies
      List<InboxName> to = new ArrayList<>();
      for (int k = 0, n = 1 + random.nextInt(maxRecipients); k < n; k++) {
        to.add(InboxName.of("u" + random.nextInt(300) + (k == 0 ? "" : "+t" + k)));
      }
      IncomingMessage m =
          rich
              ? new IncomingMessage(
                  raw,
                  "bounce-" + i + "@spammer.example",
                  to,
                  Instant.ofEpochSecond(1_700_000_000L + i),
                  "\"Best Deals\" <deals@spammer.example>",
                  "Cheap offer " + random.nextInt(1_000_000) + " just for you",
                  SpamVerdict.ofScore(List.of("cheap", "offer"), 2.5))
              : new IncomingMessage(
                  raw, "", to, Instant.ofEpochSecond(i), "", "", SpamVerdict.CLEAN);
      assertThat(store.deliver(m).isDelivered()).isTrue();
    }
    long measured =
        GraphLayout.parseInstance(store).totalSize() - GraphLayout.parseInstance(empty).totalSize();
    long estimated = store.stats().storedBytes();
    assertThat(estimated)
        .as("estimate %d vs measured %d bytes", estimated, measured)
        .isGreaterThanOrEqualTo(measured)
        .isLessThan(measured * 2 + reserved);
  }

  /**
   * The overheads the budget counts per piece, per delta and per delivery cover the objects as this
   * JVM lays them out: an entry's and a delivery's exactly, a piece's to within its stored array's
   * padding.
   */
  @Test
  void overheadsCoverTheObjectsAsLaidOut() throws ClassNotFoundException {
    PieceTable table = new PieceTable(SimilarPieces.forBudget(1 << 20));
    byte[] metadata = PackedStrings.pack(List.of("sender@example.org", "From", "Subject"));
    PieceTable.Part alone = new PieceTable.Part(new byte[] {1, 2, 3}, true, metadata);
    alone.stored = new byte[] {1, 2, 3};
    PieceTable.Piece piece = table.add(alone);
    byte[] delta = {4};
    Class<?> copy = Class.forName(MemoryInboxStore.class.getName() + "$Copy");
    Class<?> delivery = Class.forName(MemoryInboxStore.class.getName() + "$Delivery");
    long ringSlots = 2L * 4; // an inbox's ring holds at most two compressed references an entry

    long pieceOnHeap =
        VM.current().sizeOf(piece)
            + VM.current().sizeOf(piece.stored)
            + VM.current().sizeOf(metadata);
    // at most the stored array's padding over: an estimate that counts a field too many fails
    assertThat(piece.cost()).isBetween(pieceOnHeap, pieceOnHeap + 7);
    assertThat(PieceTable.arrayBytes(metadata)).isEqualTo(VM.current().sizeOf(metadata));
    assertThat((long) PieceTable.DELTA_OVERHEAD + delta.length)
        .isGreaterThanOrEqualTo(VM.current().sizeOf(delta));
    // exact: a field added or dropped shows here
    assertThat((long) MemoryInboxStore.ENTRY_OVERHEAD)
        .isEqualTo(ClassLayout.parseClass(copy).instanceSize() + ringSlots);
    assertThat((long) MemoryInboxStore.ENTRY_OVERHEAD + MemoryInboxStore.DELIVERY_OVERHEAD)
        .isEqualTo(ClassLayout.parseClass(delivery).instanceSize() + ringSlots);
  }

  /**
   * An inbox's estimate covers its ring object and its packed name, and once it has held two
   * entries its ring's first array, for names of one character and of the longest, in one byte a
   * character and in two.
   */
  @ParameterizedTest
  @CsvSource({"a, 1", "é, 1", "д, 1", "a, 64", "д, 64"})
  void inboxOverheadCoversTheObjectsAsLaidOut(String letter, int repeat)
      throws ClassNotFoundException {
    InboxName name = InboxName.of(letter.repeat(repeat));
    Class<?> inbox = Class.forName(MemoryInboxStore.class.getName() + "$Inbox");
    byte[] packed = PackedStrings.pack(List.of(name.value()));
    long alone = ClassLayout.parseClass(inbox).instanceSize() + VM.current().sizeOf(packed);
    assertThat(MemoryInboxStore.INBOX_OVERHEAD + PieceTable.arrayBytes(packed))
        .as("inbox %s with one entry", name)
        .isGreaterThanOrEqualTo(alone);
    long ringSlots = 2 * 4; // each of its two entries' share of the array, in ENTRY_OVERHEAD
    assertThat(
            MemoryInboxStore.INBOX_OVERHEAD
                + PieceTable.arrayBytes(packed)
                + MemoryInboxStore.RING_ARRAY_OVERHEAD
                + ringSlots)
        .as("inbox %s with two entries", name)
        .isGreaterThanOrEqualTo(alone + VM.current().sizeOf(new Object[2]));
  }

  /**
   * The same for a campaign's copies, stored as deltas of its first copy (one of three headers
   * differs, as a bulk copy's {@code To:} and {@code Received:} do): each costs a delta's array and
   * its few encoded bytes, and the estimate still covers what the heap holds.
   */
  @Test
  void estimateIsNotBelowTheMeasuredHeapForCopiesStoredAsDeltas() {
    InboxStore.Builder builder = InboxStore.memory().inboxCap(1000);
    InboxStore empty = builder.build();
    MemoryInboxStore store = (MemoryInboxStore) builder.build();
    long reserved = store.stats().storedBytes();
    Random random = new Random(15);
    byte[] campaign = TestMail.message(random, 2000);
    for (int i = 0; i < 900; i++) {
      byte[] header =
          ("Received: by mx.example; id " + i + "\r\nTo: <u" + i + "@example>\r\n")
              .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      byte[] raw = new byte[header.length + campaign.length];
      System.arraycopy(header, 0, raw, 0, header.length);
      System.arraycopy(campaign, 0, raw, header.length, campaign.length);
      IncomingMessage m =
          new IncomingMessage(
              raw,
              "",
              List.of(InboxName.of("u" + i)),
              Instant.ofEpochSecond(i),
              "",
              "",
              SpamVerdict.CLEAN);
      assertThat(store.deliver(m).isDelivered()).isTrue();
    }
    store.checkInvariants();
    StoreStats stats = store.stats();
    assertThat(stats.messageBytes())
        .as("copies stored as deltas of the first")
        .isLessThan(campaign.length + 900L * 100);
    long measured =
        GraphLayout.parseInstance(store).totalSize() - GraphLayout.parseInstance(empty).totalSize();
    assertThat(stats.storedBytes())
        .as("estimate %s vs measured %d bytes", stats, measured)
        .isGreaterThanOrEqualTo(measured)
        .isLessThan(measured * 2 + reserved);
  }

  /**
   * Issue 21's check on the figures a user reads: with the default codec after its dictionary is
   * trained, the documented sum {@code messageBytes + indexBytes + codecBytes} is within 20% of the
   * heap the store really retains (JOL, the store's object graph less an empty store's), and the
   * parts are what their names say.
   */
  @Test
  void theReportedPartsAddUpToWithinAFifthOfTheMeasuredHeap() {
    InboxStore empty = InboxStore.memory().build();
    MemoryInboxStore store =
        (MemoryInboxStore) InboxStore.memory().inboxCap(1000).maxBytes(512L << 20).build();
    Random random = new Random(21);
    long logical = 0;
    for (int i = 0; i < 3000; i++) { // past the 1,000 bodies that train the first dictionary
      byte[] raw = TestMail.message(random, 150 + random.nextInt(600));
      List<InboxName> to = List.of(InboxName.of("user" + random.nextInt(500)));
      IncomingMessage m =
          new IncomingMessage(
              raw,
              "sender" + i + "@example.com",
              to,
              Instant.ofEpochSecond(1_700_000_000L + i),
              "Sender " + i + " <sender" + i + "@example.com>",
              "Subject number " + i,
              SpamVerdict.ofScore(List.of("offer"), 0.5));
      assertThat(store.deliver(m).isDelivered()).isTrue();
      logical += raw.length;
    }
    store.checkInvariants();
    StoreStats stats = store.stats();
    long measured =
        GraphLayout.parseInstance(store).totalSize() - GraphLayout.parseInstance(empty).totalSize();

    assertThat(stats.logicalBytes()).isGreaterThanOrEqualTo(logical);
    assertThat(stats.distinctBytes()).isLessThanOrEqualTo(stats.logicalBytes());
    assertThat(stats.messageBytes()).isLessThan(stats.distinctBytes());
    assertThat(stats.storedBytes())
        .isEqualTo(
            stats.messageBytes() + stats.indexBytes() + stats.cacheBytes() + stats.codecBytes());
    assertThat((double) stats.storedBytes())
        .as("reported %s vs measured %d bytes", stats, measured)
        .isBetween(measured * 0.8, measured * 1.2);
  }
}
