package dev.burnbox.server;

import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.server.config.OptionRecord;
import dev.burnbox.server.config.OptionValues;
import dev.burnbox.server.config.WhenUnset;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import picocli.CommandLine.Option;

/**
 * The inbox store's settings: each component is an option of {@code burnbox serve}, declared here
 * once (see {@link OptionRecord}); their defaults are also {@link InboxStore.Builder}'s (a test
 * holds them equal) except {@code --store-max-bytes}, whose {@code auto} {@link ServiceSettings}
 * sizes from the heap, and {@link #builder()} hands them to it. Immutable; make one with {@link
 * #of}. Guarantees, checked at construction: the store builder takes every value (the inbox cap at
 * least 1, a positive time to live, 1 to 256 Redis partitions, and with {@code --store=redis} a URL
 * it can use; the builder's own checks, so that the settings refuse what the store would), the byte
 * budget is at least {@link #MIN_MAX_BYTES}, and a snapshot file goes with the memory store only (a
 * snapshot saves the memory store). The Redis URL's password is never shown by {@link #toString()}.
 */
public record StoreSettings(
    @Option(
            names = "--inbox-cap",
            paramLabel = "N",
            defaultValue = "50",
            description = "messages per inbox; the inbox's oldest goes first")
        int inboxCap,
    @Option(
            names = "--store-max-bytes",
            paramLabel = "BYTES",
            defaultValue = "auto",
            converter = OptionValues.BytesOrAuto.class,
            description =
                "the store's memory budget (stored bodies plus index); the oldest mail in the store goes"
                    + " first; a message that can never fit gets 552. `auto`: with the memory store,"
                    + " what leaves every limit's worst case (this budget, `--max-inflight-bytes`,"
                    + " 48 KiB per `--max-connections`, for the rest 32 MiB and the web's read budget"
                    + " of 1/64 of the heap, at least 16 MiB) at three quarters of the heap, at least"
                    + " 32 MiB: 866 MiB in `-Xmx2g`; with Redis, 256MiB. At least 1MiB, which leaves"
                    + " most of it for mail beside the store's own tables and compression buffers")
        long storeMaxBytes,
    @Option(
            names = "--ttl",
            paramLabel = "DURATION",
            defaultValue = "24h",
            converter = OptionValues.Durations.class,
            description = "how long mail is kept")
        Duration ttl,
    @Option(
            names = "--strip-plus-tags",
            defaultValue = "false",
            description =
                "deliver `bob+news@` to inbox `bob` (by default `bob+news` is its own inbox)")
        boolean stripPlusTags,
    @Option(
            names = "--no-idle-recompression",
            defaultValue = "false",
            description =
                "leave stored mail in the form it came in; by default, while the rest of the service"
                    + " leaves the CPU idle, one thread recompresses it at zstd level 19 (about 5%%"
                    + " smaller; at most a third of one core, none while the intake is busy; memory"
                    + " store only)")
        boolean noIdleRecompression,
    @Option(
            names = "--snapshot",
            paramLabel = "FILE",
            description =
                "save the store to FILE on shutdown and restore it at start (ids and expiry times kept);"
                    + " FILE's folder must be writable at start; a damaged or foreign file is moved"
                    + " aside to FILE.unreadable-SECONDS, never overwritten, and the store starts"
                    + " empty")
        @WhenUnset("none")
        Path snapshot,
    @Option(
            names = "--store",
            paramLabel = "memory|redis",
            defaultValue = "memory",
            description =
                "where mail is kept: in this process, or in Redis, shared by every node given the same"
                    + " `--redis-url` (the limits above apply to the whole Redis store, split over"
                    + " `--redis-partitions`; `--snapshot` is for memory only). Redis down or slower"
                    + " than 2 s: SMTP answers 451 4.3.0 (the sender retries) and the web 503; it"
                    + " recovers by itself. Give Redis `maxmemory` about 1.5x `--store-max-bytes` with"
                    + " `maxmemory-policy noeviction`")
        StoreKind store,
    @Option(
            names = "--redis-url",
            paramLabel = "URL",
            defaultValue = "redis://localhost:6379",
            description =
                "the Redis (7 or newer) of `--store=redis`: one server or a primary,"
                    + " `redis://host:port`, or a Redis Cluster through its seed nodes,"
                    + " `redis-cluster://host:port,host:port,...` (see"
                    + " [docs/deploy.md](docs/deploy.md#redis-cluster)); no password, database number"
                    + " or TLS yet")
        URI redisUrl,
    @Option(
            names = "--redis-partitions",
            paramLabel = "N",
            defaultValue = "16",
            description =
                "the Redis store is split into N partitions (1 to 256), each under its own hash tag so a"
                    + " cluster spreads them over its masters; an inbox lives in one. Each partition has"
                    + " `--store-max-bytes`/N (evicting its own oldest mail first; at least"
                    + " `--max-message-size`), stores a body shared by inboxes of several partitions"
                    + " once in each, and takes a delivery atomically for its inboxes only. All nodes"
                    + " must use the same N: the first records it in Redis, and a node of another N"
                    + " refuses to start (started while Redis is down: answers 451 and 503 once it"
                    + " can tell)")
        int redisPartitions) {

  /**
   * The least {@code --store-max-bytes}: 1 MiB. Part of the memory store's budget goes to the store
   * itself, whatever it holds: the compression's sample reservoir (an eighth of the budget) and its
   * trained dictionaries (up to as much again, but at least 1 KiB each: 16 KiB for 16), the
   * near-duplicate index (1/256 of the budget, at least 2.2 KB), the decoded-mail cache (at most
   * 1/256) and the lookup tables (128 bytes empty). The empty store is over a budget below about 3
   * KiB, which then refuses every message (552) or holds one at a time. At 1 MiB the empty store
   * takes 135 KB, the fixed floors are under 2% of the budget and the shares leave at least 70% of
   * it for mail: some 700 mails of 1.5 KB of random text. The Redis store's own costs are smaller;
   * one floor keeps the option's meaning the same for both. ({@code auto} gives at least 32 MiB.)
   */
  static final long MIN_MAX_BYTES = 1L << 20;

  /** Where mail is kept. */
  public enum StoreKind {
    MEMORY,
    REDIS
  }

  /**
   * @throws IllegalArgumentException if a value is invalid (see the type's guarantees); the message
   *     begins with the option's name
   */
  public StoreSettings {
    Objects.requireNonNull(store, "--store");
    if (snapshot != null && store == StoreKind.REDIS) {
      throw new IllegalArgumentException("--snapshot is for the memory store, not --store=redis");
    }
    storeBuilder(inboxCap, storeMaxBytes, ttl, stripPlusTags, store, redisUrl, redisPartitions);
  }

  /**
   * These options given, every other at its default.
   *
   * @throws IllegalArgumentException if an option is unknown or a value invalid
   */
  public static StoreSettings of(String... options) {
    return OptionRecord.parse(StoreSettings.class, options);
  }

  /** Hides a password in the Redis URL. */
  @Override
  public String toString() {
    return OptionRecord.describe(this);
  }

  /** These settings with {@code --store-max-bytes} set to {@code bytes}. */
  StoreSettings withMaxBytes(long bytes) {
    return new StoreSettings(
        inboxCap,
        bytes,
        ttl,
        stripPlusTags,
        noIdleRecompression,
        snapshot,
        store,
        redisUrl,
        redisPartitions);
  }

  /**
   * A store builder with these settings (Redis's URL only for {@link StoreKind#REDIS}).
   *
   * @throws IllegalStateException if {@code --store-max-bytes} is still {@code auto}: {@link
   *     ServiceSettings} works it out
   */
  public InboxStore.Builder builder() {
    if (storeMaxBytes == OptionValues.AUTO_BYTES) {
      throw new IllegalStateException("--store-max-bytes=auto is worked out by ServiceSettings");
    }
    return storeBuilder(
        inboxCap, storeMaxBytes, ttl, stripPlusTags, store, redisUrl, redisPartitions);
  }

  /**
   * A store builder with these values, which it checks as it takes them (the store's own limits,
   * the Redis URL of the Redis store); the constructor makes one so that the settings refuse what
   * the store would. {@code --store-max-bytes=auto} is left at the builder's default.
   *
   * @throws IllegalArgumentException if the builder refuses a value; the message begins with the
   *     option's name
   */
  private static InboxStore.Builder storeBuilder(
      int inboxCap,
      long storeMaxBytes,
      Duration ttl,
      boolean stripPlusTags,
      StoreKind store,
      URI redisUrl,
      int redisPartitions) {
    InboxStore.Builder builder = InboxStore.builder().stripPlusTags(stripPlusTags);
    take("--inbox-cap", () -> builder.inboxCap(inboxCap));
    if (storeMaxBytes != OptionValues.AUTO_BYTES) {
      if (storeMaxBytes < MIN_MAX_BYTES) {
        throw new IllegalArgumentException(
            "--store-max-bytes: must be at least 1MiB ("
                + MIN_MAX_BYTES
                + " bytes), which holds the store's own tables and buffers and leaves room for"
                + " mail: "
                + storeMaxBytes);
      }
      take("--store-max-bytes", () -> builder.maxBytes(storeMaxBytes));
    }
    take("--ttl", () -> builder.ttl(ttl));
    take("--redis-partitions", () -> builder.redisPartitions(redisPartitions));
    if (store == StoreKind.REDIS) {
      take("--redis-url", () -> builder.redisUrl(Objects.requireNonNull(redisUrl, "--redis-url")));
    }
    return builder;
  }

  /** Runs {@code setter}; its refusal of the value of {@code option} names the option. */
  private static void take(String option, Runnable setter) {
    try {
      setter.run();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
    }
  }
}
