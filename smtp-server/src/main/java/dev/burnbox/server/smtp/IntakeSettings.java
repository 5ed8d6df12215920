package dev.burnbox.server.smtp;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.server.config.OptionRecord;
import dev.burnbox.server.config.OptionValues;
import dev.burnbox.server.config.WhenUnset;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/**
 * Everything the SMTP intake can be told: each component is an option of {@code burnbox serve},
 * declared here once with its name, default and meaning (see {@link OptionRecord}), and read where
 * the intake needs it. Defaults are fit for a public disposable-mail MX. Immutable and thread-safe;
 * make one with {@link #of} (the same options {@code serve} takes) or take {@link #defaults()}.
 *
 * <p>Guarantees, checked at construction with a message naming the option: the port is 0 to 65535
 * (0 picks a free one, see {@link SmtpIntake#port()}); sizes, counts and limits are at least 1 (the
 * rate at least 0, a line at least {@value #MIN_LINE_LENGTH} bytes); timeouts are positive and
 * below 24 days; the in-flight budget holds at least one message of {@code maxMessageSize} (null,
 * not given, means a quarter of the heap; {@link #maxInflightBytes()} is never null); {@code
 * hostName} is a single word (blank means this host's name); {@code domains} are DNS names ({@link
 * InboxName#domainName}), in the order given, lower-cased, without a trailing dot,
 * internationalized ones in punycode (empty serves every domain). A recipient in a domain not
 * served gets {@code 550 5.7.1}. The key store password is never shown by {@link #toString()}.
 */
