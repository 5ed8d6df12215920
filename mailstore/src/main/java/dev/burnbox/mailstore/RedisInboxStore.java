package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.common.hash.Hashing;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * An {@link InboxStore} in Redis, one server or a Redis Cluster, so that several Burnbox nodes
 * share inboxes: any node lists and reads mail any node received, and new-mail events reach every
 * node's subscribers.
 *
 * <p><b>Partitions.</b> The store is split into {@link Builder#redisPartitions} partitions (16 by
 * default, on one server as on a cluster, so both run the same code). Each partition is a complete
 * store of its own (inboxes, entries, pieces, queue, counters) whose keys all carry the partition's
 * hash tag, so each operation's Lua script touches one hash slot and runs on a cluster as on one
 * server, and a cluster spreads the partitions over its masters: the tag of partition i is chosen
 * so that its slot lies in the i-th of equal slot ranges, so masters holding equal slot ranges hold
 * equal numbers of partitions. An inbox lives in partition murmur3(name) mod count; a message id
 * carries its partition in its last 8 bits ({@link MessageId}), so {@link #get} and {@link #delete}
 * go straight to it. Cursors are sequences of the inbox's partition.
 *
 * <p><b>Key layout</b> ({@code P} is the key prefix, {@code bb} by default, one prefix one store;
 * {@code T} a partition's tag, such as {@code p7-12}):
 *
 * <ul>
 *   <li>{@code P:{T}:{inbox}}: the inbox, a sorted set of entry ids scored by the partition's
 *       delivery sequence; pages are score ranges and cursors are sequences, so new mail never
 *       shifts later pages.
 *   <li>{@code P:{T}:m:ID}: the entry, a hash: inbox, sequence, expiry time (ms on the store's
 *       clock), the pieces it uses, its cost, and the listing metadata as one binary blob.
 *   <li>{@code P:{T}:b:SHA}: a piece, a hash: stored (compressed) bytes, reference count, raw
 *       length, cost. A raw message is split after its first empty line into header block and body,
 *       each stored once per partition per SHA-256 of its bytes, so bulk mail whose copies differ
 *       only in their headers stores its body once in each partition it reaches.
 *   <li>{@code P:{T}:q}: every entry of the partition by sequence, the queue for its byte budget
 *       and the TTL.
 *   <li>{@code P:{T}:s}: the partition's counters (entries, inboxes, raw and stored bytes, entries
 *       delivered, evictions by cause, deletions, the sequence), kept exact by the scripts; {@link
 *       #stats} sums them.
 *   <li>channel {@code P:events}: one message per new entry, from every partition (a cluster
 *       broadcasts PUBLISH to all its nodes, so one channel serves it too).
 *   <li>{@code P:partitions}: the partition count, recorded by the first store that used this Redis
 *       and prefix; a store of another count would split the mail (each would list only the inboxes
 *       its own partitions hold), so it refuses every operation ({@link #checkSharedSettings}).
 * </ul>
 *
 * <p><b>Atomicity.</b> Each operation on a partition is one Lua script ({@link RedisScripts}, run
 * by EVALSHA, or by EVAL where a server does not have it yet): a delivery adds its pieces
 * (reference count +1 per entry), entries and counters, evicts, and publishes its events in one
 * step, so readers and the counters never see half of it within the partition, and reference counts
 * stay right however many nodes deliver at once. A delivery to inboxes of several partitions runs
 * one script per partition, one after another: a reader may see it in one inbox before another, and
 * {@link #stats}, which reads the partitions one by one, may count part of it. It is answered as
 * delivered only after every partition took it; if one partition is unavailable after others took
 * it, the entries already written are deleted again, one script per partition (best effort: what
 * cannot be deleted stays, as {@link RefusalReason#STORE_UNAVAILABLE} allows; on a frozen Redis
 * that costs about one timeout per partition written, not one per inbox) and the delivery is
 * refused with 451, which the sender retries. Their events may already have gone out. A message too
 * large for a partition's budget is refused (552) before any partition is written.
 *
 * <p><b>Limits.</b> The per-inbox cap trims the inbox's oldest entries on delivery. The TTL is
 * data: each entry keeps its expiry time on the store's clock ({@link Builder#clock}); every script
 * first evicts up to {@value RedisScripts#SWEEP_BATCH} expired entries of its partition, oldest
 * first, and reads leave out any expired entry the sweep has not reached, so expiry is exact on the
 * clock whether or not Redis's own clock agrees. Keys carry no Redis EXPIRE: the sweep on every
 * operation is the garbage collector, and Redis deleting keys behind the counters' back would make
 * them wrong. The byte budget ({@link Builder#maxBytes}) is split evenly: each partition evicts its
 * own oldest entries above its share, so eviction is oldest-first within a partition and only
 * approximately so across the store, and a message is refused as too large above one share (which
 * the service checks against its largest message). The budget counts stored piece bytes plus an
 * estimate of Redis's overhead per entry ({@value #ENTRY_OVERHEAD} bytes plus its metadata) and per
 * piece ({@value #PIECE_OVERHEAD} bytes plus an eighth of its stored bytes for the allocator's
 * rounding). The overheads were measured with {@code MEMORY USAGE} and {@code used_memory} on Redis
 * 7.0 (5 KB text mails: 2.9 KB of Redis memory per message; the hashes hold values over 64 bytes,
 * so Redis keeps them as hash tables, not listpacks).
 *
 * <p><b>What partitions cost.</b> A body reaching inboxes of k partitions is stored k times (at
 * most the partition count): a campaign to many inboxes stores its body once per partition, 16
 * times by default, instead of once; a message to 3 inboxes usually 3 times. One partition keeps
 * every guarantee store-wide, and the whole store on one master of a cluster.
 *
 * <p><b>Redis settings.</b> Redis 7 or newer. Give Redis {@code maxmemory} above the budget (the
 * estimate measured 1.02-1.08 times Redis's own count with partitions; leave room for fragmentation
 * and replication buffers, e.g. 1.5 times the budget; on a cluster, each master 1.5 times its
 * partitions' share) with {@code maxmemory-policy noeviction}: Redis then never drops keys behind
 * the store's back (which would break reference counts and counters). If Redis does fill up, it
 * refuses a delivery before the script starts (never halfway), which this store answers as {@link
 * RefusalReason#STORE_UNAVAILABLE} (451, the sender retries), while reads, deletes and the TTL
 * sweep, which only free memory, keep working. No persistence is needed for disposable mail ({@code
 * save ""}, {@code appendonly no}). On a cluster, {@code cluster-require-full-coverage no} lets the
 * masters that are up serve their partitions while one is down.
 *
 * <p><b>Compression.</b> Pieces are zstd level {@value ZstdCodec#RECOMMENDED_LEVEL} without a
 * dictionary: a trained dictionary lives in one JVM, but any node must decode any piece. (A
 * dictionary shared through Redis would gain about a third on real mail; not done yet.)
 *
 * <p><b>Failures.</b> Connect and socket timeouts are short ({@link Builder#redisTimeout}): when
 * Redis is unreachable or slow, {@link #deliver} answers {@link RefusalReason#STORE_UNAVAILABLE}
 * and the other methods throw {@link StoreUnavailableException}, never hang (on a cluster a call
 * may retry within about twice the timeout); the connections recover by themselves when Redis is
 * back. On a cluster whose master is down (and not replaced by a replica), only the operations on
 * its partitions fail, and {@link #stats}, which needs every partition.
 *
 * <p><b>Events.</b> One subscriber connection per store, opened by the first {@link #subscribe},
 * listens on {@code P:events} and fans out to local listeners by inbox, on {@link
 * Builder#listenerExecutor}; it reconnects by itself, on a cluster to the next known node. Events
 * published while it is disconnected are lost (Redis pub/sub keeps nothing), so a live page may
 * miss mail that a reload shows.
 *
 * <p>Thread-safe. Each method is one round trip (a delivery: one per partition it reaches, and one
 * more per partition written if another refuses it; stats: one per partition, more while expired
 * entries are due; one more, checking the partition count, before the first and after each lost
 * connection) and O(log n) in Redis per entry added, read or removed. {@link #close} releases the
 * connections.
 */
final class RedisInboxStore implements InboxStore {
  private static final Logger LOG = LoggerFactory.getLogger(RedisInboxStore.class);

  /**
   * Estimated Redis bytes per entry besides its metadata blob: its hash (measured 580 bytes), its
   * key in Redis's key space, its members in the queue (150) and the inbox (40).
   */
  static final int ENTRY_OVERHEAD = 1050;

  /** Estimated Redis bytes per piece besides its stored bytes: its hash (370) and its key. */
  static final int PIECE_OVERHEAD = 500;

  /** Hash slots of a Redis Cluster. */
  static final int SLOTS = 16384;

  private static final byte META_VERSION = 2; // 2 added probability and spam flag; 1 still read
  private static final Base64.Encoder SHA_TEXT = Base64.getUrlEncoder().withoutPadding();

  private final RedisConnections redis;
  private final Duration timeout;
  private final JedisClientConfig subscriberConfig;
  private final byte[] eventsChannel;
  private final String keyPrefix;
  private final byte[] partitionsKey; // P:partitions, the count recorded in Redis
  private final List<byte[]> partitions; // each partition's key prefix, P:{tag}
  private final int inboxCap;
  private final long maxBytes;
  private final long partitionBudget;
  private final long ttlMillis;
  private final InstantSource clock;
  private final boolean stripPlusTags;
  private final BodyCodec codec;
  private final RedisScripts.Script deliverScript;
  private final RedisScripts.Script listScript;
  private final RedisScripts.Script newestScript;
  private final RedisScripts.Script getScript;
  private final RedisScripts.Script deleteScript;
  private final RedisScripts.Script statsScript;
  private final RedisScripts.Script partitionsScript;
  // redis.connectionLosses() when Redis last recorded this store's partition count; -1: not yet
  private volatile long agreedAtLosses = -1;

  private final InboxListeners listeners;
  private final Object subscriberLock = new Object();
  private Subscriber subscriber; // guarded by subscriberLock; started by the first subscribe
  private volatile boolean closed;

  RedisInboxStore(Builder builder) {
    this.redis = RedisConnections.of(builder.redisUrl(), builder.redisTimeout());
    this.timeout = builder.redisTimeout();
    this.subscriberConfig =
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(Math.toIntExact(timeout.toMillis()))
            .socketTimeoutMillis(0) // a subscriber waits for events as long as it takes
            .clientName("burnbox-events")
            .protocol(RedisProtocol.RESP2)
            .build();
    this.eventsChannel = (builder.keyPrefix() + ":events").getBytes(UTF_8);
    this.keyPrefix = builder.keyPrefix();
    this.partitionsKey = (builder.keyPrefix() + ":partitions").getBytes(UTF_8);
    int count = builder.redisPartitions();
    List<byte[]> prefixes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      prefixes.add((builder.keyPrefix() + ":{" + hashTag(i, count) + "}").getBytes(UTF_8));
    }
    this.partitions = List.copyOf(prefixes);
    this.inboxCap = builder.inboxCap();
    this.maxBytes = builder.maxBytes();
    this.partitionBudget = maxBytes / count;
    this.ttlMillis = builder.ttl().toMillis();
    this.clock = builder.clock();
    this.stripPlusTags = builder.stripPlusTags();
    this.listeners = new InboxListeners(builder.listenerExecutor());
    this.codec =
        builder.explicitCodec().orElseGet(() -> ZstdCodec.plain(ZstdCodec.RECOMMENDED_LEVEL));
    this.deliverScript = RedisScripts.Script.of("deliver", RedisScripts.DELIVER);
    this.listScript = RedisScripts.Script.of("list", RedisScripts.LIST);
    this.newestScript = RedisScripts.Script.of("newest", RedisScripts.NEWEST);
    this.getScript = RedisScripts.Script.of("get", RedisScripts.GET);
    this.deleteScript = RedisScripts.Script.of("delete", RedisScripts.DELETE);
    this.statsScript = RedisScripts.Script.of("stats", RedisScripts.STATS);
    this.partitionsScript = RedisScripts.Script.of("partition count", RedisScripts.PARTITIONS);
  }

  /**
   * The partition that holds {@code inbox} (canonical) in a store of {@code count} partitions: a
   * stable hash (murmur3, 32 bits) of the name's UTF-8 bytes, modulo {@code count}, so every node
   * and every release agrees.
   */
  static int partitionOf(InboxName inbox, int count) {
    return Math.floorMod(
        Hashing.murmur3_32_fixed().hashBytes(inbox.value().getBytes(UTF_8)).asInt(), count);
  }

  /**
   * The hash tag of partition {@code index} of {@code count}: {@code p<index>-<salt>} with the
   * first salt whose hash slot lies in the index-th of {@code count} equal ranges of the 16384
   * slots. A cluster whose masters hold equal ranges of slots (as {@code redis-cli --cluster
   * create} makes them) so holds an equal share of the partitions.
   */
  static String hashTag(int index, int count) {
    int from = (int) ((long) index * SLOTS / count);
    int to = (int) ((long) (index + 1) * SLOTS / count);
    for (int salt = 0; ; salt++) {
      String tag = "p" + index + "-" + salt;
      int slot = JedisClusterCRC16.getSlot(tag);
      if (slot >= from && slot < to) {
        return tag;
      }
    }
  }

  private InboxName canonical(InboxName name) {
    Objects.requireNonNull(name, "inbox");
    return stripPlusTags ? name.withoutTag() : name;
  }

  private int partitionOf(InboxName canonical) {
    return partitionOf(canonical, partitions.size());
  }

  private long now() {
    return clock.millis();
  }

  /**
   * Runs {@code script} in partition {@code p}, once Redis has this store's partition count: see
   * {@link #requireAgreedPartitionCount}.
   */
  private Object run(RedisScripts.Script script, int p, List<byte[]> args) {
    requireAgreedPartitionCount();
    String what = partitions.size() == 1 ? script.name() : script.name() + ", partition " + p;
    return redis.run(script, partitions.get(p), args, what, this::requireAgreedPartitionCount);
  }

  // ---- the partition count every store on this Redis and prefix must share ----

  /**
   * {@inheritDoc}
   *
   * <p>Records this store's partition count in Redis ({@code P:partitions}) unless a count is
   * recorded, else compares it with the recorded one. The store also does so by itself before its
   * first operation and again before the first after it lost its connection to Redis (which may
   * have restarted empty, and another node recorded its count since): while the counts differ,
   * every operation fails with {@link StoreUnavailableException} (a delivery is refused with {@link
   * RefusalReason#STORE_UNAVAILABLE}), so no mail is acknowledged that the other nodes cannot list.
   *
   * @throws IllegalStateException if Redis records another count; the message names both
   */
  @Override
  public void checkSharedSettings() {
    long losses = redis.connectionLosses();
    Optional<String> mismatch = partitionCountMismatch();
    if (mismatch.isPresent()) {
      throw new IllegalStateException(mismatch.get());
    }
    agreedAtLosses = losses;
  }

  /**
   * Returns at once if Redis recorded this store's partition count and no connection was lost
   * since; else checks it again.
   *
   * @throws StoreUnavailableException if Redis cannot be reached or records another count
   */
  private void requireAgreedPartitionCount() {
    long losses = redis.connectionLosses();
    if (agreedAtLosses == losses) {
      return;
    }
    Optional<String> mismatch = partitionCountMismatch();
    if (mismatch.isPresent()) {
      throw new StoreUnavailableException(mismatch.get(), null);
    }
    agreedAtLosses = losses;
  }

  /**
   * Records this store's partition count unless Redis has one; a one-line explanation if Redis
   * records another.
   *
   * @throws StoreUnavailableException if Redis cannot be reached
   */
  private Optional<String> partitionCountMismatch() {
    String count = Integer.toString(partitions.size());
    String recorded =
        text(
            redis.run(
                partitionsScript,
                partitionsKey,
                List.of(count.getBytes(UTF_8)),
                partitionsScript.name(),
                () -> {}));
    if (recorded.equals(count)) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            "%s holds a store of %s partitions (key %s:partitions) but this node is set to %s"
                + " (--redis-partitions): give every node the same count, or change it for all:"
                + " stop every node, empty the store (delete the %s:* keys, or FLUSHALL on every"
                + " master) and start them with the new count",
            redis.describe(), recorded, keyPrefix, count, keyPrefix));
  }

  // ---- deliver ----

  /** One piece of a message as the delivery script takes it. */
  private record Piece(byte[] sha, byte[] stored, int rawLength, long cost) {}

  @Override
  public DeliveryResult deliver(IncomingMessage message) {
    Objects.requireNonNull(message, "message");
    Map<InboxName, MessageId> ids = new LinkedHashMap<>();
    Map<Integer, List<InboxName>> byPartition = new LinkedHashMap<>();
    for (InboxName r : message.recipients()) {
      InboxName inbox = canonical(r);
      if (!ids.containsKey(inbox)) {
        int p = partitionOf(inbox);
        ids.put(inbox, MessageId.random(p));
        byPartition.computeIfAbsent(p, k -> new ArrayList<>()).add(inbox);
      }
    }
    byte[] raw = message.rawView();
    List<Piece> pieces = pieces(raw);
    byte[] meta = encodeMeta(message);
    long entryCost = ENTRY_OVERHEAD + meta.length;
    long piecesCost = pieces.stream().mapToLong(Piece::cost).sum();
    for (List<InboxName> group : byPartition.values()) {
      long alone = piecesCost + group.size() * entryCost;
      if (alone > partitionBudget) { // checked before any partition is written
        return tooLarge(raw.length, alone);
      }
    }

    long now = now();
    Map<Integer, List<MessageId>> written = new LinkedHashMap<>(); // by partition
    for (Map.Entry<Integer, List<InboxName>> group : byPartition.entrySet()) {
      List<byte[]> args = new ArrayList<>();
      args.add(eventsChannel);
      args.add(number(now));
      args.add(number(now + ttlMillis));
      args.add(number(inboxCap));
      args.add(number(partitionBudget));
      args.add(number(entryCost));
      args.add(meta);
      args.add(number(pieces.size()));
      for (Piece piece : pieces) {
        args.add(piece.sha());
        args.add(piece.stored());
        args.add(number(piece.rawLength()));
        args.add(number(piece.cost()));
      }
      args.add(number(group.getValue().size()));
      for (InboxName inbox : group.getValue()) {
        args.add(inbox.value().getBytes(UTF_8));
        args.add(ids.get(inbox).value().getBytes(UTF_8));
      }
      List<?> reply;
      try {
        reply = (List<?>) run(deliverScript, group.getKey(), args);
      } catch (StoreUnavailableException e) {
        undo(written);
        return new DeliveryResult.Refused(RefusalReason.STORE_UNAVAILABLE, e.getMessage());
      }
      if ("too-large".equals(text(reply.get(0)))) { // not after the check above; kept as a guard
        undo(written);
        return tooLarge(raw.length, (Long) reply.get(1));
      }
      written.put(group.getKey(), group.getValue().stream().map(ids::get).toList());
    }
    return new DeliveryResult.Delivered(ids);
  }

  /**
   * Where the header block of {@code raw} ends: just after the first empty line (CRLF or LF line
   * ends), or at the end if there is none (the body is then empty).
   */
  static int headerEnd(byte[] raw) {
    for (int i = 0; i + 1 < raw.length; i++) {
      if (raw[i] == '\n') {
        if (raw[i + 1] == '\n') {
          return i + 2;
        }
        if (raw[i + 1] == '\r' && i + 2 < raw.length && raw[i + 2] == '\n') {
          return i + 3;
        }
      }
    }
    return raw.length;
  }

  /**
   * The raw message split after its first empty line into header block and body (one piece if there
   * is no body), each encoded once for every partition the delivery reaches.
   */
  private List<Piece> pieces(byte[] raw) {
    int headerEnd = headerEnd(raw);
    List<byte[]> split = new ArrayList<>(2);
    split.add(Arrays.copyOfRange(raw, 0, headerEnd));
    if (headerEnd < raw.length) {
      split.add(Arrays.copyOfRange(raw, headerEnd, raw.length));
    }
    List<Piece> pieces = new ArrayList<>(2);
    for (byte[] piece : split) {
      byte[] stored = codec.encode(piece);
      pieces.add(
          new Piece(
              SHA_TEXT.encode(Hashing.sha256().hashBytes(piece).asBytes()),
              stored,
              piece.length,
              PIECE_OVERHEAD + stored.length + stored.length / 8));
    }
    return pieces;
  }

  private DeliveryResult tooLarge(int rawLength, long cost) {
    String budget =
        partitions.size() == 1
            ? "the store's budget of " + maxBytes
            : String.format(
                "the budget of one partition, %d (the store's %d over %d partitions)",
                partitionBudget, maxBytes, partitions.size());
    return new DeliveryResult.Refused(
        RefusalReason.TOO_LARGE_FOR_STORE,
        String.format(
            "message of %d bytes would take %d bytes stored, over %s", rawLength, cost, budget));
  }

  /**
   * Deletes the entries that a delivery refused in another partition wrote already, so that no
   * half-delivered message stays for the sender's retry to duplicate: one script per partition, so
   * that a frozen Redis costs the refusal about one timeout per partition written, not one per
   * entry. Best effort: the entries of a partition that cannot be reached now (it failed too) stay,
   * as after any {@link RefusalReason#STORE_UNAVAILABLE}, and are logged once for the partition.
   */
  private void undo(Map<Integer, List<MessageId>> written) {
    for (Map.Entry<Integer, List<MessageId>> partition : written.entrySet()) {
      List<MessageId> entries = partition.getValue();
      try {
        delete(partition.getKey(), entries, false);
      } catch (RuntimeException e) {
        LOG.warn(
            "a refused delivery left {} {} behind in partition {} ({}): {}",
            entries.size(),
            entries.size() == 1 ? "entry" : "entries",
            partition.getKey(),
            entries.stream().map(MessageId::value).collect(Collectors.joining(" ")),
            e.getMessage());
      }
    }
  }

  // ---- reads ----

  @Override
  public InboxPage list(InboxName inbox, int limit, String cursor) {
    InboxName name = canonical(inbox);
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1: " + limit);
    }
    String upper = cursor == null ? "+inf" : Long.toString(parseCursor(cursor));
    List<?> reply =
        (List<?>)
            run(
                listScript,
                partitionOf(name),
                List.of(
                    number(now()),
                    name.value().getBytes(UTF_8),
                    upper.getBytes(UTF_8),
                    number(limit)));
    boolean more = (Long) reply.get(0) == 1;
    List<MessageSummary> page = new ArrayList<>();
    long lastSeq = -1;
    for (int k = 1; k + 2 < reply.size(); k += 3) {
      MessageId id = MessageId.parse(text(reply.get(k)));
      lastSeq = Long.parseLong(text(reply.get(k + 1)));
      page.add(decodeMeta(id, name, (byte[]) reply.get(k + 2)));
    }
    return new InboxPage(
        page, more && lastSeq > 0 ? Optional.of(Long.toString(lastSeq)) : Optional.empty());
  }

  /**
   * {@inheritDoc}
   *
   * <p>Each partition's newest {@code limit}, merged by received time (newest first).
   */
  @Override
  public List<MessageSummary> newest(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1: " + limit);
    }
    List<MessageSummary> all = new ArrayList<>();
    for (int p = 0; p < partitions.size(); p++) {
      List<?> reply = (List<?>) run(newestScript, p, List.of(number(now()), number(limit)));
      for (int k = 0; k + 2 < reply.size(); k += 3) {
        all.add(
            decodeMeta(
                MessageId.parse(text(reply.get(k))),
                InboxName.of(text(reply.get(k + 1))),
                (byte[]) reply.get(k + 2)));
      }
    }
    all.sort(Comparator.comparing(MessageSummary::receivedAt).reversed());
    return all.size() > limit ? List.copyOf(all.subList(0, limit)) : all;
  }

  private static long parseCursor(String cursor) {
    long seq;
    try {
      seq = Long.parseLong(cursor);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("malformed cursor", e);
    }
    if (seq < 1 || !Long.toString(seq).equals(cursor)) {
      throw new IllegalArgumentException("malformed cursor");
    }
    return seq;
  }

  @Override
  public Optional<StoredMessage> get(MessageId id) {
    Objects.requireNonNull(id, "id");
    if (id.route() >= partitions.size()) {
      return Optional.empty(); // not an id of this store: no partition has it
    }
    List<?> reply =
        (List<?>) run(getScript, id.route(), List.of(number(now()), id.value().getBytes(UTF_8)));
    if (reply.isEmpty()) {
      return Optional.empty();
    }
    InboxName inbox = InboxName.of(text(reply.get(0)));
    MessageSummary summary = decodeMeta(id, inbox, (byte[]) reply.get(1));
    ByteArrayOutputStream raw = new ByteArrayOutputStream(summary.size());
    for (int k = 2; k < reply.size(); k++) {
      raw.writeBytes(codec.decode((byte[]) reply.get(k)));
    }
    return Optional.of(new StoredMessage(summary, raw.toByteArray()));
  }

  @Override
  public boolean delete(MessageId id) {
    Objects.requireNonNull(id, "id");
    if (id.route() >= partitions.size()) {
      return false;
    }
    return delete(id.route(), List.of(id), true) == 1;
  }

  /**
   * Deletes entries {@code ids}, all of partition {@code p}, in one script; counted in {@link
   * StoreStats#deletions} if {@code counted}, else taken off the entries delivered. Returns how
   * many existed.
   */
  private long delete(int p, List<MessageId> ids, boolean counted) {
    List<byte[]> args = new ArrayList<>(ids.size() + 2);
    args.add(number(now()));
    args.add(number(counted ? 1 : 0));
    ids.forEach(id -> args.add(id.value().getBytes(UTF_8)));
    return (Long) run(deleteScript, p, args);
  }

  /**
   * The sum of every partition's counters, each read after its sweep. Exact per partition; on a
   * store with several partitions, deliveries that run meanwhile may be counted in some partitions
   * and not yet in others.
   */
  @Override
  public StoreStats stats() {
    long[] sums = new long[11];
    for (int p = 0; p < partitions.size(); p++) {
      List<?> reply = (List<?>) run(statsScript, p, List.of(number(now())));
      while (reply.size() == 1) { // a full sweep batch: more expired entries may be due
        reply = (List<?>) run(statsScript, p, List.of(number(now())));
      }
      for (int k = 0; k < sums.length; k++) {
        sums[k] += (Long) reply.get(k);
      }
    }
    Map<EvictionCause, Long> evictions = new EnumMap<>(EvictionCause.class);
    evictions.put(EvictionCause.INBOX_CAP, sums[4]);
    evictions.put(EvictionCause.MEMORY_BUDGET, sums[5]);
    evictions.put(EvictionCause.TTL, sums[6]);
    // sums: messages, inboxes, raw (distinct), stored (pieces and index), the three eviction
    // counts, logical, encoded (the pieces alone), deletions, entries delivered
    return new StoreStats(
        sums[0],
        sums[1],
        sums[7],
        sums[2],
        sums[8],
        sums[3] - sums[8],
        0,
        codec.retainedBytes(),
        sums[10],
        evictions,
        sums[9]);
  }

  // ---- events ----

  @Override
  public Subscription subscribe(InboxName inbox, Consumer<? super MessageSummary> listener) {
    InboxName name = canonical(inbox);
    Objects.requireNonNull(listener, "listener");
    startSubscriber();
    return listeners.add(name, listener);
  }

  private void startSubscriber() {
    Subscriber s;
    synchronized (subscriberLock) {
      if (closed) {
        throw new IllegalStateException("store is closed");
      }
      if (subscriber == null) {
        subscriber = new Subscriber();
        Thread.ofPlatform().daemon().name("burnbox-redis-events").start(subscriber);
      }
      s = subscriber;
    }
    try {
      if (!s.firstConnection.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new StoreUnavailableException(
            redis.describe() + " did not confirm the event subscription in " + timeout, null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException("interrupted while subscribing to events", e);
    }
  }

  private void dispatch(byte[] payload) {
    int first = indexOf(payload, 0);
    int second = indexOf(payload, first + 1);
    if (first < 0 || second < 0) {
      LOG.warn("ignored a malformed event");
      return;
    }
    InboxName inbox = InboxName.of(new String(payload, first + 1, second - first - 1, UTF_8));
    if (!listeners.follows(inbox)) {
      return;
    }
    MessageId id = MessageId.parse(new String(payload, 0, first, UTF_8));
    listeners.publish(
        decodeMeta(id, inbox, Arrays.copyOfRange(payload, second + 1, payload.length)));
  }

  private static int indexOf(byte[] bytes, int from) {
    for (int i = Math.max(from, 0); i < bytes.length; i++) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /**
   * The event connection: subscribes, dispatches, and reconnects until the store is closed, waiting
   * {@value #FIRST_RETRY_MILLIS} ms after the first failure and twice as long after each next, up
   * to {@value #MAX_RETRY_MILLIS} ms. On a cluster, which broadcasts every PUBLISH to all its
   * nodes, it listens on any one node and moves to the next known node when that one fails.
   *
   * <p>Logs one line when the subscription is lost, at most one more per {@value
   * #LOG_WINDOW_SECONDS} s while it stays lost (how many attempts failed), and one when it is back.
   */
  private final class Subscriber extends BinaryJedisPubSub implements Runnable {
    static final long FIRST_RETRY_MILLIS = 100;
    static final long MAX_RETRY_MILLIS = 5_000;
    static final long LOG_WINDOW_SECONDS = 10;

    final CountDownLatch firstConnection = new CountDownLatch(1);
    // the subscriber thread's own (onSubscribe runs on it too)
    private HostAndPort node;
    private long retryMillis = FIRST_RETRY_MILLIS;
    private int failedAttempts; // since the subscription was last confirmed
    private long lostAtNanos;
    private long loggedAtNanos;

    @Override
    public void run() {
      int attempt = 0;
      while (!closed) {
        List<HostAndPort> nodes = redis.subscriberNodes();
        node = nodes.get(attempt++ % nodes.size());
        try (Jedis jedis = new Jedis(node, subscriberConfig)) {
          jedis.subscribe(this, eventsChannel);
        } catch (RuntimeException e) {
          if (closed) {
            return;
          }
          failed(e);
        }
        try {
          Thread.sleep(retryMillis);
        } catch (InterruptedException e) {
          return;
        }
        retryMillis = Math.min(retryMillis * 2, MAX_RETRY_MILLIS);
      }
    }

    private void failed(RuntimeException e) {
      long now = System.nanoTime();
      if (failedAttempts++ == 0) {
        lostAtNanos = now;
        loggedAtNanos = now;
        LOG.warn(
            "Redis event subscription at {} lost ({}); retrying, at most every {} ms: live pages"
                + " miss new mail until it is back",
            node,
            e.getMessage(),
            MAX_RETRY_MILLIS);
      } else if (now - loggedAtNanos >= TimeUnit.SECONDS.toNanos(LOG_WINDOW_SECONDS)) {
        loggedAtNanos = now;
        LOG.warn(
            "Redis event subscription still lost after {} attempts in {} s (at {}: {})",
            failedAttempts,
            TimeUnit.NANOSECONDS.toSeconds(now - lostAtNanos),
            node,
            e.getMessage());
      }
    }

    @Override
    public void onSubscribe(byte[] channel, int subscribedChannels) {
      firstConnection.countDown();
      retryMillis = FIRST_RETRY_MILLIS; // a subscription lost later is retried at once again
      if (failedAttempts > 0) {
        LOG.info(
            "Redis event subscription back at {} after {} failed attempts in {} s",
            node,
            failedAttempts,
            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - lostAtNanos));
        failedAttempts = 0;
      }
      if (closed) {
        unsubscribe(); // closed while connecting: end here, or run() would block on it forever
      }
    }

    @Override
    public void onMessage(byte[] channel, byte[] message) {
      try {
        dispatch(message);
      } catch (RuntimeException e) {
        LOG.warn("could not dispatch an event", e);
      }
    }
  }

  /** Closes the connections and stops the event subscriber. Idempotent. */
  @Override
  public void close() {
    Subscriber s;
    synchronized (subscriberLock) {
      if (closed) {
        return;
      }
      closed = true;
      s = subscriber;
    }
    if (s != null && s.isSubscribed()) {
      try {
        s.unsubscribe();
      } catch (RuntimeException e) {
        LOG.debug("event unsubscribe failed on close", e);
      }
    }
    redis.close();
  }

  // ---- Redis calls ----

  private static byte[] number(long n) {
    return Long.toString(n).getBytes(UTF_8);
  }

  private static String text(Object reply) {
    return new String((byte[]) reply, UTF_8);
  }

  // ---- metadata blob ----

  private static byte[] encodeMeta(IncomingMessage m) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(META_VERSION);
      writeString(out, m.envelopeSender());
      writeString(out, m.from());
      writeString(out, m.subject());
      out.writeLong(m.receivedAt().getEpochSecond());
      out.writeInt(m.receivedAt().getNano());
      out.writeInt(m.rawView().length);
      out.writeDouble(m.verdict().score());
      out.writeInt(m.verdict().terms().size());
      for (String term : m.verdict().terms()) {
        writeString(out, term);
      }
      out.writeDouble(m.verdict().probability());
      out.writeBoolean(m.verdict().spam());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array stream does not throw
    }
    return bytes.toByteArray();
  }

  private static MessageSummary decodeMeta(MessageId id, InboxName inbox, byte[] blob) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(blob))) {
      byte version = in.readByte();
      if (version != META_VERSION && version != 1) {
        throw new IllegalStateException("entry metadata has unknown version " + version);
      }
      String sender = readString(in);
      String from = readString(in);
      String subject = readString(in);
      Instant receivedAt = Instant.ofEpochSecond(in.readLong(), in.readInt());
      int size = in.readInt();
      double score = in.readDouble();
      int termCount = in.readInt();
      List<String> terms = new ArrayList<>(termCount);
      for (int i = 0; i < termCount; i++) {
        terms.add(readString(in));
      }
      SpamVerdict verdict =
          version == 1
              ? SpamVerdict.ofScore(terms, score)
              : new SpamVerdict(terms, score, in.readDouble(), in.readBoolean());
      return new MessageSummary(id, inbox, sender, from, subject, receivedAt, size, verdict);
    } catch (IOException e) {
      throw new IllegalStateException("entry metadata is damaged", e);
    }
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    byte[] bytes = s.getBytes(UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String readString(DataInputStream in) throws IOException {
    return new String(in.readNBytes(in.readInt()), UTF_8);
  }
}
