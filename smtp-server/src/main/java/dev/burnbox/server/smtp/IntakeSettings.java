package dev.burnbox.server.smtp;

import java.net.IDN;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Everything the SMTP intake can be told, with defaults fit for a public disposable-mail MX (those
 * of {@link IntakeOptions}, where each is declared). Immutable and thread-safe; build one with
 * {@link #builder()} or take {@link #defaults()}.
 *
 * @param port TCP port to listen on; 0 picks a free port (see {@link SmtpIntake#port()}).
 * @param bindAddress address to listen on; null listens on every interface
 * @param hostName name announced in the greeting, EHLO reply and self-signed certificate; default
 *     the local host name, or {@code burnbox} if it cannot be found
 * @param domains domains whose recipients are accepted, lower-cased, internationalized ones in
 *     punycode; empty accepts every domain. A recipient in another domain gets {@code 550 5.7.1}
 *     (relay denied).
 * @param threads one virtual or platform thread per connection, or a fixed pool of {@code
 *     poolThreads}
 * @param maxMessageSize largest message in bytes, as received after dot-unstuffing; advertised as
 *     {@code SIZE}, checked against {@code MAIL FROM ... SIZE=} and counted during DATA/BDAT.
 * @param maxRecipients distinct recipients per message; more get {@code 452 4.5.3}.
 * @param maxConnections concurrent connections in total; more get {@code 421 4.7.0}.
 * @param maxConnectionsPerIp concurrent connections from one untrusted client address; more get
 *     {@code 421 4.7.0}.
 * @param commandTimeout how long to wait for the next command line before {@code 421} and closing
 *     (SubEtha's socket read timeout).
 * @param dataTimeout how long one read may block while message content is arriving (DATA) before
 *     {@code 421 4.4.2} and closing.
 * @param maxLineLength longest message text line in bytes including CRLF; a message with a longer
 *     line gets {@code 500 5.5.2} at its end and is not delivered. RFC 5321 allows 1000; the
 *     default is more generous because real senders exceed 1000. Command lines are limited
 *     separately by SubEtha to 998 characters (reply {@code 501}, connection closed).
 * @param acceptNullSender whether {@code MAIL FROM:<>} (bounces) is accepted; if false it gets
 *     {@code 550 5.7.1}.
 * @param trustedNetworks clients exempt from the per-IP connection limit and the per-IP message
 *     rate filter
 * @param perIpMessageRate messages (MAIL commands) per minute one untrusted client address may
 *     start; beyond it {@code 450 4.7.0}. The filter forgets an address after a minute of silence.
 *     0 means no limit.
 * @param filtersEnabled false turns the per-IP message-rate filter off for every client ({@code
 *     --no-filters})
 * @param tlsKeystore PKCS#12 or JKS key store holding the STARTTLS key and certificate; null makes
 *     a self-signed certificate for {@code hostName} at start
 * @param tlsKeystorePassword password of {@code tlsKeystore} and its key; null for none
 * @param backlog listen backlog; default 1024 (SubEtha's 50 stalls bursts of connects)
 * @param poolThreads threads of the fixed pool when {@code threads} is {@link ThreadModel#POOL};
 *     ignored otherwise.
 * @param maxInflightBytes message content bytes all sessions together may hold in memory while
 *     messages arrive and are decoded, scanned and stored; a message that would pass it is drained
 *     and answered {@code 452 4.3.1} (try again later), so {@code maxConnections x maxMessageSize}
 *     need not fit in the heap. At least {@code maxMessageSize}, so that a message alone always
 *     fits.
 * @param auth how SMTP AUTH is answered (see {@link SmtpAuth})
 * @param authOnPlainConnections whether AUTH is offered on connections without TLS from untrusted
 *     clients too (credentials then cross the network in the clear); it always is after STARTTLS
 *     and to {@code trustedNetworks}
 * @param traceHeader whether each message taken gets a {@code Received:} field in front (see {@link
 *     TraceHeader})
 */
public record IntakeSettings(
    int port,
    InetAddress bindAddress,
    String hostName,
    Set<String> domains,
    ThreadModel threads,
    int maxMessageSize,
    int maxRecipients,
    int maxConnections,
    int maxConnectionsPerIp,
    Duration commandTimeout,
    Duration dataTimeout,
    int maxLineLength,
    boolean acceptNullSender,
    NetworkList trustedNetworks,
    int perIpMessageRate,
    boolean filtersEnabled,
    Path tlsKeystore,
    String tlsKeystorePassword,
    int backlog,
    int poolThreads,
    long maxInflightBytes,
    SmtpAuth auth,
    boolean authOnPlainConnections,
    boolean traceHeader) {

  /**
   * @throws IllegalArgumentException if a number is out of range (port 0–65535, sizes and limits at
   *     least 1, rate at least 0, timeouts positive and below 24 days) or a domain is blank
   * @throws NullPointerException if a required value (all but bindAddress and the TLS fields) is
   *     null
   */
  public IntakeSettings {
    check(port >= 0 && port <= 65535, "port must be 0 to 65535: " + port);
    Objects.requireNonNull(hostName, "hostName");
    check(!hostName.isBlank() && hostName.chars().noneMatch(c -> c <= ' '), "bad hostName");
    domains =
        Objects.requireNonNull(domains, "domains").stream()
            .map(IntakeSettings::canonicalDomain)
            .collect(Collectors.toUnmodifiableSet());
    check(domains.stream().noneMatch(String::isEmpty), "a domain is blank");
    Objects.requireNonNull(threads, "threads");
    check(maxMessageSize >= 1, "maxMessageSize must be positive");
    check(maxRecipients >= 1, "maxRecipients must be positive");
    check(maxConnections >= 1, "maxConnections must be positive");
    check(maxConnectionsPerIp >= 1, "maxConnectionsPerIp must be positive");
    checkTimeout(commandTimeout, "commandTimeout");
    checkTimeout(dataTimeout, "dataTimeout");
    check(maxLineLength >= 3, "maxLineLength must be at least 3 (CRLF included)");
    Objects.requireNonNull(trustedNetworks, "trustedNetworks");
    check(perIpMessageRate >= 0, "perIpMessageRate must not be negative");
    check(backlog >= 1, "backlog must be positive");
    check(poolThreads >= 1, "poolThreads must be positive");
    check(
        maxInflightBytes >= maxMessageSize,
        "maxInflightBytes (" + maxInflightBytes + ") must be at least maxMessageSize");
    Objects.requireNonNull(auth, "auth");
  }

  /** The default in-flight byte budget: a quarter of the maximum heap, at least one message. */
  static long defaultMaxInflightBytes(int maxMessageSize) {
    return Math.max(Runtime.getRuntime().maxMemory() / 4, maxMessageSize);
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }

  private static void checkTimeout(Duration timeout, String name) {
    Objects.requireNonNull(timeout, name);
    check(
        !timeout.isNegative() && !timeout.isZero() && timeout.toMillis() < Integer.MAX_VALUE,
        name + " must be positive and below 24 days");
  }

  /** The defaults documented on each component. */
  public static IntakeSettings defaults() {
    return builder().build();
  }

  /** The default {@link #trustedNetworks()}, without building the rest of the defaults. */
  public static NetworkList defaultTrustedNetworks() {
    return NetworkList.parse(IntakeOptions.defaults().trustedNetworks);
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return IntakeOptions.defaults().applyTo(new Builder());
  }

  /** A builder starting from these settings. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.port = port;
    builder.bindAddress = bindAddress;
    builder.hostName = hostName;
    builder.domains = domains;
    builder.threads = threads;
    builder.maxMessageSize = maxMessageSize;
    builder.maxRecipients = maxRecipients;
    builder.maxConnections = maxConnections;
    builder.maxConnectionsPerIp = maxConnectionsPerIp;
    builder.commandTimeout = commandTimeout;
    builder.dataTimeout = dataTimeout;
    builder.maxLineLength = maxLineLength;
    builder.acceptNullSender = acceptNullSender;
    builder.trustedNetworks = trustedNetworks;
    builder.perIpMessageRate = perIpMessageRate;
    builder.filtersEnabled = filtersEnabled;
    builder.tlsKeystore = tlsKeystore;
    builder.tlsKeystorePassword = tlsKeystorePassword;
    builder.backlog = backlog;
    builder.poolThreads = poolThreads;
    builder.maxInflightBytes = maxInflightBytes;
    builder.auth = auth;
    builder.authOnPlainConnections = authOnPlainConnections;
    builder.traceHeader = traceHeader;
    return builder;
  }

  /**
   * True if every domain is served ({@link #domains()} is empty) or {@code domain} is, compared
   * case-insensitively and with internationalized names in their ASCII (punycode) form.
   */
  public boolean serves(String domain) {
    return domains.isEmpty() || domains.contains(canonicalDomain(domain));
  }

  /**
   * Lower case, no trailing dot, IDNs as punycode ({@code bücher.test} → {@code
   * xn--bcher-kva.test}).
   */
  static String canonicalDomain(String domain) {
    String lower = domain.strip().toLowerCase(Locale.ROOT);
    if (lower.endsWith(".")) {
      lower = lower.substring(0, lower.length() - 1);
    }
    try {
      return IDN.toASCII(lower, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException notAnIdn) {
      return lower;
    }
  }

  /** Hides the key store password. */
  @Override
  public String toString() {
    return "IntakeSettings[port=%d, bindAddress=%s, hostName=%s, domains=%s, threads=%s, maxMessageSize=%d, maxRecipients=%d, maxConnections=%d, maxConnectionsPerIp=%d, commandTimeout=%s, dataTimeout=%s, maxLineLength=%d, acceptNullSender=%s, trustedNetworks=[%s], perIpMessageRate=%d, filtersEnabled=%s, tlsKeystore=%s, backlog=%d, poolThreads=%d, maxInflightBytes=%d, auth=%s, authOnPlainConnections=%s, traceHeader=%s]"
        .formatted(
            port,
            bindAddress,
            hostName,
            domains,
            threads,
            maxMessageSize,
            maxRecipients,
            maxConnections,
            maxConnectionsPerIp,
            commandTimeout,
            dataTimeout,
            maxLineLength,
            acceptNullSender,
            trustedNetworks,
            perIpMessageRate,
            filtersEnabled,
            tlsKeystore,
            backlog,
            poolThreads,
            maxInflightBytes,
            auth,
            authOnPlainConnections,
            traceHeader);
  }

  /**
   * Mutable, not thread-safe; each setter returns the builder. {@link IntakeSettings#builder()}
   * starts it from the defaults.
   */
  public static final class Builder {
    private int port;
    private InetAddress bindAddress;
    private String hostName;
    private Set<String> domains;
    private ThreadModel threads;
    private int maxMessageSize;
    private int maxRecipients;
    private int maxConnections;
    private int maxConnectionsPerIp;
    private Duration commandTimeout;
    private Duration dataTimeout;
    private int maxLineLength;
    private boolean acceptNullSender;
    private NetworkList trustedNetworks;
    private int perIpMessageRate;
    private boolean filtersEnabled;
    private Path tlsKeystore;
    private String tlsKeystorePassword;
    private int backlog = 1024; // not an option: SubEtha's 50 stalls bursts of connects
    private int poolThreads;
    private long maxInflightBytes; // 0: the default, computed from the heap at build
    private SmtpAuth auth;
    private boolean authOnPlainConnections;
    private boolean traceHeader;

    private Builder() {}

    public Builder port(int port) {
      this.port = port;
      return this;
    }

    public Builder bindAddress(InetAddress bindAddress) {
      this.bindAddress = bindAddress;
      return this;
    }

    public Builder hostName(String hostName) {
      this.hostName = hostName;
      return this;
    }

    public Builder domains(Set<String> domains) {
      this.domains = domains;
      return this;
    }

    public Builder threads(ThreadModel threads) {
      this.threads = threads;
      return this;
    }

    public Builder maxMessageSize(int maxMessageSize) {
      this.maxMessageSize = maxMessageSize;
      return this;
    }

    public Builder maxRecipients(int maxRecipients) {
      this.maxRecipients = maxRecipients;
      return this;
    }

    public Builder maxConnections(int maxConnections) {
      this.maxConnections = maxConnections;
      return this;
    }

    public Builder maxConnectionsPerIp(int maxConnectionsPerIp) {
      this.maxConnectionsPerIp = maxConnectionsPerIp;
      return this;
    }

    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = commandTimeout;
      return this;
    }

    public Builder dataTimeout(Duration dataTimeout) {
      this.dataTimeout = dataTimeout;
      return this;
    }

    public Builder maxLineLength(int maxLineLength) {
      this.maxLineLength = maxLineLength;
      return this;
    }

    public Builder acceptNullSender(boolean acceptNullSender) {
      this.acceptNullSender = acceptNullSender;
      return this;
    }

    public Builder trustedNetworks(NetworkList trustedNetworks) {
      this.trustedNetworks = trustedNetworks;
      return this;
    }

    public Builder perIpMessageRate(int perIpMessageRate) {
      this.perIpMessageRate = perIpMessageRate;
      return this;
    }

    public Builder filtersEnabled(boolean filtersEnabled) {
      this.filtersEnabled = filtersEnabled;
      return this;
    }

    public Builder tlsKeystore(Path tlsKeystore) {
      this.tlsKeystore = tlsKeystore;
      return this;
    }

    public Builder tlsKeystorePassword(String tlsKeystorePassword) {
      this.tlsKeystorePassword = tlsKeystorePassword;
      return this;
    }

    public Builder backlog(int backlog) {
      this.backlog = backlog;
      return this;
    }

    public Builder poolThreads(int poolThreads) {
      this.poolThreads = poolThreads;
      return this;
    }

    /** The in-flight byte budget; 0 restores the default (a quarter of the heap). */
    public Builder maxInflightBytes(long maxInflightBytes) {
      this.maxInflightBytes = maxInflightBytes;
      return this;
    }

    public Builder auth(SmtpAuth auth) {
      this.auth = auth;
      return this;
    }

    public Builder authOnPlainConnections(boolean allowed) {
      this.authOnPlainConnections = allowed;
      return this;
    }

    public Builder traceHeader(boolean add) {
      this.traceHeader = add;
      return this;
    }

    /**
     * @throws IllegalArgumentException as the record constructor does
     */
    public IntakeSettings build() {
      return new IntakeSettings(
          port,
          bindAddress,
          hostName != null ? hostName : localHostName(),
          domains,
          threads,
          maxMessageSize,
          maxRecipients,
          maxConnections,
          maxConnectionsPerIp,
          commandTimeout,
          dataTimeout,
          maxLineLength,
          acceptNullSender,
          trustedNetworks,
          perIpMessageRate,
          filtersEnabled,
          tlsKeystore,
          tlsKeystorePassword,
          backlog,
          poolThreads,
          maxInflightBytes != 0 ? maxInflightBytes : defaultMaxInflightBytes(maxMessageSize),
          auth,
          authOnPlainConnections,
          traceHeader);
    }

    private static String localHostName() {
      try {
        String name = InetAddress.getLocalHost().getHostName();
        return name.isBlank() ? "burnbox" : name;
      } catch (UnknownHostException e) {
        return "burnbox";
      }
    }
  }
}
