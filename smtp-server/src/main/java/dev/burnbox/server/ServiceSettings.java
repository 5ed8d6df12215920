package dev.burnbox.server;

import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.server.mime.MimeLimits;
import dev.burnbox.server.mime.MimeOptions;
import dev.burnbox.server.pipeline.IntakePipeline.SpamPolicy;
import dev.burnbox.server.pipeline.PipelineOptions;
import dev.burnbox.server.pipeline.SubjectFloodFilter;
import dev.burnbox.server.smtp.IntakeSettings;
import dev.burnbox.server.web.MetricsEndpoint;
import dev.burnbox.server.web.WebAccess;
import dev.burnbox.server.web.WebLimits;
import dev.burnbox.server.web.WebOptions;
import dev.burnbox.server.web.WebhookOptions;
import dev.burnbox.server.web.Webhooks;
import dev.burnbox.wordlists.SpamModel;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything {@link BurnboxService} is configured with; the {@code serve} command maps its options
 * onto it, and {@link #builder()} starts from their defaults. Immutable; build one with {@link
 * #builder()}.
 *
 * @param smtp the SMTP intake's settings (port, domains, limits, filters, TLS)
 * @param httpBindAddress where the web server listens; null for every interface
 * @param httpPort the web server's port; 0 picks a free one.
 * @param httpMaxConnections connections the web port holds open at once (see {@link
 *     WebLimits#maxConnections}).
 * @param httpMaxConnectionsPerIp connections one untrusted address may hold open on the web port
 *     (see {@link WebLimits#maxConnectionsPerIp}); {@code smtp.trustedNetworks()} are exempt.
 * @param httpHeadTimeout the deadline for a whole request head (see {@link WebLimits#headTimeout}).
 * @param metrics where {@code /metrics} is served: on the web port, on its own address and port, or
 *     nowhere
 * @param access which other origins may read the API, the operator token, and the private domains
 *     and their tokens (see {@link WebAccess})
 * @param inboxCap entries per inbox (see {@link InboxStore.Builder#inboxCap})
 * @param storeMaxBytes the store's byte budget (see {@link InboxStore.Builder#maxBytes})
 * @param ttl how long mail is kept (see {@link InboxStore.Builder#ttl})
 * @param stripPlusTags whether {@code bob+news} is delivered to inbox {@code bob}
 * @param matcher the spam matcher algorithm; null picks the best for the term list
 * @param termsFile the spam term file, reloaded when it changes; null for the built-in list
 * @param spamPolicy tag (store and mark) or reject (550 at the end of DATA)
 * @param spamThreshold the probability from which a message is spam, or null for the model's own
 * @param subjectFlood the subject flood ban, applied unless {@code smtp.filtersEnabled()} is false
 * @param mimeLimits bounds on MIME decoding
 * @param shutdownGrace how long in-flight sessions may take to finish on shutdown
 * @param snapshotFile where the store is saved on shutdown and restored from at start; null keeps
 *     mail in memory only
 * @param redisUrl the Redis that holds the store, one server ({@code redis://host:port}) or a Redis
 *     Cluster ({@code redis-cluster://host:port,host:port,...}, its seed nodes), shared by every
 *     node given the same URL; null for the in-memory store
 * @param redisPartitions the Redis store's partitions (see {@link
 *     InboxStore.Builder#redisPartitions}); every node must use the same.
 * @param webhooks where each delivered message is posted (see {@link Webhooks})
 */
public record ServiceSettings(
    IntakeSettings smtp,
    InetAddress httpBindAddress,
    int httpPort,
    int httpMaxConnections,
    int httpMaxConnectionsPerIp,
    Duration httpHeadTimeout,
    MetricsEndpoint metrics,
    WebAccess access,
    int inboxCap,
    long storeMaxBytes,
    Duration ttl,
    boolean stripPlusTags,
    MatcherKind matcher,
    Path termsFile,
    SpamPolicy spamPolicy,
    Double spamThreshold,
    SubjectFloodFilter.Settings subjectFlood,
    MimeLimits mimeLimits,
    Duration shutdownGrace,
    Path snapshotFile,
    URI redisUrl,
    int redisPartitions,
    Webhooks.Settings webhooks) {

  /**
   * @throws NullPointerException if a required value is null (all but httpBindAddress, matcher,
   *     termsFile, spamThreshold, snapshotFile and redisUrl are required)
   * @throws IllegalArgumentException if the HTTP port is out of range, a web limit is invalid (see
   *     {@link WebLimits}), the spam threshold is not a probability strictly between 0 and 1, both
   *     a snapshot file and a Redis URL are given (a snapshot saves the memory store), the Redis
   *     partitions are not 1 to 256, or a Redis partition's share of the byte budget is below the
   *     largest message (which the store would refuse as too large after SMTP accepted its size)
   */
  public ServiceSettings {
    Objects.requireNonNull(smtp, "smtp");
    if (httpPort < 0 || httpPort > 65535) {
      throw new IllegalArgumentException("http port must be 0 to 65535: " + httpPort);
    }
    new WebLimits( // checks the web limits, as webLimits() builds them
        httpMaxConnections, httpMaxConnectionsPerIp, httpHeadTimeout, smtp.trustedNetworks());
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(access, "access");
    for (String domain : access.privateDomains().domains()) {
      if (!smtp.serves(domain)) {
        throw new IllegalArgumentException(
            "private domain " + domain + " is not one of --domains " + smtp.domains());
      }
    }
    if (spamThreshold != null) {
      SpamModel.checkThreshold(spamThreshold);
    }
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(spamPolicy, "spamPolicy");
    Objects.requireNonNull(subjectFlood, "subjectFlood");
    Objects.requireNonNull(mimeLimits, "mimeLimits");
    Objects.requireNonNull(shutdownGrace, "shutdownGrace");
    Objects.requireNonNull(webhooks, "webhooks");
    if (snapshotFile != null && redisUrl != null) {
      throw new IllegalArgumentException("a snapshot file is for the memory store, not Redis");
    }
    if (redisPartitions < 1 || redisPartitions > 256) {
      throw new IllegalArgumentException("redis partitions must be 1 to 256: " + redisPartitions);
    }
    if (redisUrl != null && storeMaxBytes / redisPartitions < smtp.maxMessageSize()) {
      throw new IllegalArgumentException(
          String.format(
              "each of the %d Redis partitions gets %d bytes of the store's budget, less than the"
                  + " largest message (%d): raise --store-max-bytes or lower --redis-partitions",
              redisPartitions, storeMaxBytes / redisPartitions, smtp.maxMessageSize()));
    }
  }

  /** The web port's limits: the {@code http*} settings, with the SMTP side's trusted networks. */
  public WebLimits webLimits() {
    return new WebLimits(
        httpMaxConnections, httpMaxConnectionsPerIp, httpHeadTimeout, smtp.trustedNetworks());
  }

  /** A builder starting from the defaults, each declared by its option (see {@code *Options}). */
  public static Builder builder() {
    Builder builder =
        new Builder()
            .smtp(IntakeSettings.defaults())
            .web(WebOptions.defaults())
            .pipeline(PipelineOptions.defaults())
            .mimeLimits(MimeOptions.defaults().limits())
            .shutdownGrace(ServiceOptions.defaults().shutdownGrace)
            .webhooks(WebhookOptions.defaults().settings());
    return StoreOptions.defaults().applyTo(builder);
  }

  /** Builds {@link ServiceSettings}; every value starts at its default. Not thread-safe. */
  public static final class Builder {
    private IntakeSettings smtp;
    private InetAddress httpBindAddress;
    private int httpPort;
    private int httpMaxConnections;
    private int httpMaxConnectionsPerIp;
    private Duration httpHeadTimeout;
    private MetricsEndpoint metrics;
    private WebAccess access;
    private int inboxCap;
    private long storeMaxBytes;
    private Duration ttl;
    private boolean stripPlusTags;
    private MatcherKind matcher;
    private Path termsFile;
    private SpamPolicy spamPolicy;
    private Double spamThreshold;
    private SubjectFloodFilter.Settings subjectFlood;
    private MimeLimits mimeLimits;
    private Duration shutdownGrace;
    private Path snapshotFile;
    private URI redisUrl;
    private int redisPartitions;
    private Webhooks.Settings webhooks;

    private Builder() {}

    /** Sets every value of the web port's options. */
    public Builder web(WebOptions web) {
      WebLimits limits = web.limits(IntakeSettings.defaultTrustedNetworks());
      return httpPort(web.port())
          .httpMaxConnections(limits.maxConnections())
          .httpMaxConnectionsPerIp(limits.maxConnectionsPerIp())
          .httpHeadTimeout(limits.headTimeout())
          .metrics(web.metrics())
          .access(web.access());
    }

    /** Sets every value of the message pipeline's options. */
    public Builder pipeline(PipelineOptions pipeline) {
      return matcher(pipeline.matcher())
          .termsFile(pipeline.terms())
          .spamPolicy(pipeline.spamPolicy())
          .spamThreshold(pipeline.spamThreshold())
          .subjectFlood(pipeline.subjectFlood());
    }

    public Builder smtp(IntakeSettings smtp) {
      this.smtp = smtp;
      return this;
    }

    public Builder httpBindAddress(InetAddress address) {
      this.httpBindAddress = address;
      return this;
    }

    public Builder httpPort(int port) {
      this.httpPort = port;
      return this;
    }

    public Builder httpMaxConnections(int connections) {
      this.httpMaxConnections = connections;
      return this;
    }

    public Builder httpMaxConnectionsPerIp(int connections) {
      this.httpMaxConnectionsPerIp = connections;
      return this;
    }

    public Builder httpHeadTimeout(Duration timeout) {
      this.httpHeadTimeout = timeout;
      return this;
    }

    public Builder metrics(MetricsEndpoint metrics) {
      this.metrics = metrics;
      return this;
    }

    public Builder access(WebAccess access) {
      this.access = access;
      return this;
    }

    public Builder inboxCap(int cap) {
      this.inboxCap = cap;
      return this;
    }

    public Builder storeMaxBytes(long bytes) {
      this.storeMaxBytes = bytes;
      return this;
    }

    public Builder ttl(Duration ttl) {
      this.ttl = ttl;
      return this;
    }

    public Builder stripPlusTags(boolean strip) {
      this.stripPlusTags = strip;
      return this;
    }

    public Builder matcher(MatcherKind kind) {
      this.matcher = kind;
      return this;
    }

    public Builder termsFile(Path file) {
      this.termsFile = file;
      return this;
    }

    public Builder spamPolicy(SpamPolicy policy) {
      this.spamPolicy = policy;
      return this;
    }

    public Builder spamThreshold(Double threshold) {
      this.spamThreshold = threshold;
      return this;
    }

    public Builder subjectFlood(SubjectFloodFilter.Settings settings) {
      this.subjectFlood = settings;
      return this;
    }

    public Builder mimeLimits(MimeLimits limits) {
      this.mimeLimits = limits;
      return this;
    }

    public Builder shutdownGrace(Duration grace) {
      this.shutdownGrace = grace;
      return this;
    }

    public Builder snapshotFile(Path file) {
      this.snapshotFile = file;
      return this;
    }

    public Builder redisUrl(URI url) {
      this.redisUrl = url;
      return this;
    }

    public Builder redisPartitions(int partitions) {
      this.redisPartitions = partitions;
      return this;
    }

    public Builder webhooks(Webhooks.Settings webhooks) {
      this.webhooks = webhooks;
      return this;
    }

    /**
     * @throws IllegalArgumentException or NullPointerException as the record's constructor does
     */
    public ServiceSettings build() {
      return new ServiceSettings(
          smtp,
          httpBindAddress,
          httpPort,
          httpMaxConnections,
          httpMaxConnectionsPerIp,
          httpHeadTimeout,
          metrics,
          access,
          inboxCap,
          storeMaxBytes,
          ttl,
          stripPlusTags,
          matcher,
          termsFile,
          spamPolicy,
          spamThreshold,
          subjectFlood,
          mimeLimits,
          shutdownGrace,
          snapshotFile,
          redisUrl,
          redisPartitions,
          webhooks);
    }
  }
}
