package dev.burnbox.server;

import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.server.mime.MimeLimits;
import dev.burnbox.server.pipeline.IntakePipeline.SpamPolicy;
import dev.burnbox.server.pipeline.SubjectFloodFilter;
import dev.burnbox.server.smtp.IntakeSettings;
import dev.burnbox.server.smtp.NetworkList;
import dev.burnbox.server.smtp.ThreadModel;
import dev.burnbox.server.web.MetricsEndpoint;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sun.misc.Signal;

/**
 * {@code burnbox serve} (and {@code burnbox} with no arguments): runs the service until SIGTERM or
 * SIGINT, then shuts down gracefully and exits 0. SIGHUP reloads the {@code --terms} file.
 *
 * <p>Every option can also be set by an environment variable named after it ({@code --smtp-port} is
 * {@code BURNBOX_SMTP_PORT}); an option on the command line wins.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run the disposable-mail service: SMTP intake, spam scanning, in-memory inboxes, web inbox.",
      "Every option can also be set by the environment variable shown with it."
    })
final class ServeCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--smtp-port",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_SMTP_PORT:-2525}",
      description = "SMTP port; 0 picks a free one (BURNBOX_SMTP_PORT, default ${DEFAULT-VALUE}).")
  int smtpPort;

  @Option(
      names = "--http-port",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_HTTP_PORT:-8080}",
      description = "Web port; 0 picks a free one (BURNBOX_HTTP_PORT, default ${DEFAULT-VALUE}).")
  int httpPort;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      defaultValue = "${env:BURNBOX_BIND}",
      description = "Address both servers listen on (BURNBOX_BIND, default every interface).")
  String bind;

  @Option(
      names = "--http-max-connections",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_HTTP_MAX_CONNECTIONS:-2000}",
      description =
          "Concurrent web connections, event streams included; at the cap the web port stops"
              + " accepting until one closes (BURNBOX_HTTP_MAX_CONNECTIONS, default"
              + " ${DEFAULT-VALUE}).")
  int httpMaxConnections;

  @Option(
      names = "--http-max-connections-per-ip",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_HTTP_MAX_CONNECTIONS_PER_IP:-50}",
      description =
          "Concurrent web connections from one untrusted address; more are closed at once"
              + " (BURNBOX_HTTP_MAX_CONNECTIONS_PER_IP, default ${DEFAULT-VALUE}).")
  int httpMaxConnectionsPerIp;

  @Option(
      names = "--http-head-timeout",
      paramLabel = "DURATION",
      defaultValue = "${env:BURNBOX_HTTP_HEAD_TIMEOUT:-20s}",
      converter = OptionValues.Durations.class,
      description =
          "Deadline for a whole request head from a connection's opening or its previous response;"
              + " trickling bytes do not extend it (BURNBOX_HTTP_HEAD_TIMEOUT, default"
              + " ${DEFAULT-VALUE}).")
  Duration httpHeadTimeout;

  @Option(
      names = "--metrics-port",
      paramLabel = "web|off|N",
      defaultValue = "${env:BURNBOX_METRICS_PORT:-web}",
      description =
          "Where /metrics is served: web (on the web port), off, or a port of its own on"
              + " --metrics-bind, and then not on the web port; 0 picks a free one"
              + " (BURNBOX_METRICS_PORT, default ${DEFAULT-VALUE}).")
  String metricsPort;

  @Option(
      names = "--metrics-bind",
      paramLabel = "ADDRESS",
      defaultValue = "${env:BURNBOX_METRICS_BIND}",
      description =
          "Address of the metrics port of --metrics-port N (BURNBOX_METRICS_BIND, default"
              + " 127.0.0.1).")
  String metricsBind;

  @Option(
      names = "--hostname",
      defaultValue = "${env:BURNBOX_HOSTNAME}",
      description =
          "Name in the SMTP greeting and certificate (BURNBOX_HOSTNAME, default this host's name).")
  String hostName;

  @Option(
      names = "--domains",
      paramLabel = "LIST",
      defaultValue = "${env:BURNBOX_DOMAINS:-}",
      description =
          "Comma-separated domains to accept mail for; others get 550 (BURNBOX_DOMAINS, default"
              + " every domain).")
  String domains;

  @Option(
      names = "--threads",
      paramLabel = "MODEL",
      defaultValue = "${env:BURNBOX_THREADS:-virtual}",
      description =
          "virtual or platform: one thread per SMTP connection; pool: a fixed pool of"
              + " --pool-threads (BURNBOX_THREADS, default ${DEFAULT-VALUE}).")
  ThreadModel threads;

  @Option(
      names = "--pool-threads",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_POOL_THREADS:-50}",
      description =
          "Threads of the fixed pool with --threads=pool (BURNBOX_POOL_THREADS, default"
              + " ${DEFAULT-VALUE}).")
  int poolThreads;

  @Option(
      names = "--max-message-size",
      paramLabel = "BYTES",
      defaultValue = "${env:BURNBOX_MAX_MESSAGE_SIZE:-10MiB}",
      converter = OptionValues.Bytes.class,
      description =
          "Largest message; bigger ones get 552 (BURNBOX_MAX_MESSAGE_SIZE, default"
              + " ${DEFAULT-VALUE}).")
  long maxMessageSize;

  @Option(
      names = "--max-inflight-bytes",
      paramLabel = "BYTES",
      defaultValue = "${env:BURNBOX_MAX_INFLIGHT_BYTES}",
      converter = OptionValues.Bytes.class,
      description =
          "Message bytes all SMTP sessions may hold in memory at once; a message past it gets 452"
              + " 4.3.1 (BURNBOX_MAX_INFLIGHT_BYTES, default a quarter of the heap, at least"
              + " --max-message-size).")
  Long maxInflightBytes;

  @Option(
      names = "--max-recipients",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_MAX_RECIPIENTS:-100}",
      description =
          "Recipients per message; more get 452 (BURNBOX_MAX_RECIPIENTS, default"
              + " ${DEFAULT-VALUE}).")
  int maxRecipients;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_MAX_CONNECTIONS:-2000}",
      description =
          "Concurrent SMTP connections; more get 421 (BURNBOX_MAX_CONNECTIONS, default"
              + " ${DEFAULT-VALUE}).")
  int maxConnections;

  @Option(
      names = "--max-connections-per-ip",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_MAX_CONNECTIONS_PER_IP:-50}",
      description =
          "Concurrent connections from one untrusted address; more get 421"
              + " (BURNBOX_MAX_CONNECTIONS_PER_IP, default ${DEFAULT-VALUE}).")
  int maxConnectionsPerIp;

  @Option(
      names = "--command-timeout",
      paramLabel = "DURATION",
      defaultValue = "${env:BURNBOX_COMMAND_TIMEOUT:-60s}",
      converter = OptionValues.Durations.class,
      description =
          "Idle time between SMTP commands before 421 (BURNBOX_COMMAND_TIMEOUT, default"
              + " ${DEFAULT-VALUE}).")
  Duration commandTimeout;

  @Option(
      names = "--data-timeout",
      paramLabel = "DURATION",
      defaultValue = "${env:BURNBOX_DATA_TIMEOUT:-120s}",
      converter = OptionValues.Durations.class,
      description =
          "Longest stall while message data arrives before 421 (BURNBOX_DATA_TIMEOUT, default"
              + " ${DEFAULT-VALUE}).")
  Duration dataTimeout;

  @Option(
      names = "--max-line-length",
      paramLabel = "BYTES",
      defaultValue = "${env:BURNBOX_MAX_LINE_LENGTH:-8192}",
      description =
          "Longest message line including CRLF; longer gets 500 (BURNBOX_MAX_LINE_LENGTH, default"
              + " ${DEFAULT-VALUE}).")
  int maxLineLength;

  @Option(
      names = "--null-sender",
      paramLabel = "accept|refuse",
      defaultValue = "${env:BURNBOX_NULL_SENDER:-accept}",
      description =
          "Whether bounces (MAIL FROM:<>) are taken (BURNBOX_NULL_SENDER, default"
              + " ${DEFAULT-VALUE}).")
  NullSender nullSender;

  @Option(
      names = "--trusted-networks",
      paramLabel = "CIDRS",
      defaultValue = "${env:BURNBOX_TRUSTED_NETWORKS:-127.0.0.0/8,::1}",
      description =
          "Clients exempt from per-IP limits and filters (BURNBOX_TRUSTED_NETWORKS, default"
              + " ${DEFAULT-VALUE}).")
  String trustedNetworks;

  @Option(
      names = "--per-ip-rate",
      paramLabel = "PER_MINUTE",
      defaultValue = "${env:BURNBOX_PER_IP_RATE:-120}",
      description =
          "Messages per minute from one untrusted address; more get 450; 0 = no limit"
              + " (BURNBOX_PER_IP_RATE, default ${DEFAULT-VALUE}).")
  int perIpRate;

  @Option(
      names = "--subject-flood-count",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_SUBJECT_FLOOD_COUNT:-200}",
      description =
          "Messages with one subject within the window that ban it (BURNBOX_SUBJECT_FLOOD_COUNT,"
              + " default ${DEFAULT-VALUE}).")
  int subjectFloodCount;

  @Option(
      names = "--subject-flood-window",
      paramLabel = "DURATION",
      defaultValue = "${env:BURNBOX_SUBJECT_FLOOD_WINDOW:-5m}",
      converter = OptionValues.Durations.class,
      description =
          "The window of --subject-flood-count (BURNBOX_SUBJECT_FLOOD_WINDOW, default"
              + " ${DEFAULT-VALUE}).")
  Duration subjectFloodWindow;

  @Option(
      names = "--subject-flood-ban",
      paramLabel = "DURATION",
      defaultValue = "${env:BURNBOX_SUBJECT_FLOOD_BAN:-1h}",
      converter = OptionValues.Durations.class,
      description =
          "How long a flooding subject is refused (BURNBOX_SUBJECT_FLOOD_BAN, default"
              + " ${DEFAULT-VALUE}).")
  Duration subjectFloodBan;

  @Option(
      names = "--no-filters",
      defaultValue = "${env:BURNBOX_NO_FILTERS:-false}",
      description =
          "Turn the per-IP rate filter and the subject flood ban off for everyone"
              + " (BURNBOX_NO_FILTERS).")
  boolean noFilters;

  @Option(
      names = "--matcher",
      paramLabel = "NAME",
      defaultValue = "${env:BURNBOX_MATCHER:-best}",
      description =
          "naive, boyer-moore, trie, aho-corasick, wu-manber, org-ahocorasick or best"
              + " (BURNBOX_MATCHER, default ${DEFAULT-VALUE}).")
  String matcher;

  @Option(
      names = "--terms",
      paramLabel = "FILE",
      defaultValue = "${env:BURNBOX_TERMS}",
      description =
          "Spam model or plain term file (one term per line, or term TAB weight TAB part TAB idf),"
              + " reloaded when it changes or on SIGHUP (BURNBOX_TERMS, default the built-in"
              + " learned model).")
  Path terms;

  @Option(
      names = "--spam",
      paramLabel = "tag|reject",
      defaultValue = "${env:BURNBOX_SPAM:-tag}",
      description =
          "tag: store and mark spam; reject: answer 550 5.7.1 and store nothing (BURNBOX_SPAM,"
              + " default ${DEFAULT-VALUE}).")
  SpamPolicy spam;

  @Option(
      names = "--spam-threshold",
      paramLabel = "PROBABILITY",
      defaultValue = "${env:BURNBOX_SPAM_THRESHOLD}",
      description =
          "Probability (between 0 and 1) from which a message is spam (BURNBOX_SPAM_THRESHOLD,"
              + " default the model's own: for the built-in model the one that flagged at most 0.5%%"
              + " of ham in cross-validation).")
  Double spamThreshold;

  @Option(
      names = "--inbox-cap",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_INBOX_CAP:-50}",
      description =
          "Messages per inbox; the oldest goes first (BURNBOX_INBOX_CAP, default"
              + " ${DEFAULT-VALUE}).")
  int inboxCap;

  @Option(
      names = "--store-max-bytes",
      paramLabel = "BYTES",
      defaultValue = "${env:BURNBOX_STORE_MAX_BYTES:-256MiB}",
      converter = OptionValues.Bytes.class,
      description =
          "Memory budget of the store; the oldest mail goes first (BURNBOX_STORE_MAX_BYTES, default"
              + " ${DEFAULT-VALUE}).")
  long storeMaxBytes;

  @Option(
      names = "--ttl",
      paramLabel = "DURATION",
      defaultValue = "${env:BURNBOX_TTL:-24h}",
      converter = OptionValues.Durations.class,
      description = "How long mail is kept (BURNBOX_TTL, default ${DEFAULT-VALUE}).")
  Duration ttl;

  @Option(
      names = "--strip-plus-tags",
      defaultValue = "${env:BURNBOX_STRIP_PLUS_TAGS:-false}",
      description = "Deliver bob+news@ to inbox bob (BURNBOX_STRIP_PLUS_TAGS).")
  boolean stripPlusTags;

  @Option(
      names = "--tls-keystore",
      paramLabel = "FILE",
      defaultValue = "${env:BURNBOX_TLS_KEYSTORE}",
      description =
          "PKCS#12 key store for STARTTLS (BURNBOX_TLS_KEYSTORE, default a self-signed certificate"
              + " made at start).")
  Path tlsKeystore;

  @Option(
      names = "--tls-keystore-password",
      paramLabel = "PASSWORD",
      defaultValue = "${env:BURNBOX_TLS_KEYSTORE_PASSWORD}",
      description = "Password of the key store (BURNBOX_TLS_KEYSTORE_PASSWORD).")
  String tlsKeystorePassword;

  @Option(
      names = "--mime-max-depth",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_MIME_MAX_DEPTH:-20}",
      description =
          "Deepest MIME nesting decoded; deeper parts are kept raw, not scanned"
              + " (BURNBOX_MIME_MAX_DEPTH, default ${DEFAULT-VALUE}).")
  int mimeMaxDepth;

  @Option(
      names = "--mime-max-decoded-size",
      paramLabel = "BYTES",
      defaultValue = "${env:BURNBOX_MIME_MAX_DECODED_SIZE:-4MiB}",
      converter = OptionValues.Bytes.class,
      description =
          "Most decoded text scanned per message (BURNBOX_MIME_MAX_DECODED_SIZE, default"
              + " ${DEFAULT-VALUE}).")
  long mimeMaxDecodedSize;

  @Option(
      names = "--snapshot",
      paramLabel = "FILE",
      defaultValue = "${env:BURNBOX_SNAPSHOT}",
      description =
          "Save the store here on shutdown and restore it at start; a damaged file is logged and"
              + " the store starts empty (BURNBOX_SNAPSHOT, default none: memory only).")
  Path snapshot;

  @Option(
      names = "--store",
      paramLabel = "KIND",
      defaultValue = "${env:BURNBOX_STORE:-memory}",
      description =
          "Where mail is kept: memory (this process) or redis (shared by every node on one Redis"
              + " or Redis Cluster; see --redis-url) (BURNBOX_STORE, default ${DEFAULT-VALUE}).")
  StoreKind store;

  @Option(
      names = "--redis-url",
      paramLabel = "URL",
      defaultValue = "${env:BURNBOX_REDIS_URL:-redis://localhost:6379}",
      description =
          "The Redis of --store=redis: one server, redis://host:port, or a Redis Cluster found"
              + " through seed nodes, redis-cluster://host:port,host:port,... (BURNBOX_REDIS_URL,"
              + " default ${DEFAULT-VALUE}).")
  URI redisUrl;

  @Option(
      names = "--redis-partitions",
      paramLabel = "N",
      defaultValue = "${env:BURNBOX_REDIS_PARTITIONS:-16}",
      description =
          "Partitions of the Redis store, 1 to 256: each holds the inboxes hashed to it under its"
              + " own hash tag (a Redis Cluster spreads them over its masters) with an equal share"
              + " of --store-max-bytes; every node must use the same (BURNBOX_REDIS_PARTITIONS,"
              + " default ${DEFAULT-VALUE}).")
  int redisPartitions;

  @Option(
      names = "--shutdown-grace",
      paramLabel = "DURATION",
      defaultValue = "${env:BURNBOX_SHUTDOWN_GRACE:-30s}",
      converter = OptionValues.Durations.class,
      description =
          "How long sessions in flight may finish on SIGTERM (BURNBOX_SHUTDOWN_GRACE, default"
              + " ${DEFAULT-VALUE}).")
  Duration shutdownGrace;

  /** Where mail is kept. */
  enum StoreKind {
    MEMORY,
    REDIS
  }

  /** Whether bounces are taken. */
  enum NullSender {
    ACCEPT,
    REFUSE
  }

  @Override
  public Integer call() throws InterruptedException {
    ServiceSettings settings;
    try {
      settings = settings();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    // Signal handlers go in before the service takes mail: a SIGTERM that arrives as soon as the
    // first 250 has been sent must still stop it gracefully and save the snapshot.
    CountDownLatch stop = new CountDownLatch(1);
    AtomicReference<BurnboxService> running = new AtomicReference<>();
    Signal.handle(new Signal("TERM"), signal -> stop.countDown());
    Signal.handle(new Signal("INT"), signal -> stop.countDown());
    Signal.handle(
        new Signal("HUP"),
        signal -> {
          BurnboxService started = running.get();
          if (started != null) {
            started.reloadTerms();
          }
        });
    BurnboxService service;
    try {
      service = BurnboxService.start(settings);
    } catch (IOException | RuntimeException e) {
      spec.commandLine().getErr().println("burnbox: cannot start: " + describe(e));
      return 1;
    }
    running.set(service);
    stop.await();
    log.info("stopping: finishing sessions in flight (at most {})", settings.shutdownGrace());
    service.close();
    if (service.snapshotSaveFailed()) {
      log.error("stopped, but the snapshot could not be saved: the mail it held is lost");
      return 1;
    }
    log.info("stopped");
    return 0;
  }

  /** The settings these options describe. */
  ServiceSettings settings() {
    InetAddress bindAddress = bind == null || bind.isBlank() ? null : address(bind);
    IntakeSettings.Builder smtp =
        IntakeSettings.builder()
            .port(smtpPort)
            .bindAddress(bindAddress)
            .domains(split(domains))
            .threads(threads)
            .poolThreads(poolThreads)
            .maxMessageSize(Math.toIntExact(Math.min(maxMessageSize, Integer.MAX_VALUE - 1)))
            .maxRecipients(maxRecipients)
            .maxInflightBytes(maxInflightBytes == null ? 0 : maxInflightBytes)
            .maxConnections(maxConnections)
            .maxConnectionsPerIp(maxConnectionsPerIp)
            .commandTimeout(commandTimeout)
            .dataTimeout(dataTimeout)
            .maxLineLength(maxLineLength)
            .acceptNullSender(nullSender == NullSender.ACCEPT)
            .trustedNetworks(NetworkList.parse(trustedNetworks))
            .perIpMessageRate(perIpRate)
            .filtersEnabled(!noFilters)
            .tlsKeystore(tlsKeystore)
            .tlsKeystorePassword(tlsKeystorePassword);
    if (hostName != null && !hostName.isBlank()) {
      smtp.hostName(hostName);
    }
    return ServiceSettings.builder()
        .smtp(smtp.build())
        .httpBindAddress(bindAddress)
        .httpPort(httpPort)
        .httpMaxConnections(httpMaxConnections)
        .httpMaxConnectionsPerIp(httpMaxConnectionsPerIp)
        .httpHeadTimeout(httpHeadTimeout)
        .metrics(metrics())
        .inboxCap(inboxCap)
        .storeMaxBytes(storeMaxBytes)
        .ttl(ttl)
        .stripPlusTags(stripPlusTags)
        .matcher(matcher.equals("best") ? null : MatcherKind.fromCliName(matcher))
        .termsFile(terms)
        .spamPolicy(spam)
        .spamThreshold(spamThreshold)
        .subjectFlood(
            new SubjectFloodFilter.Settings(subjectFloodCount, subjectFloodWindow, subjectFloodBan))
        .mimeLimits(
            new MimeLimits(mimeMaxDepth, mimeMaxDecodedSize, MimeLimits.DEFAULTS.maxParts()))
        .shutdownGrace(shutdownGrace)
        .snapshotFile(snapshot)
        .redisUrl(store == StoreKind.REDIS ? redisUrl : null)
        .redisPartitions(redisPartitions)
        .build();
  }

  /** {@code --metrics-port} and {@code --metrics-bind} as one setting. */
  private MetricsEndpoint metrics() {
    String where = metricsPort.strip().toLowerCase(Locale.ROOT);
    boolean bindGiven = metricsBind != null && !metricsBind.isBlank();
    if (where.equals("web") || where.equals("off")) {
      if (bindGiven) {
        throw new IllegalArgumentException("--metrics-bind needs --metrics-port N");
      }
      return where.equals("web") ? MetricsEndpoint.webPort() : MetricsEndpoint.off();
    }
    int port;
    try {
      port = Integer.parseInt(where);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--metrics-port must be web, off or a port number: " + metricsPort);
    }
    return MetricsEndpoint.ownPort(address(bindGiven ? metricsBind.strip() : "127.0.0.1"), port);
  }

  private static Set<String> split(String list) {
    return Arrays.stream(list.split(","))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .collect(Collectors.toUnmodifiableSet());
  }

  private static InetAddress address(String text) {
    try {
      return InetAddress.getByName(text);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("unknown bind address: " + text);
    }
  }

  private static String describe(Exception e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
