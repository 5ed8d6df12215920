package dev.burnbox.server;

import dev.burnbox.server.config.OptionRecord;
import dev.burnbox.server.config.OptionValues;
import dev.burnbox.server.config.WhenUnset;
import dev.burnbox.server.mime.MimeSettings;
import dev.burnbox.server.pipeline.PipelineSettings;
import dev.burnbox.server.smtp.IntakeSettings;
import dev.burnbox.server.web.MetricsEndpoint;
import dev.burnbox.server.web.WebLimits;
import dev.burnbox.server.web.WebSettings;
import dev.burnbox.server.web.Webhooks;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Everything {@link BurnboxService} is configured with: the options of the whole service (where it
 * listens, how long it takes to stop), and one slice per part, each declared beside the code it
 * configures. Every component is an option of {@code burnbox serve} or a slice of them, declared
 * once (see {@link OptionRecord}): {@code serve}, the embedded service ({@link #of}, {@link
 * #builder()}) and tests build it from the same declarations and defaults.
 *
 * <p>Immutable. Guarantees, checked at construction, besides each slice's own: the SMTP, web and
 * metrics ports differ where they listen on one address (0 picks a free one for each); a Redis
 * partition's share of the store's byte budget holds the largest message (which the store would
 * otherwise refuse as too large after SMTP accepted its size).
 *
 * @param bind where both servers listen; null for every interface
 * @param shutdownGrace how long in-flight sessions may take to finish on shutdown
 * @param smtp the SMTP intake's settings
 * @param web the web port's settings
 * @param store the inbox store's settings
 * @param pipeline the spam model, verdict and subject flood ban
 * @param mime bounds on MIME decoding
 * @param webhooks where each delivered message is posted
 */
public record ServiceSettings(
    @Option(
            names = "--bind",
            paramLabel = "ADDRESS",
            converter = OptionValues.Addresses.class,
            description = "address both servers listen on")
        @WhenUnset("every interface")
        InetAddress bind,
    @Option(
            names = "--shutdown-grace",
            paramLabel = "DURATION",
            defaultValue = "30s",
            converter = OptionValues.Durations.class,
            description = "how long sessions in flight may finish on SIGTERM")
        Duration shutdownGrace,
    @Mixin IntakeSettings smtp,
    @Mixin WebSettings web,
    @Mixin StoreSettings store,
    @Mixin PipelineSettings pipeline,
    @Mixin MimeSettings mime,
    @Mixin Webhooks.Settings webhooks) {

  /**
   * Works out {@code --store-max-bytes=auto}: {@link MemoryPlan#storeBudget} from this JVM's heap
   * and the intake's limits for the memory store, {@value #REDIS_DEFAULT_MAX_BYTES} bytes for
   * Redis.
   *
   * @throws IllegalArgumentException if two servers would listen on one port, a Redis partition's
   *     share of the budget is below the largest message, or a private domain is not served
   */
  public ServiceSettings {
    if (store.storeMaxBytes() == OptionValues.AUTO_BYTES) {
      store =
          store.withMaxBytes(
              store.store() == StoreSettings.StoreKind.REDIS
                  ? REDIS_DEFAULT_MAX_BYTES
                  : MemoryPlan.storeBudget(
                      smtp.maxInflightBytes(),
                      smtp.maxConnections(),
                      Runtime.getRuntime().maxMemory()));
    }
    requireOwnPort("--http-port", web.port(), "--smtp-port", smtp.port(), true);
    MetricsEndpoint metrics = web.metrics();
    if (metrics.where() == MetricsEndpoint.Where.OWN_PORT) {
      boolean sameAddress =
          bind == null
              || bind.isAnyLocalAddress()
              || metrics.bindAddress().isAnyLocalAddress()
              || bind.equals(metrics.bindAddress());
      requireOwnPort("--metrics-port", metrics.port(), "--smtp-port", smtp.port(), sameAddress);
      requireOwnPort("--metrics-port", metrics.port(), "--http-port", web.port(), sameAddress);
    }
    for (String domain : web.privateDomains().domains()) {
      if (!smtp.serves(domain)) {
        throw new IllegalArgumentException(
            "--private-domains: " + domain + " is not one of --domains " + smtp.domains());
      }
    }
    long share = store.storeMaxBytes() / store.redisPartitions();
    if (store.store() == StoreSettings.StoreKind.REDIS && share < smtp.maxMessageSize()) {
      throw new IllegalArgumentException(
          String.format(
              "each of the %d Redis partitions gets %d bytes of the store's budget, less than the"
                  + " largest message (%d): raise --store-max-bytes or lower --redis-partitions",
              store.redisPartitions(), share, smtp.maxMessageSize()));
    }
  }

  /**
   * Refuses {@code port} of {@code option} if it is {@code otherOption}'s {@code other} on an
   * address both listen on: the second server would fail to bind at start. 0 picks a free port for
   * each, so it never clashes.
   */
  private static void requireOwnPort(
      String option, int port, String otherOption, int other, boolean sameAddress) {
    if (port != 0 && port == other && sameAddress) {
      throw new IllegalArgumentException(
          option + " must differ from " + otherOption + ": both are " + port);
    }
  }

  /** {@code --store-max-bytes=auto} with the Redis store, whose mail is not in this heap. */
  static final long REDIS_DEFAULT_MAX_BYTES = 256L << 20;

  /**
   * These options given (as on {@code burnbox serve}'s command line; a later one wins), every other
   * at its default; no environment.
   *
   * @throws IllegalArgumentException if an option is unknown or a value invalid; the message names
   *     the option
   */
  public static ServiceSettings of(String... options) {
    return OptionRecord.parse(ServiceSettings.class, options);
  }

  /** A builder of options, starting from none (every setting at its default). */
  public static Builder builder() {
    return new Builder();
  }

  /** The web port's limits, with the SMTP side's trusted networks exempt. */
  public WebLimits webLimits() {
    return web.limits(smtp.trustedNetworks());
  }

  /** Collects options for {@link ServiceSettings#of}; a later one wins. Not thread-safe. */
  public static final class Builder {
    private final List<String> options = new ArrayList<>();

    private Builder() {}

    /** Adds options as on the command line, e.g. {@code with("--inbox-cap=5", "--spam=reject")}. */
    public Builder with(String... more) {
      options.addAll(List.of(more));
      return this;
    }

    /**
     * @throws IllegalArgumentException as {@link ServiceSettings#of} does
     */
    public ServiceSettings build() {
      return of(options.toArray(String[]::new));
    }
  }
}
