package dev.burnbox.mailstore;

import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Bounded, deduplicated inboxes of received mail: the contract every backend honours.
 *
 * <p>A delivered message is stored once and listed in each recipient inbox; each listing (an
 * <em>entry</em>) has its own {@link MessageId}, and the stored body goes when its last entry goes.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>Thread-safe. A delivery is atomic: readers see all of its entries or none, never a partial
 *       message (a Redis store in several partitions promises this within each partition: see
 *       {@link Builder#redisPartitions}). Entries of one inbox are listed in delivery order, newest
 *       first.
 *   <li>Bounded by three limits, each documented on {@link Builder}: a per-inbox cap (the inbox's
 *       oldest entry goes first), a byte budget (the oldest entry in the whole store goes first)
 *       and a time to live. Every removal not asked for by {@link #delete} is counted in {@link
 *       #stats()} by {@link EvictionCause}.
 *   <li>Nothing is silently dropped: a message that can never fit is {@linkplain
 *       DeliveryResult.Refused refused}; a message answered as {@linkplain DeliveryResult.Delivered
 *       delivered} is retrievable until deleted or evicted by those limits.
 * </ul>
 *
 * <p>Costs depend on the backend; the memory backend's are O(log n) per entry added, read or
 * removed plus the bytes copied, with n the entries held.
 *
 * <p>Names given to any method are normalized the same way (for instance {@code +tag}s stripped
 * when the store is so configured), so {@code list}, {@code subscribe} and {@code deliver} agree.
 */
public interface InboxStore extends AutoCloseable {

  /**
   * A builder with the documented defaults: the in-memory store unless {@link Builder#redisUrl}
   * names a Redis.
   */
  static Builder builder() {
    return new Builder();
  }

  /** A builder for the in-memory store, with the documented defaults: {@link #builder()}. */
  static Builder memory() {
    return builder();
  }

  /**
   * A builder for a store in the Redis server at {@code url} ({@code redis://host:port}) or in the
   * Redis Cluster found through the seed nodes of {@code redis-cluster://host:port,host:port,...},
   * with the same limits and defaults as the memory store; see {@link Builder#keyPrefix}, {@link
   * Builder#redisTimeout} and {@link Builder#redisPartitions} for its own settings. Needs Redis 7
   * or newer. The store does not connect on build: each operation connects as needed (see {@link
   * StoreUnavailableException}).
   *
   * @throws NullPointerException if {@code url} is null
   * @throws IllegalArgumentException if {@code url} is neither {@code redis://host[:port]} nor
   *     {@code redis-cluster://host[:port],...} (no password, database or TLS yet)
   */
  static Builder redis(URI url) {
    return builder().redisUrl(Objects.requireNonNull(url, "url"));
  }

  /**
   * Stores {@code message} and lists it in each of its (distinct) recipient inboxes, evicting old
   * entries as the limits require. New-message events go to the recipients' subscribers after the
   * message is visible to readers.
   *
   * @return {@link DeliveryResult.Delivered} with each inbox's new id, or {@link
   *     DeliveryResult.Refused} if nothing was stored
   * @throws NullPointerException if {@code message} is null
   */
  DeliveryResult deliver(IncomingMessage message);

  /**
   * One page of {@code inbox}, newest first. Paging is stable: following cursors from a first page
   * returns every entry that existed when that page was read and is still held, each exactly once
   * and in order, however many messages arrive meanwhile (they are newer, so they belong before the
   * first page). An unknown or empty inbox gives an empty page.
   *
   * @param limit the most entries to return, at least 1
   * @param cursor null for the newest page, else a {@link InboxPage#nextCursor()} from this store
   * @throws NullPointerException if {@code inbox} is null
   * @throws IllegalArgumentException if {@code limit} is below 1 or {@code cursor} is malformed
   */
  InboxPage list(InboxName inbox, int limit, String cursor);

  /**
   * The newest entries of the whole store, every inbox together, newest first: at most {@code
   * limit}. What an operator's monitor lists. Newest means latest delivered on one node's store; a
   * store spread over partitions (Redis) orders them by received time, to the millisecond.
   *
   * @throws IllegalArgumentException if {@code limit} is below 1
   */
  List<MessageSummary> newest(int limit);

  /**
   * The entry {@code id} with its raw bytes exactly as received, or empty if there is no such entry
   * (never delivered, deleted or evicted).
   *
   * @throws NullPointerException if {@code id} is null
   */
  Optional<StoredMessage> get(MessageId id);

  /**
   * Removes the entry {@code id} from its inbox; the stored body goes with the last entry that uses
   * it. Not counted as an eviction.
   *
   * @return true if the entry existed
   * @throws NullPointerException if {@code id} is null
   */
  boolean delete(MessageId id);

  /**
   * Calls {@code listener} with each entry delivered to {@code inbox} from now on until the
   * returned subscription is closed. Listeners must be quick and must not block (hand the event to
   * a queue): see {@link Builder#listenerExecutor} for which thread runs them. A listener that
   * throws is logged and stays subscribed; it never affects delivery. Events of concurrent
   * deliveries to one inbox may arrive out of order; each carries its entry's id.
   *
   * @throws NullPointerException if an argument is null
   */
  Subscription subscribe(InboxName inbox, Consumer<? super MessageSummary> listener);

  /** A consistent snapshot of the store's contents and eviction counters. */
  StoreStats stats();

  /**
   * Checks now that the settings every store sharing this one's data must agree on (the Redis
   * store's partition count) agree with those the shared data records, recording them where none
   * are: what a service calls as it starts, to refuse to start rather than split the data. A store
   * that shares nothing (the memory store) has nothing to check: the default does nothing.
   *
   * @throws IllegalStateException if they disagree; the message says with what, and how to change
   *     them
   * @throws StoreUnavailableException if the shared data cannot be reached now (the store checks by
   *     itself once it can, and refuses every operation while they disagree)
   */
  default void checkSharedSettings() {}

  /**
   * Every delivery that still has entries, oldest first, each with only its live entries: what
   * {@link StoreSnapshot#save} writes. Deliveries made during the call may be missed.
   *
   * @throws UnsupportedOperationException if the store keeps its mail outside this process (the
   *     Redis store: Redis has its own persistence), which is the default
   */
  default List<StoredDelivery> deliveries() {
    throw new UnsupportedOperationException(
        getClass().getSimpleName() + " keeps no snapshot; only the in-memory store does");
  }

  /**
   * Stores a saved delivery again with its ids and its stored-at time, as the newest delivery; one
   * that has expired meanwhile is skipped, and the store's limits apply. Restore deliveries oldest
   * first: what {@link StoreSnapshot#restore} does.
   *
   * @return true if it was stored
   * @throws IllegalArgumentException if an id is already in use or the ids do not match the
   *     recipients
   * @throws UnsupportedOperationException as {@link #deliveries()} does
   */
  default boolean restore(StoredDelivery delivery) {
    throw new UnsupportedOperationException(
        getClass().getSimpleName() + " keeps no snapshot; only the in-memory store does");
  }

  /**
   * Re-encodes up to {@code maxMessages} stored messages, oldest delivery first, in the codec's
   * form for mail at rest ({@link BodyCodec#encodeAtRest}, or {@link BodyCodec#encodeAgainstAtRest}
   * for one stored against another) where that is smaller: background work for a quiet moment,
   * which makes room for more mail within the same budget. Each message is looked at once after its
   * delivery; reading it stays as it was (one decode). Safe to call from any thread while the store
   * is in use; the encoding runs outside the store's lock.
   *
   * @return how many messages it looked at: 0 once every message held has been, until more mail
   *     arrives; always 0 if the codec has no such form or the store keeps its mail outside this
   *     process (the default)
   */
  default int settle(int maxMessages) {
    return 0;
  }

  /**
   * Releases what the store holds outside the heap (connections, threads); its contents stay where
   * they are (gone with the JVM for the memory store, kept by Redis for the Redis store).
   * Idempotent; nothing but {@code close} may be called afterwards. Does nothing by default.
   */
  @Override
  default void close() {}

  /**
   * Configures and builds an in-memory {@link InboxStore}. Not thread-safe; each {@link #build()}
   * returns a new, independent store.
   */
  final class Builder {
    /** The default per-inbox cap: {@value}. */
    public static final int DEFAULT_INBOX_CAP = 50;

    /** The default byte budget: 256 MiB. */
    public static final long DEFAULT_MAX_BYTES = 256L << 20;

    /** The default time to live: 24 hours. */
    public static final Duration DEFAULT_TTL = Duration.ofHours(24);

    /** The default prefix of a Redis store's keys: {@value}. */
    public static final String DEFAULT_KEY_PREFIX = "bb";

    /** The default connect and reply timeout of a Redis store: 2 seconds. */
    public static final Duration DEFAULT_REDIS_TIMEOUT = Duration.ofSeconds(2);

    /** The default number of partitions of a Redis store: {@value}. */
    public static final int DEFAULT_REDIS_PARTITIONS = 16;

    private int inboxCap = DEFAULT_INBOX_CAP;
    private long maxBytes = DEFAULT_MAX_BYTES;
    private Duration ttl = DEFAULT_TTL;
    private InstantSource clock = InstantSource.system();
    private boolean stripPlusTags;
    private Executor listenerExecutor = Runnable::run;
    private BodyCodec codec; // null: the default, made per store by build()
    private URI redisUrl; // null: the memory store
    private String keyPrefix = DEFAULT_KEY_PREFIX;
    private Duration redisTimeout = DEFAULT_REDIS_TIMEOUT;
    private int redisPartitions = DEFAULT_REDIS_PARTITIONS;

    Builder() {}

    /**
     * The most entries one inbox holds ({@code --inbox-cap}); delivering to a full inbox evicts its
     * oldest entry ({@link EvictionCause#INBOX_CAP}).
     *
     * @throws IllegalArgumentException if {@code cap} is below 1
     */
    public Builder inboxCap(int cap) {
      if (cap < 1) {
        throw new IllegalArgumentException("inbox cap must be at least 1: " + cap);
      }
      this.inboxCap = cap;
      return this;
    }

    /**
     * The byte budget ({@code --store-max-bytes}): stored (compressed) bodies plus the estimated
     * index overhead of entries, deliveries and inboxes plus the heap the compression holds for
     * itself (up to an eighth of the budget, at most 8 MiB, for its dictionary training; see {@link
     * StoreStats#storedBytes()}). Over it, the oldest entries in the whole store are evicted
     * ({@link EvictionCause#MEMORY_BUDGET}); a message that alone exceeds it is refused ({@link
     * RefusalReason#TOO_LARGE_FOR_STORE}). The budget bounds the store's estimate, not the JVM heap
     * exactly; the estimate errs on the large side (measured 1.1 to 1.5 times the retained heap,
     * with compressed references, i.e. heaps under 32 GiB). The memory backend counts about 1 KB
     * for a message listed in one new inbox, plus its stored body and 2 bytes per character of its
     * metadata. Default 256 MiB.
     *
     * @throws IllegalArgumentException if {@code bytes} is below 1
     */
    public Builder maxBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("max bytes must be at least 1: " + bytes);
      }
      this.maxBytes = bytes;
      return this;
    }

    /**
     * How long an entry is kept after delivery ({@code --ttl}), measured on {@link #clock}. Expired
     * entries disappear from every read at once ({@link EvictionCause#TTL}).
     *
     * @throws NullPointerException if {@code ttl} is null
     * @throws IllegalArgumentException if {@code ttl} is zero or negative
     */
    public Builder ttl(Duration ttl) {
      Objects.requireNonNull(ttl, "ttl");
      if (ttl.isZero() || ttl.isNegative()) {
        throw new IllegalArgumentException("ttl must be positive: " + ttl);
      }
      this.ttl = ttl;
      return this;
    }

    /**
     * The time source for the time to live; the system clock by default. Tests pass a fake.
     *
     * @throws NullPointerException if {@code clock} is null
     */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Whether {@code bob+news} is delivered to and read from inbox {@code bob}; false by default.
     */
    public Builder stripPlusTags(boolean strip) {
      this.stripPlusTags = strip;
      return this;
    }

    /**
     * Where listeners run. By default they run on the delivering thread, after the store's lock is
     * released and after the delivery is visible, one after another; a listener's exception is
     * caught and logged. Pass an executor to take them off the delivering thread.
     *
     * @throws NullPointerException if {@code executor} is null
     */
    public Builder listenerExecutor(Executor executor) {
      this.listenerExecutor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * How bodies are stored. By default each store gets its own adaptive zstd codec at {@link
     * ZstdCodec#INTAKE_LEVEL} (re-encoded at {@link ZstdCodec#REST_LEVEL} by {@link
     * InboxStore#settle}) whose dictionary trainer is scaled to the budget ({@link
     * DictionaryTrainer.Policy#forBudget}) and trains on a short-lived daemon platform thread per
     * training, never on the delivering one (a platform thread because zstd trains in native code,
     * which would pin a virtual thread's carrier for the whole training). A Redis store uses plain
     * zstd by default; its codec must decode what any node wrote, so no trained dictionaries.
     *
     * @throws NullPointerException if {@code codec} is null
     */
    public Builder codec(BodyCodec codec) {
      this.codec = Objects.requireNonNull(codec, "codec");
      return this;
    }

    /**
     * Redis store only: the prefix of every key, so that several stores (or other data) share one
     * Redis; the nodes of one service must use the same. Default {@value #DEFAULT_KEY_PREFIX}.
     *
     * @throws IllegalArgumentException unless 1 to 64 characters of {@code [A-Za-z0-9._-]}
     */
    public Builder keyPrefix(String prefix) {
      Objects.requireNonNull(prefix, "prefix");
      if (!prefix.matches("[A-Za-z0-9._-]{1,64}")) {
        throw new IllegalArgumentException(
            "key prefix must be 1 to 64 characters of [A-Za-z0-9._-]: " + prefix);
      }
      this.keyPrefix = prefix;
      return this;
    }

    /**
     * Redis store only: how long connecting and each reply may take before the operation fails
     * ({@link RefusalReason#STORE_UNAVAILABLE} for a delivery, {@link StoreUnavailableException}
     * otherwise). Default 2 seconds.
     *
     * @throws IllegalArgumentException unless between 1 ms and 1 minute
     */
    public Builder redisTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.toMillis() < 1 || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
        throw new IllegalArgumentException("redis timeout must be 1 ms to 1 min: " + timeout);
      }
      this.redisTimeout = timeout;
      return this;
    }

    /**
     * Where the store keeps its mail: null (the default) in this process, else the Redis server
     * ({@code redis://host:port}) or Redis Cluster ({@code redis-cluster://host:port,...}) at
     * {@code url}; see {@link InboxStore#redis}. Checked here, connecting nowhere, so that a bad
     * URL is refused with the other settings.
     *
     * @throws IllegalArgumentException unless null, {@code redis://host[:port]} or {@code
     *     redis-cluster://host[:port],...} (no password, database or TLS yet); the message shows
     *     the URL with its password hidden
     */
    public Builder redisUrl(URI url) {
      if (url != null) {
        RedisConnections.nodes(url);
      }
      this.redisUrl = url;
      return this;
    }

    /**
     * Redis store only: how many partitions the store is split into, each a complete store under
     * its own hash tag holding the inboxes whose names hash to it, so that a Redis Cluster spreads
     * them over its masters (see the Redis store's documentation). Each partition gets an equal
     * share of {@link #maxBytes} and evicts its own oldest entries, and stores a body shared by
     * inboxes in different partitions once in each; a delivery to inboxes of several partitions is
     * atomic within each partition only. 1 keeps every guarantee store-wide (and the whole store on
     * one cluster master). The nodes of one service must use the same count: the first store
     * records its count in Redis, and a store of another count refuses to work ({@link
     * InboxStore#checkSharedSettings}); changing it needs an empty store. Default {@value
     * #DEFAULT_REDIS_PARTITIONS}.
     *
     * @throws IllegalArgumentException unless 1 to 256
     */
    public Builder redisPartitions(int partitions) {
      if (partitions < 1 || partitions > 256) {
        throw new IllegalArgumentException("redis partitions must be 1 to 256: " + partitions);
      }
      this.redisPartitions = partitions;
      return this;
    }

    int redisPartitions() {
      return redisPartitions;
    }

    URI redisUrl() {
      return redisUrl;
    }

    String keyPrefix() {
      return keyPrefix;
    }

    Duration redisTimeout() {
      return redisTimeout;
    }

    /** The codec set by {@link #codec(BodyCodec)}, if any. */
    Optional<BodyCodec> explicitCodec() {
      return Optional.ofNullable(codec);
    }

    int inboxCap() {
      return inboxCap;
    }

    long maxBytes() {
      return maxBytes;
    }

    Duration ttl() {
      return ttl;
    }

    InstantSource clock() {
      return clock;
    }

    boolean stripPlusTags() {
      return stripPlusTags;
    }

    Executor listenerExecutor() {
      return listenerExecutor;
    }

    /** The codec set, or a new default one. */
    BodyCodec codec() {
      if (codec != null) {
        return codec;
      }
      return ZstdCodec.adaptive(
          ZstdCodec.INTAKE_LEVEL,
          DictionaryTrainer.Policy.forBudget(maxBytes),
          task -> Thread.ofPlatform().daemon().name("zstd-dictionary-training").start(task));
    }

    /** A new store with these settings: in memory, or in Redis if {@link #redisUrl} names one. */
    public InboxStore build() {
      return redisUrl == null ? new MemoryInboxStore(this) : new RedisInboxStore(this);
    }
  }
}
