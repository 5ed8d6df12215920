package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.hash.HashCode;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The shared contract, run against the memory backend, plus what only the memory backend says. */
class MemoryInboxStoreTest extends InboxStoreContractTest {

  @Override
  InboxStore newStore(Limits limits, InstantSource clock) {
    return builder(limits, clock).build();
  }

  private static InboxStore.Builder builder(Limits limits, InstantSource clock) {
    return InboxStore.memory()
        .inboxCap(limits.inboxCap())
        .maxBytes(limits.maxBytes())
        .ttl(limits.ttl())
        .stripPlusTags(limits.stripPlusTags())
        .clock(clock);
  }

  /**
   * A store with {@code limits} on the test's clock whose codec is zstd at the recommended level
   * with no dictionary training, so that what it stores is deterministic.
   */
  private MemoryInboxStore zstdStore(Limits limits) {
    return (MemoryInboxStore)
        builder(limits, clock).codec(ZstdCodec.plain(ZstdCodec.RECOMMENDED_LEVEL)).build();
  }

  @Override
  void checkInvariants(InboxStore store) {
    assertThat(store).isInstanceOf(MemoryInboxStore.class);
    ((MemoryInboxStore) store).checkInvariants();
  }

  /** Stores {@code raw} reversed behind a one-byte marker, and counts its calls. */
  static final class CountingCodec implements BodyCodec {
    final AtomicInteger encodes = new AtomicInteger();
    final AtomicInteger decodes = new AtomicInteger();

    @Override
    public byte[] encode(byte[] raw) {
      encodes.incrementAndGet();
      byte[] out = new byte[raw.length + 1];
      out[0] = 'R';
      for (int i = 0; i < raw.length; i++) {
        out[out.length - 1 - i] = raw[i];
      }
      return out;
    }

    @Override
    public byte[] decode(byte[] stored) {
      decodes.incrementAndGet();
      assertThat(stored[0]).isEqualTo((byte) 'R');
      byte[] out = new byte[stored.length - 1];
      for (int i = 0; i < out.length; i++) {
        out[i] = stored[stored.length - 1 - i];
      }
      return out;
    }

    @Override
    public String name() {
      return "reverse";
    }
  }

  @Test
  void buildsWithTheDocumentedDefaults() {
    assertThat(InboxStore.Builder.DEFAULT_INBOX_CAP).isEqualTo(50);
    assertThat(InboxStore.Builder.DEFAULT_MAX_BYTES).isEqualTo(256L * 1024 * 1024);
    assertThat(InboxStore.Builder.DEFAULT_TTL).isEqualTo(Duration.ofHours(24));
    InboxStore store = InboxStore.memory().build();
    assertThat(store.stats().messages()).isZero();
    BodyCodec codec = InboxStore.memory().codec();
    assertThat(codec.name()).isEqualTo("zstd-" + ZstdCodec.INTAKE_LEVEL + "+trained");
    assertThat(codec.retainedBytes()).as("the trainer's reservoir").isEqualTo(8L << 20);
  }

  @Test
  void theCodecsOwnMemoryCountsAgainstTheBudget() {
    InboxStore empty = store(Limits.defaults().withMaxBytes(64 * 1024));
    long emptyTables =
        PieceTable.SLOT_BYTES
            * (EntryIndex.MIN_CAPACITY + ProbeTable.MIN_CAPACITY + PieceTable.MIN_CAPACITY);
    assertThat(empty.stats().storedBytes())
        .as("an eighth for the reservoir, the similarity index and the empty lookup tables")
        .isEqualTo(8 * 1024 + SimilarPieces.forBudget(64 * 1024).heapBytes() + emptyTables);
    assertThat(identityStore(Limits.defaults()).stats().storedBytes()).isEqualTo(emptyTables);

    // a message that fits the budget but not beside the reservoir is refused
    InboxStore store = store(Limits.defaults().withMaxBytes(64 * 1024));
    DeliveryResult refused = store.deliver(message(randomBytes(11, 60 * 1024), "s", "a"));
    assertThat(refused).isInstanceOf(DeliveryResult.Refused.class);
    assertThat(((DeliveryResult.Refused) refused).detail()).contains("codec holds 8192");
  }

