package dev.burnbox.mailstore;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.common.hash.HashCode;
import dev.burnbox.mailstore.PieceTable.Part;
import dev.burnbox.mailstore.PieceTable.Piece;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.StampedLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-memory {@link InboxStore}: one JVM, no disk.
 *
 * <h2>Layout</h2>
 *
 * <ul>
 *   <li>{@code entries}: every entry by id, in delivery order (an {@link EntryIndex}: the id and
 *       the order's links are fields of the entry). Its oldest entry is the oldest of the whole
 *       store, so it is both the id index and the eviction queue for the byte budget and the time
 *       to live. Times are made monotonic (a delivery's time is never before the previous one's),
 *       so the head is always the first to expire.
 *   <li>{@code inboxes}: per inbox, its entries in delivery sequence order (a {@link SeqRing});
 *       newest-first pages and cursors are ranges of it, the cap evicts its first entry. Inboxes
 *       are found by name in a {@link ProbeTable}, by {@link InboxName#keyedHash}.
 *   <li>{@code pieces}: a {@link PieceTable}, the raw messages stored (encoded) alone, each found
 *       by a hash of its raw bytes and with the number of deliveries and deltas using it. A
 *       delivery (sender, from, subject and spam terms packed in one array by {@link
 *       PackedStrings}, verdict, piece, and its delta if it has one) is its first entry, shared by
 *       its other entries, and counts its live entries. An entry's removal releases its delivery,
 *       whose last entry's removal releases its piece or its delta (and with it a use of its base).
 * </ul>
 *
 * <p>An exact resend of a message stored alone stores nothing new but its index. A near-duplicate,
 * such as a bulk copy whose headers differ ({@code To:}, {@code Received:}, {@code Message-ID:}) or
 * a campaign's next mail with another greeting or tracking link, is encoded against the recent
 * piece most like it, if the codec can ({@link BodyCodec#encodeAgainst}) and that is smaller than
 * encoding it alone: it then costs about what differs (an exact resend of such a delta is encoded
 * against the same base again). {@link #get} decodes at most two pieces, byte for byte the raw
 * message. Pieces stored alone are deduplicated by their bytes: a piece found by the message's hash
 * (murmur3, 128 bits, whose collisions can be made on purpose) is decoded and compared with it
 * outside the lock before it is shared, so no message can stand for another. Through SMTP an exact
 * resend is rare (each delivery carries its own trace header, and one sent to many inboxes is one
 * delivery), so the comparison seldom runs, where SHA-256 cost every delivery 15 µs of CPU on a 5
 * KB mail (murmur3: 2) on a processor without SHA instructions.
 *
 * <h2>Concurrency</h2>
 *
 * One {@link StampedLock} guards all structure and counters. Its write lock is taken to change
 * them: under it run only map updates and evictions, amortized O(log n) per entry added or removed.
 * Pages, gets and the newest list pick their entries under its read lock, so they do not wait for
 * each other, and unpack their summaries after it; if an entry has expired, they remove it under
 * the write lock first. Neither lock is reentrant. Hashing, comparing, encoding (compression) and
 * decoding run outside the lock; an encoded piece is checked under it again before use, so racing
 * deliveries of one message store it once, and one encoded against a base released meanwhile is
 * encoded again. Ids come from {@link java.security.SecureRandom} outside the lock, drawn {@value
 * MessageId#BATCH} at a time. Listeners run after the lock is released.
 *
 * <p>Expired entries are removed by whichever operation first runs after they expire (there is no
 * background thread), so under steady traffic expiry is spread over operations; the first operation
 * after a long idle period removes everything that expired meanwhile, in O(k log n) for k entries
 * under the lock.
 *
 * <h2>Byte accounting</h2>
 *
 * The budget counts the codec's own heap ({@link BodyCodec#retainedBytes()}, e.g. a dictionary
 * trainer's reservoir), read at each delivery: the store evicts to make room when it grows, and
 * {@link StoreStats#storedBytes()} reports the value read last. The rest is {@code storedBytes}:
 * the sum of the encoded part lengths plus a fixed estimate per object, taken for a 64-bit JVM with
 * compressed references, checked against heap measured with JOL ({@code MemoryFootprintTest}) and
 * rounded up: {@value #ENTRY_OVERHEAD} bytes per entry (entry object with its id and links, and the
 * most its inbox's ring array holds per entry: 2 slots), {@value #DELIVERY_OVERHEAD} more bytes per
 * delivery (what its first entry holds beyond an entry's fields: times, verdict, piece, delta and
 * raw length) plus its packed strings' array unless it shares its piece's, {@value
 * PieceTable#PIECE_OVERHEAD} bytes per piece stored alone (object with its hash inline, array
 * header and padding) plus the strings array it keeps for its deliveries to share, and {@value
 * PieceTable#DELTA_OVERHEAD} per delta (array header and padding), 4 bytes per slot of the id
 * index's, the inbox table's and the piece table's lookup tables as they are now (each between an
 * eighth and half full), the cache of decoded bases (at most 1/256 of the budget and 1 MiB, weighed
 * at each delivery as the codec is, and for stats), the similarity index's fixed tables ({@link
 * SimilarPieces#forBudget}: about 1/256 of the budget) and {@value #INBOX_OVERHEAD} bytes per
 * non-empty inbox plus its packed name's array, and {@value #RING_ARRAY_OVERHEAD} more once it has
 * held two entries at once (its ring's array). Without compressed references (heaps of 32 GiB and
 * more) objects are larger than estimated.
 */
final class MemoryInboxStore implements InboxStore {
  static final int ENTRY_OVERHEAD = 64;

  /** The largest message {@link #settle} re-encodes: 256 KiB raw. */
  static final int SETTLE_MAX_RAW_BYTES = 256 << 10;

  static final int DELIVERY_OVERHEAD = 48;
  static final int INBOX_OVERHEAD = 32;

  /**
   * What an inbox's ring array costs beyond its slots (each entry's cost has its share of them).
   */
  static final int RING_ARRAY_OVERHEAD = 16;

  private static final Logger LOG = LoggerFactory.getLogger(MemoryInboxStore.class);
  private static final Base64.Encoder CURSOR_ENCODER = Base64.getUrlEncoder().withoutPadding();

  private final int inboxCap;
  private final long maxBytes;
  private final Duration ttl;
  private final InstantSource clock;
  private final boolean stripPlusTags;
  private final BodyCodec codec;

  // writers (structure and counters changed) take it to write; pages, gets and the newest list
  // read under it, so they do not wait for each other (see read)
  private final StampedLock locks = new StampedLock();
  private final Lock writeLock = locks.asWriteLock();
  private final Lock readLock = locks.asReadLock();
  // all guarded by the write lock; read under the read lock too
  private final EntryIndex<Entry> entries = new EntryIndex<>();
  // inboxes by name, keyed by InboxName#keyedHash so that senders cannot choose names whose slots
  // collide (HashMap resisted that with its trees; this table saves its 32-byte nodes)
  private final ProbeTable<Inbox> inboxes = new ProbeTable<>(box -> box.hash);
  private final PieceTable pieces;
  // raw bytes of recently read bases, weighed by length; thread-safe, used outside the lock
  private final Cache<Piece, byte[]> decodedBases;
  private final long[] evictions = new long[EvictionCause.values().length];
  private long deletions;
  private long entriesDelivered; // every entry added, restored ones included
  private long nextSeq = 1;
  private Instant lastStoredAt = Instant.MIN;
  private long logicalBytes; // each entry's message's raw size
  private long indexBytes; // entries, deliveries, inboxes; the budget adds pieces and codecBytes
  private long codecBytes; // the codec's retainedBytes() when last delivered to
  private long decodedBasesBytes; // the decoded bases' weight at the last delivery or stats
  // the last entry settle() looked at (null: none of those held), so the next is its newer one
  private Entry settled;
  private final Object settling = new Object(); // one settle() at a time
  private volatile boolean codecHasRestForm = true;

  private final InboxListeners listeners;
  private final Function<byte[], HashCode> pieceHash;

  MemoryInboxStore(InboxStore.Builder builder) {
    this(builder, PieceTable.HASH::hashBytes);
  }

  /** A store whose pieces are looked up by {@code pieceHash}: tests make it collide. */
  MemoryInboxStore(InboxStore.Builder builder, Function<byte[], HashCode> pieceHash) {
    this.pieceHash = pieceHash;
    this.inboxCap = builder.inboxCap();
    this.maxBytes = builder.maxBytes();
    this.ttl = builder.ttl();
    this.clock = builder.clock();
    this.stripPlusTags = builder.stripPlusTags();
    this.listeners = new InboxListeners(builder.listenerExecutor());
    this.codec = builder.codec();
    this.codecBytes = codec.retainedBytes();
    boolean findsBases = codec.encodesAgainstReferences();
    this.pieces = new PieceTable(findsBases ? SimilarPieces.forBudget(maxBytes) : null);
    this.decodedBases =
        Caffeine.newBuilder()
            .maximumWeight(findsBases ? Math.min(DECODED_BASES_MAX_BYTES, maxBytes / 256) : 0)
            .<Piece, byte[]>weigher((piece, raw) -> raw.length)
            .executor(Runnable::run) // no maintenance on the common pool
            .build();
  }

  /** The most raw bytes of decoded bases kept for reads and near-duplicates to come. */
  static final long DECODED_BASES_MAX_BYTES = 1L << 20;

  /**
   * A delivery's copy in one inbox: an id, and where it stands in the inbox and the store. The
   * first copy of a delivery is the {@link Delivery} itself; the others are {@link Copy}s of it.
   */
  private abstract static class Entry extends EntryIndex.Node {
    final Inbox inbox;
    final long seq;

    Entry(MessageId id, Inbox inbox, long seq) {
      super(id);
      this.inbox = inbox;
      this.seq = seq;
    }

    /** The delivery this entry is a copy of: the entry itself for a delivery's first copy. */
    abstract Delivery delivery();

    MessageSummary summary() {
      return summary(inbox.name());
    }

    /** This entry's summary, {@code name} being its inbox's (one instance for a whole page). */
    MessageSummary summary(InboxName name) {
      Delivery d = delivery();
      PackedStrings.Reader strings = new PackedStrings.Reader(d.strings);
      return new MessageSummary(
          id(),
          name,
          strings.next(),
          strings.next(),
          strings.next(),
          d.receivedAt(),
          d.rawLength(),
          d.verdict(strings));
    }
  }

  /** A delivery's copy in an inbox other than its first's. */
  private static final class Copy extends Entry {
    private final Delivery delivery;

    Copy(MessageId id, Inbox inbox, long seq, Delivery delivery) {
      super(id, inbox, seq);
      this.delivery = delivery;
    }

    @Override
    Delivery delivery() {
      return delivery;
    }
  }

  /**
   * One {@code deliver} call, as its first entry: with the metadata its other entries share. It
   * keeps the message's fields, not the message, whose raw bytes a deduplicated delivery must not
   * hold on to; its strings are packed in one array. It outlives its own removal from the indexes
   * while another entry of the delivery is held.
   */
  private static final class Delivery extends Entry {
    // sender, from, subject, then the verdict's terms (PackedStrings): its piece's metadata when
    // that is equal (a campaign's copy), so that the piece counts them once for all
    final byte[] strings;
    final double score;
    final double probability;
    final long receivedSecond;
    final int receivedNano;
    final Piece piece; // the message's bytes, or the base its delta is encoded against
    // null: the message is piece's bytes; else its bytes encoded against piece's. Replaced only by
    // a smaller form of the same bytes (settle), so a reader outside the lock decodes either alike.
    volatile byte[] delta;
    // the raw length, and the verdict's spam flag in its sign bit: a delivery with a boolean of its
    // own would take 112 bytes, not 104
    private final int rawLengthAndSpam;
    final long storedAtMillis; // the time to live counts from here
    int liveEntries;

    Delivery(
        MessageId id,
        Inbox inbox,
        long seq,
        IncomingMessage m,
        byte[] strings,
        Piece piece,
        byte[] delta,
        long storedAtMillis) {
      super(id, inbox, seq);
      this.strings = strings;
      this.score = m.verdict().score();
      this.probability = m.verdict().probability();
      this.receivedSecond = m.receivedAt().getEpochSecond();
      this.receivedNano = m.receivedAt().getNano();
      this.piece = piece;
      this.delta = delta;
      this.rawLengthAndSpam = m.rawView().length | (m.verdict().spam() ? Integer.MIN_VALUE : 0);
      this.storedAtMillis = storedAtMillis;
    }

    @Override
    Delivery delivery() {
      return this;
    }

    /** The message's raw size. */
    int rawLength() {
      return rawLengthAndSpam & Integer.MAX_VALUE;
    }

    /** Whether the verdict called it spam when it arrived. */
    boolean spam() {
      return rawLengthAndSpam < 0;
    }

    /** A message's sender, from, subject and verdict terms, packed as a delivery holds them. */
    static byte[] strings(IncomingMessage m) {
      List<String> all = new ArrayList<>(3 + m.verdict().terms().size());
      all.add(m.envelopeSender());
      all.add(m.from());
      all.add(m.subject());
      all.addAll(m.verdict().terms());
      return PackedStrings.pack(all);
    }

    /**
     * What a delivery with these packed strings costs the budget beyond its first entry's, at most:
     * nothing for the strings if it shares its piece's.
     */
    static long cost(byte[] strings) {
      return DELIVERY_OVERHEAD + PieceTable.arrayBytes(strings);
    }

    long cost() {
      return strings == piece.metadata ? DELIVERY_OVERHEAD : cost(strings);
    }

    Instant receivedAt() {
      return Instant.ofEpochSecond(receivedSecond, receivedNano);
    }

    /** The message as delivered, its bytes {@code raw}, to {@code recipients}. */
    IncomingMessage message(byte[] raw, List<InboxName> recipients) {
      PackedStrings.Reader all = new PackedStrings.Reader(strings);
      String sender = all.next();
      String from = all.next();
      String subject = all.next();
      return new IncomingMessage(
          raw, sender, recipients, receivedAt(), from, subject, verdict(all));
    }

    /** The verdict, its terms what is left in {@code strings} after sender, from and subject. */
    SpamVerdict verdict(PackedStrings.Reader strings) {
      if (!strings.hasNext()) {
        return score == 0 && probability == 0 && !spam()
            ? SpamVerdict.CLEAN // mail never scanned: no copy to make
            : new SpamVerdict(List.of(), score, probability, spam());
      }
      List<String> terms = new ArrayList<>(4);
      while (strings.hasNext()) {
        terms.add(strings.next());
      }
      return new SpamVerdict(terms, score, probability, spam());
    }
  }

  /**
   * An inbox: its name and its entries in delivery order (it is its own ring). It keeps its name
   * packed ({@link PackedStrings}: one byte a character for most names), not as a string object (24
   * bytes an inbox), with its keyed hash, which the inbox table is probed and resized by and a
   * lookup compares before the name; it unpacks the name again to report it. Its first entry takes
   * no ring array ({@link SeqRing}).
   */
  private static final class Inbox extends SeqRing<Entry> {
    final byte[] name; // InboxName#value, packed
    final int hash; // InboxName#keyedHash

    Inbox(InboxName name) {
      this.name = PackedStrings.pack(List.of(name.value()));
      this.hash = name.keyedHash();
    }

    @Override
    long seqOf(Entry e) {
      return e.seq;
    }

    boolean isNamed(String value) {
      return PackedStrings.holdsOnly(name, value);
    }

    InboxName name() {
      return InboxName.ofValue(new PackedStrings.Reader(name).next());
    }

    long cost() {
      return INBOX_OVERHEAD + PieceTable.arrayBytes(name) + (hasArray() ? RING_ARRAY_OVERHEAD : 0);
    }
  }

  /** The inbox named {@code name}, or null if it holds nothing. Under either lock. */
  private Inbox inbox(InboxName name) {
    int hash = name.keyedHash();
    String value = name.value();
    for (int i = inboxes.start(hash); ; i = inboxes.next(i)) {
      Inbox box = inboxes.at(i);
      if (box == null || box.hash == hash && box.isNamed(value)) {
        return box;
      }
    }
  }

  /**
   * What an inbox named {@code name} costs with one entry: its {@link Inbox#cost()} before it is
   * made.
   */
  private static long inboxCost(String name) {
    return INBOX_OVERHEAD + PieceTable.arrayBytes(PackedStrings.packedLength(name));
  }

  private InboxName canonical(InboxName name) {
    Objects.requireNonNull(name, "inbox");
    return stripPlusTags ? name.withoutTag() : name;
  }

  @Override
  public DeliveryResult deliver(IncomingMessage message) {
    Objects.requireNonNull(message, "message");
    Set<InboxName> targets = new LinkedHashSet<>();
    for (InboxName r : message.recipients()) {
      targets.add(canonical(r));
    }
    List<MessageId> ids = new ArrayList<>(targets.size());
    for (int i = 0; i < targets.size(); i++) {
      ids.add(MessageId.random());
    }
    return deliver(message, targets, ids, STORED_NOW);
  }

  /** A stored-at time meaning "now, on the store's clock". */
  private static final long STORED_NOW = Long.MIN_VALUE;

  private DeliveryResult deliver(
      IncomingMessage message, Set<InboxName> targets, List<MessageId> ids, long storedAtMillis) {
    byte[] strings = Delivery.strings(message);
    byte[] raw = message.rawView();
    Part part = new Part(raw, pieceHash.apply(raw), pieces.findsBases(), strings);

    List<Entry> added = new ArrayList<>(targets.size());
    DeliveryResult result;
    while ((result = tryDeliver(message, targets, ids, storedAtMillis, part, strings, added))
        == null) {
      // outside the lock, then try again (another thread may have won meanwhile)
      if (part.candidate != null) {
        compare(part);
      } else {
        encode(part); // new bytes
      }
    }
    for (Entry e : added) {
      listeners.publish(e.summary());
    }
    return result;
  }

  /**
   * Compares {@code part}'s bytes with those of its candidate, the piece its hash found: the same
   * bytes are shared, other bytes (a collision) stored apart. A piece's stored form decodes to the
   * same bytes whichever form a reader sees, and still does once released.
   */
  private void compare(Part part) {
    Piece candidate = part.candidate;
    part.candidate = null;
    if (Arrays.equals(codec.decode(candidate.stored), part.raw)) {
      part.sameAs = candidate;
    } else {
      part.differsFrom = candidate;
    }
  }

  /**
   * Encodes {@code part}: against its base where that takes under 3/4 of the bytes it takes alone
   * (a delta under an eighth of the raw size is taken without trying), else alone, dropping the
   * base. A delta keeps its base held, so a small saving is not worth one; 3/4 also stored unseen
   * mail smaller than any smaller saving did (more pieces alone make more bases). Guessing the size
   * alone from the base's own ratio instead of encoding it stored the workload's mail in 1.3-2.2x
   * the bytes: a base stored before the dictionary was trained predicts too large a size.
   */
  private void encode(Part part) {
    byte[] raw = part.raw;
    Piece base = part.base;
    if (base != null) {
      byte[] delta = codec.encodeAgainst(raw, decodedBase(base));
      if (delta != null && delta.length <= raw.length / 8) {
        part.stored = delta;
        return;
      }
      byte[] alone = codec.encode(raw);
      if (delta != null && 4L * delta.length < 3L * alone.length) {
        part.stored = delta;
        return;
      }
      part.stored = alone;
      part.base = null;
      return;
    }
    byte[] alone = codec.encode(raw);
    part.stored = alone == raw ? raw.clone() : alone; // the identity codec keeps what it is given
  }

  /**
   * The raw bytes of {@code d}'s message. No lock is needed: a piece's or a delta's stored form is
   * only ever replaced by another form of the same bytes ({@link #settle}); a base is decoded once
   * while it stays in the cache of decoded bases (a released base leaves it).
   */
  private byte[] decode(Delivery d) {
    byte[] delta = d.delta;
    if (delta == null) {
      return codec.decode(d.piece.stored);
    }
    return codec.decodeAgainst(delta, decodedBase(d.piece));
  }

  private long decodedBasesWeight() {
    return decodedBases.policy().eviction().orElseThrow().weightedSize().orElse(0);
  }

  private byte[] decodedBase(Piece base) {
    return decodedBases.get(base, b -> codec.decode(b.stored));
  }

  /**
   * Delivers under the lock, or returns null if no piece holds the message's bytes and {@code part}
   * cannot be stored as it is (it is then given the base to encode against, if any). Appends the
   * new entries to {@code added}.
   */
  private DeliveryResult tryDeliver(
      IncomingMessage message,
      Set<InboxName> targets,
      List<MessageId> ids,
      long storedAtMillis,
      Part part,
      byte[] strings,
      List<Entry> added) {
    int rawLength = message.rawView().length;
    writeLock.lock();
    try {
      Instant now = now();
      expire(now);
      codecBytes = codec.retainedBytes();
      decodedBasesBytes = decodedBasesWeight();
      long budget = maxBytes - codecBytes;
      while (usedBytes() > budget && !entries.isEmpty()) {
        remove(entries.oldest(), EvictionCause.MEMORY_BUDGET); // the codec grew
      }
      Piece held = pieces.find(part);
      if (held != null && held != part.sameAs && held != part.differsFrom) {
        part.candidate = held; // its bytes are compared outside the lock
        return null;
      }
      if (held == part.differsFrom) {
        held = null; // a hash collision: the part is stored as a piece of its own
      }
      if (held == null && !pieces.canStore(part)) {
        part.stored = null;
        part.base = pieces.referenceFor(part);
        return null;
      }
      // a new piece keeps the delivery's strings; a held piece or a base shares its own if equal
      Piece owner = held != null ? held : part.base;
      boolean sharesStrings = owner == null || Arrays.equals(strings, owner.metadata);
      // what the delivery costs in a store that holds nothing else, its tables at their smallest
      long alone =
          (sharesStrings ? DELIVERY_OVERHEAD : Delivery.cost(strings))
              + (long) targets.size() * ENTRY_OVERHEAD
              + (long) PieceTable.SLOT_BYTES * EntryIndex.capacityFor(targets.size())
              + (held != null ? held.cost() : PieceTable.costOf(part))
              + (held == null && part.base != null ? part.base.cost() : 0) // held by the delta
              + (long) PieceTable.SLOT_BYTES * ProbeTable.capacityFor(targets.size()) // inboxes
              + (long) PieceTable.SLOT_BYTES * PieceTable.MIN_CAPACITY;
      for (InboxName t : targets) {
        alone += inboxCost(t.value());
      }
      if (alone > budget) {
        return new DeliveryResult.Refused(
            RefusalReason.TOO_LARGE_FOR_STORE,
            "message needs "
                + alone
                + " bytes stored and indexed ("
                + rawLength
                + " raw), the store's budget is "
                + maxBytes
                + " of which the codec holds "
                + codecBytes);
      }
      for (MessageId id : ids) {
        if (entries.get(id) != null) { // only a restored snapshot can name its ids
          throw new IllegalArgumentException("message id already in use: " + id);
        }
      }
      Piece piece;
      byte[] delta = null;
      if (held != null) {
        pieces.use(held);
        piece = held;
      } else if (part.base == null) {
        piece = pieces.add(part);
      } else {
        piece = pieces.addDelta(part);
        delta = part.stored;
      }
      // a restored time is kept, but never after now: the id index stays in stored-at order
      long storedAt =
          storedAtMillis == STORED_NOW ? toMillis(now) : Math.min(storedAtMillis, toMillis(now));
      Delivery delivery = null;
      Map<InboxName, MessageId> result = new LinkedHashMap<>();
      Iterator<MessageId> idIt = ids.iterator();
      for (InboxName t : targets) {
        Inbox inbox = inbox(t);
        if (inbox == null) {
          inbox = new Inbox(t);
          inboxes.add(inbox);
          indexBytes += inbox.cost();
        }
        MessageId id = idIt.next();
        Entry e;
        if (delivery == null) {
          byte[] kept = sharesStrings ? piece.metadata : strings;
          delivery = new Delivery(id, inbox, nextSeq++, message, kept, piece, delta, storedAt);
          indexBytes += delivery.cost();
          e = delivery;
        } else {
          e = new Copy(id, inbox, nextSeq++, delivery);
        }
        long ring = inbox.cost();
        inbox.addNewest(e);
        indexBytes += inbox.cost() - ring; // its array's header, when a second entry needs one
        entries.addNewest(e);
        delivery.liveEntries++;
        indexBytes += ENTRY_OVERHEAD;
        logicalBytes += delivery.rawLength();
        added.add(e);
        entriesDelivered++;
        result.put(t, id);
        if (inbox.size() > inboxCap) {
          remove(inbox.get(0), EvictionCause.INBOX_CAP);
        }
      }
      // the new entries are the newest and cost at most the budget alone: never evicted here (an
      // id table not yet shrunk to their number may leave the store over budget by a few slots)
      while (usedBytes() > budget && entries.oldest() != added.get(0)) {
        remove(entries.oldest(), EvictionCause.MEMORY_BUDGET);
      }
      return new DeliveryResult.Delivered(result);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * What the budget counts besides the codec's heap: the index, the pieces and the decoded bases'
   * cache. Under the lock.
   */
  private long usedBytes() {
    return indexBytes + tableBytes() + pieces.costBytes() + decodedBasesBytes;
  }

  /** The id index's and the inbox table's lookup tables. Under the lock. */
  private long tableBytes() {
    return (long) PieceTable.SLOT_BYTES * (entries.capacity() + inboxes.capacity());
  }

  /** The clock's time, never before a time already used. Under the lock. */
  private Instant now() {
    Instant now = clock.instant();
    if (now.isBefore(lastStoredAt)) {
      now = lastStoredAt;
    }
    lastStoredAt = now;
    return now;
  }

  /** Milliseconds since the epoch, saturated at the ends of {@code long}'s range. */
  private static long toMillis(Instant t) {
    try {
      return t.toEpochMilli();
    } catch (ArithmeticException e) {
      return t.isBefore(Instant.EPOCH) ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  /**
   * Evicts every expired entry: a prefix of {@code entries}. Times count in whole milliseconds, so
   * an entry may expire up to 1 ms early. Under the lock.
   */
  private void expire(Instant now) {
    long cutoff = expiryCutoff(now);
    while (hasExpired(cutoff)) {
      remove(entries.oldest(), EvictionCause.TTL);
    }
  }

  /** Entries stored at or before this time have expired by {@code now}. */
  private long expiryCutoff(Instant now) {
    try {
      return Math.subtractExact(toMillis(now), ttl.toMillis());
    } catch (ArithmeticException e) {
      return Long.MIN_VALUE; // a time to live longer than the clock's past: nothing has expired
    }
  }

  /** Whether the oldest entry was stored at or before {@code cutoff}. Under either lock. */
  private boolean hasExpired(long cutoff) {
    return !entries.isEmpty() && entries.oldest().delivery().storedAtMillis <= cutoff;
  }

  /**
   * {@code pick}'s answer, read under the read lock when nothing has expired (the common case:
   * readers then never wait for each other), else under the write lock after the expired entries
   * are removed. {@code pick} must only read.
   */
  private <T> T read(Supplier<T> pick) {
    long cutoff = expiryCutoff(clock.instant());
    readLock.lock();
    try {
      if (!hasExpired(cutoff)) {
        return pick.get();
      }
    } finally {
      readLock.unlock();
    }
    writeLock.lock();
    try {
      expire(now());
      return pick.get();
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * The summaries of {@code listed}, built after the lock: what a summary reads (an entry's id,
   * inbox and delivery, and the delivery's fields) is final, so it is the same whether the entry is
   * still held or not, and unpacking the strings holds nobody up. {@code inbox} is the inbox they
   * are all in (a page's: one name for all), or null for each its own.
   */
  private static List<MessageSummary> summaries(List<Entry> listed, InboxName inbox) {
    List<MessageSummary> summaries = new ArrayList<>(listed.size());
    for (Entry e : listed) {
      summaries.add(inbox == null ? e.summary() : e.summary(inbox));
    }
    return summaries;
  }

  /** Removes {@code e}, releasing what only it used. {@code cause} is null for a delete. */
  private void remove(Entry e, EvictionCause cause) {
    if (e == settled) {
      settled = (Entry) e.older; // looked at already, or null: every older entry is gone
    }
    entries.remove(e);
    Inbox inbox = e.inbox;
    inbox.remove(e);
    indexBytes -= ENTRY_OVERHEAD;
    logicalBytes -= e.delivery().rawLength();
    if (inbox.isEmpty()) {
      inboxes.remove(inbox);
      indexBytes -= inbox.cost();
    }
    Delivery d = e.delivery();
    if (--d.liveEntries == 0) {
      indexBytes -= d.cost();
      if (d.delta == null) {
        pieces.release(d.piece);
      } else {
        pieces.releaseDelta(d.piece, d.rawLength(), d.delta);
      }
      if (d.piece.uses == 0) {
        decodedBases.invalidate(d.piece); // else it would keep a released piece's bytes, uncounted
      }
    }
    if (cause != null) {
      evictions[cause.ordinal()]++;
    }
  }

  @Override
  public InboxPage list(InboxName inbox, int limit, String cursor) {
    InboxName name = canonical(inbox);
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1: " + limit);
    }
    long before = cursor == null ? Long.MAX_VALUE : parseCursor(cursor);
    record Picked(List<Entry> listed, boolean more) {}
    Picked picked =
        read(
            () -> {
              List<Entry> listed = new ArrayList<>(Math.min(limit, inboxCap));
              Inbox box = inbox(name);
              if (box != null) {
                for (int i = box.countBefore(before) - 1; i >= 0; i--) {
                  if (listed.size() == limit) {
                    return new Picked(listed, true);
                  }
                  listed.add(box.get(i));
                }
              }
              return new Picked(listed, false);
            });
    List<Entry> listed = picked.listed();
    return new InboxPage(
        summaries(listed, name),
        picked.more() ? Optional.of(cursorFor(listed.getLast().seq)) : Optional.empty());
  }

  private static String cursorFor(long seq) {
    return CURSOR_ENCODER.encodeToString(ByteBuffer.allocate(Long.BYTES).putLong(seq).array());
  }

  private static long parseCursor(String cursor) {
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(cursor);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("malformed cursor", e);
    }
    if (bytes.length != Long.BYTES || cursor.length() != 11) {
      throw new IllegalArgumentException("malformed cursor");
    }
    long seq = ByteBuffer.wrap(bytes).getLong();
    if (seq < 1) {
      throw new IllegalArgumentException("malformed cursor");
    }
    return seq;
  }

  @Override
  public Optional<StoredMessage> get(MessageId id) {
    Objects.requireNonNull(id, "id");
    Entry e = read(() -> entries.get(id));
    if (e == null) {
      return Optional.empty();
    }
    return Optional.of(new StoredMessage(e.summary(), decode(e.delivery())));
  }

  @Override
  public boolean delete(MessageId id) {
    Objects.requireNonNull(id, "id");
    writeLock.lock();
    try {
      expire(now());
      Entry e = entries.get(id);
      if (e == null) {
        return false;
      }
      remove(e, null);
      deletions++;
      return true;
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public Subscription subscribe(InboxName inbox, Consumer<? super MessageSummary> listener) {
    return listeners.add(canonical(inbox), listener);
  }

  @Override
  public List<MessageSummary> newest(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1: " + limit);
    }
    List<Entry> newest =
        read(
            () -> {
              List<Entry> picked = new ArrayList<>(Math.min(limit, entries.size()));
              for (Entry e : entries.newestFirst()) { // delivery order, newest first
                if (picked.size() == limit) {
                  break;
                }
                picked.add(e);
              }
              return picked;
            });
    return summaries(newest, null);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Walks the entries in delivery order from where the last call stopped. A message stored
   * against a base is re-encoded against it (its base read from the cache of decoded bases if
   * there, else decoded without filling that cache, which is for the intake's recent bases). A
   * message already at rest (or a splice), or over {@value #SETTLE_MAX_RAW_BYTES} bytes raw, is
   * passed over (zstd's level 19 takes about a tenth of a second of one core for 256 KiB, and large
   * mail is mostly attachments that are compressed already), so one message holds the caller for a
   * tenth of a second at most. Its new form replaces the old under the lock if the message is still
   * held and unchanged, and counts in {@code messageBytes} from then on; readers decoding the old
   * form meanwhile get the same bytes.
   */
  @Override
  public int settle(int maxMessages) {
    if (!codecHasRestForm) {
      return 0;
    }
    synchronized (settling) {
      int looked = 0;
      while (looked < maxMessages) {
        Delivery delivery;
        Piece piece; // the message's, or the base of its delta: held while the delivery is
        boolean isDelta;
        byte[] before;
        writeLock.lock();
        try {
          Entry next = settled == null ? entries.oldest() : (Entry) settled.newer;
          if (next == null) {
            return looked;
          }
          settled = next;
          looked++;
          delivery = next.delivery();
          piece = delivery.piece;
          isDelta = delivery.delta != null;
          before = isDelta ? delivery.delta : piece.stored;
          if (delivery.rawLength() > SETTLE_MAX_RAW_BYTES || codec.isAtRest(before)) {
            continue;
          }
        } finally {
          writeLock.unlock();
        }
        byte[] atRest;
        try {
          if (!isDelta) {
            atRest = codec.encodeAtRest(codec.decode(before));
            if (atRest == null) {
              codecHasRestForm = false;
              return 0;
            }
          } else {
            // old bases are read without caching them: the cache is for the intake's recent ones
            byte[] reference = decodedBases.getIfPresent(piece);
            if (reference == null) {
              reference = codec.decode(piece.stored);
            }
            atRest = codec.encodeAgainstAtRest(codec.decodeAgainst(before, reference), reference);
            if (atRest == null) {
              continue;
            }
          }
        } catch (DamagedBodyException e) { // reading it fails too, and says so; settle the rest
          LOG.warn("not settling a damaged stored message", e);
          continue;
        }
        writeLock.lock();
        try {
          if (atRest.length >= before.length) {
            continue;
          }
          if (isDelta && delivery.liveEntries > 0 && delivery.delta == before) {
            pieces.settleDelta(before, atRest);
            delivery.delta = atRest;
          } else if (!isDelta && piece.uses > 0 && piece.stored == before) {
            pieces.settle(piece, atRest);
          }
        } finally {
          writeLock.unlock();
        }
      }
      return looked;
    }
  }

  @Override
  public StoreStats stats() {
    writeLock.lock();
    try {
      expire(now());
      decodedBasesBytes = decodedBasesWeight();
      Map<EvictionCause, Long> byCause = new EnumMap<>(EvictionCause.class);
      for (EvictionCause c : EvictionCause.values()) {
        byCause.put(c, evictions[c.ordinal()]);
      }
      return new StoreStats(
          entries.size(),
          inboxes.size(),
          logicalBytes,
          pieces.rawBytes(),
          pieces.encodedBytes(),
          indexBytes + tableBytes() + pieces.costBytes() - pieces.encodedBytes(),
          decodedBasesBytes,
          codecBytes,
          entriesDelivered,
          byCause,
          deletions);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The structure is read under the lock; the bodies are decoded after it, so the store stays
   * usable meanwhile.
   */
  @Override
  public List<StoredDelivery> deliveries() {
    record Live(Delivery delivery, List<Entry> entries) {}
    List<Live> live = new ArrayList<>();
    writeLock.lock();
    try {
      expire(now());
      Live current = null;
      for (Entry e : entries.oldestFirst()) { // a delivery's entries are adjacent in this order
        if (current == null || current.delivery() != e.delivery()) {
          current = new Live(e.delivery(), new ArrayList<>());
          live.add(current);
        }
        current.entries().add(e);
      }
    } finally {
      writeLock.unlock();
    }
    List<StoredDelivery> out = new ArrayList<>(live.size());
    for (Live l : live) {
      Delivery d = l.delivery();
      IncomingMessage message =
          d.message(decode(d), l.entries().stream().map(e -> e.inbox.name()).toList());
      out.add(
          new StoredDelivery(
              message, l.entries().stream().map(Entry::id).toList(), d.storedAtMillis));
    }
    return out;
  }

  @Override
  public boolean restore(StoredDelivery record) {
    Set<InboxName> targets = new LinkedHashSet<>();
    for (InboxName r : record.message().recipients()) {
      targets.add(canonical(r));
    }
    if (targets.size() != record.ids().size()) {
      throw new IllegalArgumentException("a snapshot record's ids do not match its inboxes");
    }
    long cutoff = toMillis(clock.instant()) - ttl.toMillis();
    if (record.storedAtMillis() <= cutoff) {
      return false;
    }
    return deliver(record.message(), targets, record.ids(), record.storedAtMillis()).isDelivered();
  }

  /** Bases whose decoded bytes are cached now. For tests. */
  long decodedBasesCached() {
    decodedBases.cleanUp();
    return decodedBases.estimatedSize();
  }

  /**
   * Recomputes every count and cost from the structure and throws {@link AssertionError} if any
   * differs from the maintained one. For tests; O(n) under the lock.
   */
  void checkInvariants() {
    writeLock.lock();
    try {
      long entryCount = 0;
      long expectIndex = 0;
      long expectLogical = 0;
      Map<Delivery, Integer> liveByDelivery = new HashMap<>();
      List<Inbox> boxes = new ArrayList<>();
      inboxes.forEach(boxes::add);
      check(boxes.size() == inboxes.size(), "inbox table holds " + boxes.size() + " inboxes");
      for (Inbox inbox : boxes) {
        InboxName name = inbox.name();
        check(inbox.hash == name.keyedHash(), "inbox's hash is not its name's: " + name);
        check(inbox(name) == inbox, "inbox not found by its name: " + name);
        check(!inbox.isEmpty(), "empty inbox kept: " + name);
        check(inbox.size() <= inboxCap, "inbox over cap: " + name);
        expectIndex += inbox.cost();
        long prev = 0;
        for (int i = 0; i < inbox.size(); i++) {
          Entry e = inbox.get(i);
          check(e.seq > prev, "inbox out of delivery order: " + name);
          prev = e.seq;
          check(entries.get(e.id()) == e, "entry missing from the id index: " + e.id());
          check(e.inbox == inbox, "entry in the wrong inbox: " + e.id());
          liveByDelivery.merge(e.delivery(), 1, Integer::sum);
          expectLogical += e.delivery().rawLength();
          entryCount++;
        }
      }
      check(entryCount == entries.size(), "id index and inboxes disagree");
      expectIndex += entryCount * ENTRY_OVERHEAD;
      long prevSeq = 0;
      long walked = 0;
      for (Entry e : entries.oldestFirst()) {
        check(e.seq > prevSeq, "id index out of delivery order");
        prevSeq = e.seq;
        walked++;
      }
      check(walked == entryCount, "id index order holds " + walked + " of " + entryCount);
      check(
          entries.capacity() >= 2 * entries.size()
              && (entries.capacity() == EntryIndex.MIN_CAPACITY
                  || entries.capacity() <= 8 * entries.size()),
          "id table of " + entries.capacity() + " slots for " + entries.size() + " entries");
      Map<Piece, Integer> usesByPiece = new HashMap<>();
      int deltas = 0;
      long deltaRaw = 0;
      long deltaEncoded = 0;
      for (Map.Entry<Delivery, Integer> de : liveByDelivery.entrySet()) {
        Delivery d = de.getKey();
        check(d.liveEntries == de.getValue(), "delivery's live entry count is wrong");
        expectIndex += d.cost();
        usesByPiece.merge(d.piece, 1, Integer::sum);
        if (d.delta != null) {
          deltas++;
          deltaRaw += d.rawLength();
          deltaEncoded += d.delta.length;
        }
      }
      pieces.checkInvariants(usesByPiece, deltas, deltaRaw, deltaEncoded);
      check(expectLogical == logicalBytes, "logicalBytes " + logicalBytes + " != " + expectLogical);
      check(expectIndex == indexBytes, "indexBytes " + indexBytes + " != " + expectIndex);
      check(usedBytes() + codecBytes <= maxBytes, "over budget: " + (usedBytes() + codecBytes));
    } finally {
      writeLock.unlock();
    }
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new AssertionError(message);
    }
  }
}
