package dev.burnbox.server;

import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.server.config.OptionCatalog;
import dev.burnbox.server.config.OptionValues;
import dev.burnbox.server.config.WhenUnset;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The inbox store's options of {@code burnbox serve}, each declared once here (see {@link
 * OptionCatalog}); {@link ServiceSettings#builder()} starts from their defaults, which are also
 * {@link InboxStore.Builder}'s (a test holds them equal). A picocli mixin; not thread-safe until
 * parsed.
 */
final class StoreOptions {
  private static final StoreOptions DEFAULTS = OptionCatalog.defaults(new StoreOptions());

  @Option(
      names = "--inbox-cap",
      paramLabel = "N",
      defaultValue = "50",
      description = "messages per inbox; the inbox's oldest goes first")
  int inboxCap;

  @Option(
      names = "--store-max-bytes",
      paramLabel = "BYTES",
      defaultValue = "256MiB",
      converter = OptionValues.Bytes.class,
      description =
          "the store's memory budget (stored bodies plus index); the oldest mail in the store goes"
              + " first; a message that can never fit gets 552")
  long storeMaxBytes;

  @Option(
      names = "--ttl",
      paramLabel = "DURATION",
      defaultValue = "24h",
      converter = OptionValues.Durations.class,
      description = "how long mail is kept")
  Duration ttl;

  @Option(
      names = "--strip-plus-tags",
      defaultValue = "false",
      description = "deliver `bob+news@` to inbox `bob` (by default `bob+news` is its own inbox)")
  boolean stripPlusTags;

  @Option(
      names = "--snapshot",
      paramLabel = "FILE",
      description =
          "save the store to FILE on shutdown and restore it at start (ids and expiry times kept);"
              + " a damaged or foreign file is logged and the store starts empty")
  @WhenUnset("none")
  Path snapshot;

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
  StoreKind store;

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
  URI redisUrl;

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
              + " must use the same N")
  int redisPartitions;

  /** Where mail is kept. */
  enum StoreKind {
    MEMORY,
    REDIS
  }

  /** These options without a command line or environment: every one at its default. */
  static StoreOptions defaults() {
    return DEFAULTS;
  }

  /** Sets every option's value on {@code builder} and returns it. */
  ServiceSettings.Builder applyTo(ServiceSettings.Builder builder) {
    return builder
        .inboxCap(inboxCap)
        .storeMaxBytes(storeMaxBytes)
        .ttl(ttl)
        .stripPlusTags(stripPlusTags)
        .snapshotFile(snapshot)
        .redisUrl(store == StoreKind.REDIS ? redisUrl : null)
        .redisPartitions(redisPartitions);
  }
}