public record IntakeSettings(
    @Option(
            names = "--smtp-port",
            paramLabel = "N",
            defaultValue = "2525",
            description =
                "SMTP port; 0 picks a free one (the log line `listening smtp=PORT http=PORT` says which)")
        int port,
    @Option(
            names = "--hostname",
            paramLabel = "NAME",
            description = "name in the SMTP greeting and the self-signed certificate")
        @WhenUnset("this host's name")
        String hostName,
    @Option(
            names = "--domains",
            paramLabel = "LIST",
            split = ",",
            description =
                "comma-separated domains to accept mail for (DNS names; internationalized ones are"
                    + " taken in either form); RCPT to others gets 550 5.7.1 (nothing is ever"
                    + " relayed)")
        @WhenUnset("every domain")
        Set<String> domains,
    @Option(
            names = "--threads",
            paramLabel = "MODEL",
            defaultValue = "virtual",
            description =
                "`virtual` or `platform`: one thread per SMTP connection either way (`pool` = a fixed"
                    + " pool of `--pool-threads`, for comparison only); `virtual` is the default for"
                    + " memory and latency under many connections (docs/benchmarks.md \"SMTP load\")")
        ThreadModel threads,
    @Option(
            names = "--pool-threads",
            paramLabel = "N",
            defaultValue = "50",
            description = "threads of the fixed pool of `--threads=pool`")
        int poolThreads,
    @Option(
            names = "--max-message-size",
            paramLabel = "BYTES",
            defaultValue = "10MiB",
            converter = OptionValues.IntBytes.class,
            description =
                "advertised as SIZE; bigger messages get 552 5.3.4 (the excess is counted, not"
                    + " buffered)")
        int maxMessageSize,
    @Option(
            names = "--max-inflight-bytes",
            paramLabel = "BYTES",
            converter = OptionValues.Bytes.class,
            description =
                "message bytes all SMTP sessions together hold in memory while mail arrives and is"
                    + " processed; a message that would pass it is read to its end, dropped and answered"
                    + " 452 4.3.1 (try later)")
        @WhenUnset("a quarter of the heap (at least `--max-message-size`)")
        Long maxInflightBytes,
    @Option(
            names = "--max-recipients",
            paramLabel = "N",
            defaultValue = "100",
            description = "distinct recipients per message; more get 452 4.5.3")
        int maxRecipients,
    @Option(
            names = "--max-connections",
            paramLabel = "N",
            defaultValue = "2000",
            description = "concurrent connections; more get 421 4.7.0")
        int maxConnections,
    @Option(
            names = "--max-connections-per-ip",
            paramLabel = "N",
            defaultValue = "50",
            description = "concurrent connections from one untrusted address; more get 421 4.7.0")
        int maxConnectionsPerIp,
    @Option(
            names = "--command-timeout",
            paramLabel = "DURATION",
            defaultValue = "60s",
            converter = OptionValues.Durations.class,
            description = "silence between commands before 421 and close")
        Duration commandTimeout,
    @Option(
            names = "--data-timeout",
            paramLabel = "DURATION",
            defaultValue = "120s",
            converter = OptionValues.Durations.class,
            description = "a stall while message data arrives before 421 4.4.2 and close")
        Duration dataTimeout,
    @Option(
            names = "--max-line-length",
            paramLabel = "BYTES",
            defaultValue = "1048576",
            converter = OptionValues.IntBytes.class,
            description =
                "longest message line, CRLF included; a message with a longer one gets 500 5.5.2."
                    + " At least 1000: RFC 5321 (4.5.3.1.6) has every SMTP server take lines of"
                    + " 1,000 octets, and RFC 5322 asks senders for no longer ones, but real mail"
                    + " has longer ones (HTML on one line: up to 49 KB in the SpamAssassin corpus),"
                    + " so the default only stops a line no mail has")
        int maxLineLength,
    @Option(
            names = "--null-sender",
            paramLabel = "accept|refuse",
            defaultValue = "accept",
            description = "whether bounces (`MAIL FROM:<>`) are taken; refused ones get 550 5.7.1")
        NullSender nullSender,
    @Option(
            names = "--trusted-networks",
            paramLabel = "CIDRS",
            defaultValue = "127.0.0.0/8,::1",
            description =
                "clients exempt from the per-IP limits (SMTP and web) and the filters (like Postfix's"
                    + " `mynetworks`); put a reverse proxy in front of the web port here")
        NetworkList trustedNetworks,
    @Option(
            names = "--per-ip-rate",
            paramLabel = "PER_MINUTE",
            defaultValue = "120",
            description =
                "messages per minute from one untrusted address; more get 450 4.7.0; 0 = no limit")
        int perIpMessageRate,
    @Option(
            names = "--no-filters",
            defaultValue = "false",
            description = "turn the per-IP rate filter and the subject flood ban off for everyone")
        boolean noFilters,
    @Option(
            names = "--tls-keystore",
            paramLabel = "FILE",
            description =
                "PKCS#12 or JKS key store for STARTTLS, read at start; without one a self-signed"
                    + " certificate is made at the first STARTTLS")
        @WhenUnset("self-signed")
        Path tlsKeystore,
    @Option(
            names = "--tls-keystore-password",
            paramLabel = "PASSWORD",
            description = "its password")
        @WhenUnset("none")
        String tlsKeystorePassword,
    @Option(
            names = "--smtp-auth",
            paramLabel = "off|accept-any|FILE",
            defaultValue = "accept-any",
            description =
                "SMTP AUTH (PLAIN, LOGIN): `off` does not offer it; `accept-any` takes any user and"
                    + " password, so applications configured with credentials can send (mail without"
                    + " AUTH is taken as before); FILE checks them against an htpasswd file of bcrypt"
                    + " hashes (`htpasswd -B`), read again when it changes, 5 failures a minute per"
                    + " address, and a client that passes is exempt from the per-IP rate and the subject"
                    + " flood ban. Offered after STARTTLS, and on plain connections only to"
                    + " `--trusted-networks` or with `--smtp-auth-insecure`")
        SmtpAuth auth,
    @Option(
            names = "--smtp-auth-insecure",
            defaultValue = "false",
            description =
                "offer AUTH on plain connections from untrusted clients too (their passwords cross the"
                    + " network in the clear)")
        boolean authOnPlainConnections,
    @Option(
            names = "--no-trace-header",
            defaultValue = "false",
            description =
                "do not put a `Received:` field (RFC 5321 4.4: client, this host, protocol, id,"
                    + " recipient, time) in front of each message taken; by default the raw source shows"
                    + " it, as every MTA's does")
        boolean noTraceHeader) {

  /** Whether bounces are taken. */
  public enum NullSender {
    ACCEPT,
    REFUSE
  }

  /**
   * @throws IllegalArgumentException if a value is out of range (see the type's guarantees)
   */
  public IntakeSettings {
    check(port >= 0 && port <= 65535, "--smtp-port must be 0 to 65535: " + port);
    hostName = hostName == null || hostName.isBlank() ? localHostName() : hostName;
    check(hostName.chars().noneMatch(c -> c <= ' '), "--hostname must be one word: " + hostName);
    domains =
        Objects.requireNonNullElse(domains, Set.<String>of()).stream()
            .map(InboxName::canonicalDomain)
            .filter(domain -> !domain.isEmpty())
            .map(IntakeSettings::domainName)
            .collect(
                Collectors.collectingAndThen(
                    Collectors.toCollection(LinkedHashSet::new), Collections::unmodifiableSet));
    Objects.requireNonNull(threads, "--threads");
    check(poolThreads >= 1, "--pool-threads must be positive");
    check(maxMessageSize >= 1, "--max-message-size must be positive");
    maxInflightBytes =
        maxInflightBytes != null ? maxInflightBytes : defaultMaxInflightBytes(maxMessageSize);
    check(
        maxInflightBytes >= maxMessageSize,
        "--max-inflight-bytes must be at least --max-message-size ("
            + maxMessageSize
            + "): "
            + maxInflightBytes);
    check(maxRecipients >= 1, "--max-recipients must be positive");
    check(maxConnections >= 1, "--max-connections must be positive");
    check(maxConnectionsPerIp >= 1, "--max-connections-per-ip must be positive");
    checkTimeout(commandTimeout, "--command-timeout");
    checkTimeout(dataTimeout, "--data-timeout");
    check(
        maxLineLength >= MIN_LINE_LENGTH,
        "--max-line-length must be at least "
            + MIN_LINE_LENGTH
            + " (RFC 5321 4.5.3.1.6: SMTP takes text lines of 1000 octets, CRLF included): "
            + maxLineLength);
    Objects.requireNonNull(nullSender, "--null-sender");
    Objects.requireNonNull(trustedNetworks, "--trusted-networks");
    check(perIpMessageRate >= 0, "--per-ip-rate must not be negative");
    Objects.requireNonNull(auth, "--smtp-auth");
  }

  /**
   * The shortest {@code --max-line-length}: the longest text line, CRLF included, that RFC 5321
   * (4.5.3.1.6) has every SMTP server take.
   */
  public static final int MIN_LINE_LENGTH = 1000;

  /**
   * These options given, every other at its default.
   *
   * @param options as on {@code burnbox serve}'s command line, e.g. {@code --smtp-port=0}
   * @throws IllegalArgumentException if an option is unknown or a value invalid
   */
  public static IntakeSettings of(String... options) {
    return OptionRecord.parse(IntakeSettings.class, options);
  }

  /** Every option at its default. */
  public static IntakeSettings defaults() {
    return of();
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

  private static String localHostName() {
    try {
      String name = InetAddress.getLocalHost().getHostName();
      return name.isBlank() ? "burnbox" : name;
    } catch (UnknownHostException e) {
      return "burnbox";
    }
  }

  /**
   * True if every domain is served ({@link #domains()} is empty) or {@code domain} is, compared
   * case-insensitively and with internationalized names in their ASCII (punycode) form.
   */
  public boolean serves(String domain) {
    return domains.isEmpty() || domains.contains(InboxName.canonicalDomain(domain));
  }

  /**
   * The domain that a {@code RCPT TO:<postmaster>} without one names (RFC 5321 4.5.1 requires
   * taking it): the first of {@link #domains()} in the order given, or {@link #hostName()} when
   * every domain is served.
   */
  public String postmasterDomain() {
    return domains.isEmpty() ? hostName : domains.iterator().next();
  }

  /**
   * {@code domain}, canonical, if it is a DNS name as {@link InboxName#domainName} takes them (the
   * check {@code --private-domains} has too).
   *
   * @throws IllegalArgumentException if it is not, naming {@code --domains}
   */
  private static String domainName(String domain) {
    try {
      return InboxName.domainName(domain);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--domains: " + e.getMessage(), e);
    }
  }

  /** Hides the key store password. */
  @Override
  public String toString() {
    return OptionRecord.describe(this);
  }
}