  /** A codec whose own memory grows on demand. */
  static final class GrowingCodec implements BodyCodec {
    volatile long retained;

    @Override
    public byte[] encode(byte[] raw) {
      return raw;
    }

    @Override
    public byte[] decode(byte[] stored) {
      return stored;
    }

    @Override
    public String name() {
      return "growing";
    }

    @Override
    public long retainedBytes() {
      return retained;
    }
  }

  @Test
  void whenTheCodecGrowsTheNextDeliveryEvictsTheOldestToMakeRoom() {
    GrowingCodec codec = new GrowingCodec();
    InboxStore store = builder(Limits.defaults().withMaxBytes(100_000), clock).codec(codec).build();
    List<MessageId> ids = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      ids.add(deliverOne(store, message(randomBytes(20 + i, 10_000), "m" + i, "a")));
    }
    assertThat(store.stats().totalEvictions()).isZero();
    codec.retained = 40_000;
    MessageId newest = deliverOne(store, message("small", "b"));
    StoreStats stats = store.stats();
    assertThat(stats.storedBytes()).isLessThanOrEqualTo(100_000);
    assertThat(stats.evictions().get(EvictionCause.MEMORY_BUDGET)).isPositive();
    assertThat(store.get(ids.get(0))).as("oldest first").isEmpty();
    assertThat(store.get(ids.get(7))).isPresent();
    assertThat(store.get(newest)).isPresent();
  }

  @Test
  void builderRefusesLimitsThatMakeNoSense() {
    InboxStore.Builder b = InboxStore.memory();
    assertThatThrownBy(() -> b.inboxCap(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.maxBytes(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.ttl(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.ttl(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.ttl(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> b.clock(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> b.listenerExecutor(null)).isInstanceOf(NullPointerException.class);
  }

  /** A store that keeps bodies as they are, so that sizes follow from raw lengths. */
  private InboxStore identityStore(Limits limits) {
    return builder(limits, clock).codec(BodyCodec.identity()).build();
  }

  @Test
  void storedBytesFollowTheDocumentedOverheadEstimate() {
    InboxStore store = identityStore(Limits.defaults());
    byte[] raw = randomBytes(7, 3000);
    IncomingMessage m =
        new IncomingMessage(
            raw,
            "s@x.org", // 7
            List.of(inbox("a"), inbox("bc")),
            T0,
            "From", // 4
            "Subj", // 4
            SpamVerdict.ofScore(List.of("spam", "ham"), 1)); // 7
    store.deliver(m);
    long expected =
        PieceTable.PIECE_OVERHEAD
            + 3000
            + MemoryInboxStore.DELIVERY_OVERHEAD
            // 5 strings packed (a length byte each and 22 chars: 27 bytes) in an array of 48 bytes,
            // kept by the piece and shared by its delivery
            + 48
            + 2 * MemoryInboxStore.ENTRY_OVERHEAD
            // two inboxes, their names packed in arrays of 24 bytes ("a" and "bc": 16 + 1 + 2, 3)
            + 2 * (MemoryInboxStore.INBOX_OVERHEAD + 24)
            + PieceTable.SLOT_BYTES
                * (EntryIndex.MIN_CAPACITY + ProbeTable.MIN_CAPACITY + PieceTable.MIN_CAPACITY);
    assertThat(store.stats().storedBytes()).isEqualTo(expected);
  }

  @Test
  void aMessageThatFitsExactlyIsDeliveredAndOneByteMoreIsRefused() {
    byte[] raw = randomBytes(8, 1000);
    IncomingMessage m = message(raw, "s", "a");
    InboxStore probe = identityStore(Limits.defaults());
    probe.deliver(m);
    long exact = probe.stats().storedBytes();

    assertThat(identityStore(Limits.defaults().withMaxBytes(exact)).deliver(m).isDelivered())
        .isTrue();
    DeliveryResult refused = identityStore(Limits.defaults().withMaxBytes(exact - 1)).deliver(m);
    assertThat(refused).isInstanceOf(DeliveryResult.Refused.class);
    assertThat(((DeliveryResult.Refused) refused).detail()).contains(Long.toString(exact - 1));
  }

  @Test
  void encodesEachDistinctBodyOnceAndDecodesOnRead() {
    CountingCodec codec = new CountingCodec();
    InboxStore store = builder(Limits.defaults(), clock).codec(codec).build();
    byte[] spam = randomBytes(9, 5000);
    List<MessageId> ids = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      ids.addAll(delivered(store.deliver(message(spam, "spam", "u" + i, "v" + i))).values());
    }
    assertThat(codec.encodes).as("the message, once").hasValue(1);
    assertThat(codec.decodes).as("each resend compared with the piece its hash found").hasValue(99);
    StoreStats stats = store.stats();
    assertThat(stats.messages()).isEqualTo(200);
    assertThat(stats.distinctBytes()).isEqualTo(5000);
    assertThat(store.get(ids.get(150)).orElseThrow().raw()).isEqualTo(spam);
    assertThat(codec.decodes).hasValue(100);
    assertThat(store.list(inbox("u3"), 10, null).messages()).hasSize(1);
    assertThat(codec.decodes).as("listing decodes nothing").hasValue(100);
    ((MemoryInboxStore) store).checkInvariants();
  }

  @Test
  void messagesWhoseHashesCollideAreStoredApartAndReadBackIntact() {
    // every message hashes alike, as a sender who forges murmur3 collisions would make them
    MemoryInboxStore store =
        new MemoryInboxStore(
            builder(Limits.defaults(), clock).codec(ZstdCodec.plain(ZstdCodec.RECOMMENDED_LEVEL)),
            raw -> HashCode.fromBytes(new byte[16]));
    byte[] first = randomBytes(1, 3000);
    byte[] second = first.clone();
    second[1500] ^= 1; // same length, one bit apart
    byte[] third = randomBytes(2, 3000);
    MessageId a = delivered(store.deliver(message(first, "s", "ann"))).get(inbox("ann"));
    MessageId b = delivered(store.deliver(message(second, "s", "bob"))).get(inbox("bob"));
    MessageId c = delivered(store.deliver(message(third, "s", "cy"))).get(inbox("cy"));
    MessageId d = delivered(store.deliver(message(first, "s", "dan"))).get(inbox("dan"));

    assertThat(store.get(a).orElseThrow().raw()).isEqualTo(first);
    assertThat(store.get(b).orElseThrow().raw()).isEqualTo(second);
    assertThat(store.get(c).orElseThrow().raw()).isEqualTo(third);
    assertThat(store.get(d).orElseThrow().raw()).as("an exact resend").isEqualTo(first);
    assertThat(store.stats().distinctBytes())
        .as("the resend shares the first piece")
        .isLessThan(4L * 3000);
    store.checkInvariants();
    store.delete(a);
    assertThat(store.get(d).orElseThrow().raw()).isEqualTo(first);
    store.checkInvariants();
  }

  private static byte[] bulkCopy(String to, byte[] body) {
    byte[] head =
        ("Received: from mx.example.net\r\n\tfor <"
                + to
                + "@burnbox.dev>\r\nTo: "
                + to
                + "@burnbox.dev\r\nMessage-ID: <"
                + to
                + "@example.net>\r\n\r\n")
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] raw = java.util.Arrays.copyOf(head, head.length + body.length);
    System.arraycopy(body, 0, raw, head.length, body.length);
    return raw;
  }

  /**
   * Seeded campaigns of near-duplicates (each copy's greeting and link differ) with deletes, the
   * inbox cap and the byte budget all removing entries: after every step the counts add up (bases
   * held exactly while a piece encoded against them is), and every entry reads back exactly.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void nearDuplicatesStoredAgainstBasesSurviveEveryRemoval(long seed) {
    Random random = new Random(seed);
    MemoryInboxStore store = zstdStore(Limits.defaults().withInboxCap(6).withMaxBytes(48 << 10));
    List<byte[]> campaigns = new ArrayList<>();
    for (int c = 0; c < 8; c++) {
      campaigns.add(TestMail.message(random, 300 + random.nextInt(900)));
    }
    Map<MessageId, byte[]> live = new LinkedHashMap<>(); // deletes go oldest first: seeded
    for (int step = 0; step < 1500; step++) {
      byte[] template = campaigns.get(random.nextInt(campaigns.size()));
      byte[] greeting = ("Dear user" + random.nextInt(100_000) + ",\r\n").getBytes(UTF_8);
      int at = random.nextInt(template.length);
      byte[] raw = Arrays.copyOf(template, template.length + greeting.length);
      System.arraycopy(greeting, 0, raw, at, greeting.length);
      System.arraycopy(template, at, raw, at + greeting.length, template.length - at);
      String subject = "c" + random.nextInt(2); // copies share their base's strings, or not
      live.put(deliverOne(store, message(raw, subject, "box" + random.nextInt(20))), raw);
      if (random.nextInt(5) == 0 && !live.isEmpty()) {
        MessageId victim = live.keySet().iterator().next();
        store.delete(victim);
        live.remove(victim);
      }
      if (step % 50 == 0) {
        store.checkInvariants();
      }
    }
    store.checkInvariants();
    int present = 0;
    for (Map.Entry<MessageId, byte[]> e : live.entrySet()) {
      Optional<StoredMessage> m = store.get(e.getKey());
      if (m.isPresent()) {
        assertThat(m.get().raw()).isEqualTo(e.getValue());
        present++;
      }
    }
    StoreStats stats = store.stats();
    assertThat(present).isEqualTo(stats.messages()).isGreaterThan(20);
    assertThat(stats.evictions().get(EvictionCause.MEMORY_BUDGET)).isPositive();
    assertThat(stats.evictions().get(EvictionCause.INBOX_CAP)).isPositive();
    assertThat(stats.messageBytes())
        .as("near-duplicates cost what differs")
        .isLessThan(stats.distinctBytes() / 5);
  }

  @Test
  void bulkCopiesDifferingInTheirHeadersAreStoredAsWhatDiffersFromTheFirst() {
    InboxStore store = store(Limits.defaults());
    byte[] body = randomBytes(12, 8000); // incompressible: alone, every copy costs its size
    List<byte[]> raws = new ArrayList<>();
    List<MessageId> ids = new ArrayList<>();
    long rawBytes = 0;
    for (int i = 0; i < 50; i++) {
      byte[] raw = bulkCopy("user" + i, body);
      raws.add(raw);
      rawBytes += raw.length;
      ids.add(deliverOne(store, message(raw, "bulk", "user" + i)));
    }
    StoreStats stats = store.stats();
    assertThat(stats.distinctBytes()).as("50 distinct messages").isEqualTo(rawBytes);
    assertThat(stats.messageBytes())
        .as("the first alone, 49 copies against it")
        .isBetween((long) body.length, body.length + 49 * 200L);
    for (int i = 0; i < 50; i++) {
      assertThat(store.get(ids.get(i)).orElseThrow().raw()).isEqualTo(raws.get(i));
    }
    ((MemoryInboxStore) store).checkInvariants();

    for (int i = 0; i < 49; i++) { // the first copy's entry goes; its bytes stay for the last
      store.delete(ids.get(i));
    }
    assertThat(store.get(ids.get(49)).orElseThrow().raw()).isEqualTo(raws.get(49));
    assertThat(store.stats().distinctBytes())
        .as("the last copy and the first, which it is stored against")
        .isEqualTo(raws.get(0).length + raws.get(49).length);
    ((MemoryInboxStore) store).checkInvariants();

    assertThat(((MemoryInboxStore) store).decodedBasesCached()).as("the first, read").isOne();
    store.delete(ids.get(49));
    assertThat(store.stats().distinctBytes()).as("freed with the last use").isZero();
    assertThat(((MemoryInboxStore) store).decodedBasesCached()).as("and uncached").isZero();
    assertThat(store.stats().messageBytes()).isZero();
    ((MemoryInboxStore) store).checkInvariants();
  }

  /**
   * Settling re-encodes every message once, oldest first, in the codec's form at rest: fewer
   * message bytes, the same bytes read back, the counts still add up; then nothing is left until
   * more mail arrives, and only that mail is looked at.
   */
  @Test
  void settlingStoresTheSameMailInFewerBytesAndLooksAtEachMessageOnce() {
    MemoryInboxStore store = zstdStore(Limits.defaults().withInboxCap(1000));
    Random random = new Random(15);
    Map<MessageId, byte[]> sent = new LinkedHashMap<>();
    for (int i = 0; i < 200; i++) {
      byte[] raw = TestMail.message(random, 500 + random.nextInt(3000));
      sent.put(deliverOne(store, message(raw, "m" + i, "box" + random.nextInt(30))), raw);
    }
    long before = store.stats().messageBytes();

    assertThat(store.settle(150)).isEqualTo(150);
    store.checkInvariants();
    assertThat(store.settle(1000)).isEqualTo(50);
    assertThat(store.settle(1000)).as("nothing left to look at").isZero();

    long after = store.stats().messageBytes();
    assertThat(after).isLessThan(before);
    store.checkInvariants();
    for (Map.Entry<MessageId, byte[]> e : sent.entrySet()) {
      assertThat(store.get(e.getKey()).orElseThrow().raw()).isEqualTo(e.getValue());
    }
    for (int i = 0; i < 5; i++) {
      deliverOne(store, message(TestMail.message(random, 800), "late" + i, "late"));
    }
    assertThat(store.settle(1000)).as("only the mail delivered since").isEqualTo(5);
    byte[] large = TestMail.message(random, MemoryInboxStore.SETTLE_MAX_RAW_BYTES / 4);
    assertThat(large.length).isGreaterThan(MemoryInboxStore.SETTLE_MAX_RAW_BYTES);
    deliverOne(store, message(large, "large", "late"));
    long beforeLarge = store.stats().messageBytes();
    assertThat(store.settle(1000)).as("looked at").isEqualTo(1);
    assertThat(store.stats().messageBytes())
        .as("a message over the size settled is left as it is")
        .isEqualTo(beforeLarge);
    assertThat(InboxStore.memory().codec(BodyCodec.identity()).build().settle(10))
        .as("a codec without a form at rest")
        .isZero();
  }

  /**
   * A message stored against a base is settled too, against the same base: fewer bytes than its
   * intake form, read back exactly, and its base still held while it is.
   */
  @Test
  void settlingReencodesAMessageStoredAgainstItsBase() {
    ZstdCodec zstd = ZstdCodec.plain(ZstdCodec.RECOMMENDED_LEVEL);
    MemoryInboxStore store = zstdStore(Limits.defaults().withInboxCap(1000));
    Random random = new Random(17);
    byte[] base = TestMail.message(random, 6000);
    byte[] near = base.clone();
    for (int i = 0; i < 40; i++) { // too many edits for a splice: a zstd frame against the base
      near[random.nextInt(near.length)] = (byte) ('a' + random.nextInt(26));
    }
    deliverOne(store, message(base, "base", "a"));
    long baseBytes = store.stats().messageBytes();
    MessageId nearId = deliverOne(store, message(near, "near", "b"));
    long deltaBytes = store.stats().messageBytes() - baseBytes;
    assertThat(deltaBytes).as("stored against the base").isLessThan(zstd.encode(near).length / 2);

    assertThat(store.settle(10)).isEqualTo(2);

    long baseSaving = zstd.encode(base).length - zstd.encodeAtRest(base).length;
    assertThat(store.stats().messageBytes())
        .as("the base and the delta both smaller")
        .isLessThan(baseBytes + deltaBytes - baseSaving);
    assertThat(store.get(nearId).orElseThrow().raw()).isEqualTo(near);
    store.checkInvariants();
    long settled = store.stats().messageBytes();
    assertThat(store.settle(10)).as("looked at each once").isZero();
    assertThat(store.stats().messageBytes()).isEqualTo(settled);
  }

  /**
   * A campaign's copies, each its own delivery, keep their sender, from, subject and verdict terms
   * in the array their base's piece keeps and counts once; a copy whose subject differs keeps and
   * counts its own. Each reads back its own, also once the copy that stored the base is gone.
   */
  @Test
  void copiesShareTheirBasesStringsWhenTheyAreEqual() {
    MemoryInboxStore store = zstdStore(Limits.defaults().withInboxCap(1000));
    byte[] body = TestMail.message(new Random(23), 3000);
    MessageId first = deliverOne(store, message(bulkCopy("a", body), "Your order", "a"));
    long indexBefore = store.stats().indexBytes();
    MessageId same = deliverOne(store, message(bulkCopy("b", body), "Your order", "b"));
    long sameCost = store.stats().indexBytes() - indexBefore;
    indexBefore = store.stats().indexBytes();
    MessageId other = deliverOne(store, message(bulkCopy("c", body), "Your invoice", "c"));
    long otherCost = store.stats().indexBytes() - indexBefore;

    byte[] otherStrings =
        PackedStrings.pack(
            List.of("sender@example.net", "Sender <sender@example.net>", "Your invoice"));
    assertThat(otherCost - sameCost)
        .as("only the copy with another subject counts its strings")
        .isEqualTo(PieceTable.arrayBytes(otherStrings));
    store.delete(first);
    store.checkInvariants();
    assertThat(store.get(same).orElseThrow().summary().subject()).isEqualTo("Your order");
    assertThat(store.get(other).orElseThrow().summary().subject()).isEqualTo("Your invoice");
    assertThat(store.list(inbox("b"), 10, null).messages().getFirst().subject())
        .isEqualTo("Your order");
    store.delete(same);
    store.delete(other);
    store.checkInvariants();
    assertThat(store.stats().indexBytes())
        .as("the base's strings go with it")
        .isEqualTo(zstdStore(Limits.defaults().withInboxCap(1000)).stats().indexBytes());
  }

  /** A stored message that no longer decodes is passed over; the messages after it settle. */
  @Test
  void settlingPassesOverADamagedMessageAndGoesOn() {
    ZstdCodec zstd = ZstdCodec.plain(ZstdCodec.RECOMMENDED_LEVEL);
    BodyCodec damagesOne =
        new BodyCodec() {
          @Override
          public byte[] encode(byte[] raw) {
            return zstd.encode(raw);
          }

          @Override
          public byte[] decode(byte[] stored) {
            byte[] raw = zstd.decode(stored);
            if (new String(raw, UTF_8).contains("damaged")) {
              throw new DamagedBodyException("test: damaged");
            }
            return raw;
          }

          @Override
          public byte[] encodeAtRest(byte[] raw) {
            return zstd.encodeAtRest(raw);
          }

          @Override
          public boolean isAtRest(byte[] stored) {
            return zstd.isAtRest(stored);
          }

          @Override
          public String name() {
            return "zstd, one body damaged";
          }
        };
    MemoryInboxStore store =
        (MemoryInboxStore) builder(Limits.defaults(), clock).codec(damagesOne).build();
    Random random = new Random(16);
    deliverOne(store, message("damaged " + "x y z ".repeat(300), "a"));
    byte[] good = TestMail.message(random, 3000);
    MessageId goodId = deliverOne(store, message(good, "good", "b"));
    long before = store.stats().messageBytes();

    assertThat(store.settle(10)).isEqualTo(2);
    assertThat(store.stats().messageBytes()).isLessThan(before);
    assertThat(store.get(goodId).orElseThrow().raw()).isEqualTo(good);
    store.checkInvariants();
  }

  /**
   * Settling on one thread while another delivers, deletes and evicts (cap and budget) loses and
   * changes nothing: after both stop, the counts add up and every message still held reads back
   * byte for byte.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void settlingWhileMailArrivesAndLeavesKeepsEveryMessageIntact(long seed) throws Exception {
    MemoryInboxStore store = zstdStore(Limits.defaults().withInboxCap(8).withMaxBytes(256 << 10));
    AtomicBoolean done = new AtomicBoolean();
    AtomicLong settled = new AtomicLong();
    Thread settler =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (!done.get()) {
                    settled.addAndGet(store.settle(3));
                  }
                });
    Random random = new Random(seed);
    Map<MessageId, byte[]> live = new LinkedHashMap<>();
    List<byte[]> campaigns = new ArrayList<>();
    for (int c = 0; c < 5; c++) {
      campaigns.add(TestMail.message(random, 400 + random.nextInt(1500)));
    }
    for (int step = 0; step < 3000; step++) {
      byte[] raw =
          random.nextBoolean()
              ? TestMail.message(random, 300 + random.nextInt(2500))
              : (random.nextInt(1_000_000) + "\r\n")
                  .concat(new String(campaigns.get(random.nextInt(5)), UTF_8))
                  .getBytes(UTF_8);
      live.put(deliverOne(store, message(raw, "s" + step, "box" + random.nextInt(40))), raw);
      if (random.nextInt(6) == 0) {
        MessageId victim = live.keySet().iterator().next();
        store.delete(victim);
        live.remove(victim);
      }
    }
    done.set(true);
    settler.join();
    store.checkInvariants();
    assertThat(settled.get()).as("the settler ran").isPositive();
    int held = 0;
    for (Map.Entry<MessageId, byte[]> e : live.entrySet()) {
      Optional<StoredMessage> m = store.get(e.getKey());
      if (m.isPresent()) {
        held++;
        assertThat(m.get().raw()).isEqualTo(e.getValue());
      }
    }
    assertThat(held).isEqualTo(store.stats().messages());
  }

  @Test
  void headerBlockEndsAtTheFirstEmptyLine() {
    byte[] crlf = "A: 1\r\nB: 2\r\n\r\nbody\r\n\r\nmore".getBytes(UTF_8);
    assertThat(RedisInboxStore.headerEnd(crlf)).isEqualTo(14);
    byte[] lf = "A: 1\n\nbody".getBytes(UTF_8);
    assertThat(RedisInboxStore.headerEnd(lf)).isEqualTo(6);
    byte[] headersOnly = "A: 1\r\nB: 2\r\n".getBytes(UTF_8);
    assertThat(RedisInboxStore.headerEnd(headersOnly)).isEqualTo(headersOnly.length);
    assertThat(RedisInboxStore.headerEnd(new byte[0])).isZero();

    InboxStore store = store();
    for (byte[] raw : List.of(crlf, lf, headersOnly, new byte[0], "\n".getBytes(UTF_8))) {
      MessageId id = deliverOne(store, message(raw, "s", "a"));
      assertThat(store.get(id).orElseThrow().raw()).isEqualTo(raw);
    }
  }

  @Test
  void racingDeliveriesOfOneNewBodyStoreItOnce() throws Exception {
    CountingCodec codec = new CountingCodec();
    InboxStore store = builder(Limits.defaults(), clock).codec(codec).build();
    byte[] spam = randomBytes(10, 50_000);
    int threads = 4;
    CountDownLatch start = new CountDownLatch(1);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int n = t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = 0; i < 50; i++) {
                    store.deliver(message(spam, "spam", "t" + n + "x" + i));
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              });
      thread.start();
      started.add(thread);
    }
    start.countDown();
    for (Thread t : started) {
      t.join();
    }
    assertThat(failures).isEmpty();
    assertThat(codec.encodes.get()).isBetween(1, threads);
    assertThat(store.stats().distinctBytes()).isEqualTo(50_000);
    assertThat(store.stats().messages()).isEqualTo(threads * 50);
    ((MemoryInboxStore) store).checkInvariants();
  }

  @Test
  void listenersRunOnTheConfiguredExecutorAfterTheDeliveryIsVisible() {
    List<Runnable> queued = new ArrayList<>();
    InboxStore store = builder(Limits.defaults(), clock).listenerExecutor(queued::add).build();
    List<MessageSummary> seen = new ArrayList<>();
    store.subscribe(inbox("a"), s -> seen.add(store.get(s.id()).orElseThrow().summary()));
    Map<InboxName, MessageId> ids = delivered(store.deliver(message("x", "a", "b")));
    assertThat(seen).isEmpty();
    assertThat(queued).hasSize(1);
    queued.forEach(Runnable::run);
    assertThat(seen).extracting(MessageSummary::id).containsExactly(ids.get(inbox("a")));
  }

  @Test
  void aClockThatStepsBackNeitherKeepsNorDropsMailEarly() {
    InboxStore store = store(Limits.defaults().withTtl(Duration.ofHours(1)));
    MessageId first = deliverOne(store, message("first", "a"));
    clock.advance(Duration.ofMinutes(-30));
    MessageId second = deliverOne(store, message("second", "b"));
    // the second delivery counts as made at the latest time seen, so both expire together
    clock.advance(Duration.ofMinutes(89));
    assertThat(store.get(first)).isPresent();
    assertThat(store.get(second)).isPresent();
    clock.advance(Duration.ofMinutes(1));
    assertThat(store.get(first)).isEmpty();
    assertThat(store.get(second)).isEmpty();
    assertThat(store.stats().evictions()).containsEntry(EvictionCause.TTL, 2L);
  }

  @Test
  void aTimeToLiveLongerThanTheClocksPastNeverExpires() {
    InboxStore store = store(Limits.defaults().withTtl(Duration.ofSeconds(Long.MAX_VALUE)));
    MessageId id = deliverOne(store, message("forever", "a"));
    clock.advance(Duration.ofDays(365_000));
    assertThat(store.get(id)).isPresent();
  }

  /**
   * Readers take the read lock unless an entry has expired, and then expire it under the write lock
   * first: while the clock moves past every entry's expiry, no page, read or newest list returns an
   * entry that had expired before the call began, and a read by id never misses one still live
   * after it returned.
   */
  @Test
  void readersRacingExpiryNeverSeeAnExpiredEntryNorMissALiveOne() throws Exception {
    int deliveries = 2000;
    Duration ttl = Duration.ofSeconds(1000);
    InboxStore store = store(Limits.defaults().withTtl(ttl).withInboxCap(deliveries));
    MessageId[] ids = new MessageId[deliveries];
    for (int i = 0; i < deliveries; i++) { // entry i is stored at T0 + i s
      ids[i] = deliverOne(store, message(randomBytes(i, 300), Integer.toString(i), "box" + i % 20));
      clock.advance(Duration.ofSeconds(1));
    }
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    AtomicBoolean moving = new AtomicBoolean(true);
    AtomicLong checked = new AtomicLong();
    List<Thread> readers = new ArrayList<>();
    for (int r = 0; r < 3; r++) {
      Random random = new Random(r);
      Thread t =
          new Thread(
              () -> {
                try {
                  while (moving.get()) {
                    long before = clock.instant().minus(ttl).toEpochMilli();
                    List<MessageSummary> seen;
                    int i = random.nextInt(deliveries);
                    switch (random.nextInt(3)) {
                      case 0 -> seen = store.list(inbox("box" + i % 20), 20, null).messages();
                      case 1 -> seen = store.newest(20);
                      default -> {
                        Optional<StoredMessage> m = store.get(ids[i]);
                        long after = clock.instant().minus(ttl).toEpochMilli();
                        if (m.isEmpty() && storedAtMillis(i) > after) {
                          throw new AssertionError("entry " + i + " missed while live");
                        }
                        seen = m.map(StoredMessage::summary).stream().toList();
                      }
                    }
                    for (MessageSummary s : seen) {
                      int stored = Integer.parseInt(s.subject());
                      if (storedAtMillis(stored) <= before) {
                        throw new AssertionError("entry " + stored + " returned after it expired");
                      }
                      checked.incrementAndGet();
                    }
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              });
      t.start();
      readers.add(t);
    }
    for (int step = 0; step < deliveries; step++) {
      clock.advance(Duration.ofSeconds(1));
      Thread.sleep(0, 100_000);
    }
    clock.advance(ttl);
    Thread.sleep(20);
    moving.set(false);
    for (Thread t : readers) {
      t.join();
    }
    assertThat(failures).isEmpty();
    assertThat(checked.get()).as("summaries checked").isPositive();
    assertThat(store.stats().messages()).isZero();
  }

  private static long storedAtMillis(int delivery) {
    return T0.plusSeconds(delivery).toEpochMilli();
  }
}
