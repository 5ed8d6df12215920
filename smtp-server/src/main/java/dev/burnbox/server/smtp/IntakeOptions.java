package dev.burnbox.server.smtp;

import dev.burnbox.server.config.OptionCatalog;
import dev.burnbox.server.config.OptionValues;
import dev.burnbox.server.config.WhenUnset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/**
 * The SMTP intake's options of {@code burnbox serve}: each declared once here, with its name,
 * default and meaning; {@link IntakeSettings#builder()} starts from these defaults, and the
 * environment variables, {@code --help} and the README's table are derived from them (see {@link
 * OptionCatalog}). A picocli mixin; not thread-safe until parsed.
 */
public final class IntakeOptions {
  private static final IntakeOptions DEFAULTS = OptionCatalog.defaults(new IntakeOptions());

  @Option(
      names = "--smtp-port",
      paramLabel = "N",
      defaultValue = "2525",
      description =
          "SMTP port; 0 picks a free one (the log line `listening smtp=PORT http=PORT` says which)")
  int port;

  @Option(
      names = "--hostname",
      paramLabel = "NAME",
      description = "name in the SMTP greeting and the self-signed certificate")
  @WhenUnset("this host's name")
  String hostName;

  @Option(
      names = "--domains",
      paramLabel = "LIST",
      split = ",",
      description =
          "comma-separated domains to accept mail for; RCPT to others gets 550 5.7.1 (nothing is"
              + " ever relayed)")
  @WhenUnset("every domain")
  String[] domains = {};

  @Option(
      names = "--threads",
      paramLabel = "MODEL",
      defaultValue = "virtual",
      description =
          "`virtual` or `platform`: one thread per SMTP connection either way (`pool` = a fixed"
              + " pool of `--pool-threads`, for comparison only); `virtual` is the default for"
              + " memory and latency under many connections (docs/benchmarks.md \"SMTP load\")")
  ThreadModel threads;

  @Option(
      names = "--pool-threads",
      paramLabel = "N",
      defaultValue = "50",
      description = "threads of the fixed pool of `--threads=pool`")
  int poolThreads;

  @Option(
      names = "--max-message-size",
      paramLabel = "BYTES",
      defaultValue = "10MiB",
      converter = OptionValues.Bytes.class,
      description =
          "advertised as SIZE; bigger messages get 552 5.3.4 (the excess is counted, not"
              + " buffered)")
  long maxMessageSize;

  @Option(
      names = "--max-inflight-bytes",
      paramLabel = "BYTES",
      converter = OptionValues.Bytes.class,
      description =
          "message bytes all SMTP sessions together hold in memory while mail arrives and is"
              + " processed; a message that would pass it is read to its end, dropped and answered"
              + " 452 4.3.1 (try later)")
  @WhenUnset("a quarter of the heap (at least `--max-message-size`)")
  Long maxInflightBytes;

  @Option(
      names = "--max-recipients",
      paramLabel = "N",
      defaultValue = "100",
      description = "distinct recipients per message; more get 452 4.5.3")
  int maxRecipients;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      defaultValue = "2000",
      description = "concurrent connections; more get 421 4.7.0")
  int maxConnections;

  @Option(
      names = "--max-connections-per-ip",
      paramLabel = "N",
      defaultValue = "50",
      description = "concurrent connections from one untrusted address; more get 421 4.7.0")
  int maxConnectionsPerIp;

  @Option(
      names = "--command-timeout",
      paramLabel = "DURATION",
      defaultValue = "60s",
      converter = OptionValues.Durations.class,
      description = "silence between commands before 421 and close")
  Duration commandTimeout;

  @Option(
      names = "--data-timeout",
      paramLabel = "DURATION",
      defaultValue = "120s",
      converter = OptionValues.Durations.class,
      description = "a stall while message data arrives before 421 4.4.2 and close")
  Duration dataTimeout;

  @Option(
      names = "--max-line-length",
      paramLabel = "BYTES",
      defaultValue = "8192",
      description =
          "longest message line, CRLF included; a message with a longer one gets 500 5.5.2")
  int maxLineLength;

  @Option(
      names = "--null-sender",
      paramLabel = "accept|refuse",
      defaultValue = "accept",
      description = "whether bounces (`MAIL FROM:<>`) are taken; refused ones get 550 5.7.1")
  NullSender nullSender;

  @Option(
      names = "--trusted-networks",
      paramLabel = "CIDRS",
      defaultValue = "127.0.0.0/8,::1",
      description =
          "clients exempt from the per-IP limits (SMTP and web) and the filters (like Postfix's"
              + " `mynetworks`); put a reverse proxy in front of the web port here")
  String trustedNetworks;

  @Option(
      names = "--per-ip-rate",
      paramLabel = "PER_MINUTE",
      defaultValue = "120",
      description =
          "messages per minute from one untrusted address; more get 450 4.7.0; 0 = no limit")
  int perIpRate;

  @Option(
      names = "--no-filters",
      defaultValue = "false",
      description = "turn the per-IP rate filter and the subject flood ban off for everyone")
  boolean noFilters;

  @Option(
      names = "--tls-keystore",
      paramLabel = "FILE",
      description =
          "PKCS#12 or JKS key store for STARTTLS; without one a self-signed certificate is made"
              + " at start")
  @WhenUnset("self-signed")
  Path tlsKeystore;

  @Option(names = "--tls-keystore-password", paramLabel = "PASSWORD", description = "its password")
  @WhenUnset("none")
  String tlsKeystorePassword;

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
  String auth;

  @Option(
      names = "--smtp-auth-insecure",
      defaultValue = "false",
      description =
          "offer AUTH on plain connections from untrusted clients too (their passwords cross the"
              + " network in the clear)")
  boolean authInsecure;

  @Option(
      names = "--no-trace-header",
      defaultValue = "false",
      description =
          "do not put a `Received:` field (RFC 5321 4.4: client, this host, protocol, id,"
              + " recipient, time) in front of each message taken; by default the raw source shows"
              + " it, as every MTA's does")
  boolean noTraceHeader;

  /** Whether bounces are taken. */
  enum NullSender {
    ACCEPT,
    REFUSE
  }

  /** These options without a command line or environment: every one at its default. */
  static IntakeOptions defaults() {
    return DEFAULTS;
  }

  /** Sets every option's value on {@code builder} and returns it. */
  public IntakeSettings.Builder applyTo(IntakeSettings.Builder builder) {
    if (hostName != null && !hostName.isBlank()) {
      builder.hostName(hostName);
    }
    return builder
        .port(port)
        .domains(
            Arrays.stream(domains)
                .map(String::strip)
                .filter(d -> !d.isEmpty())
                .collect(Collectors.toUnmodifiableSet()))
        .threads(threads)
        .poolThreads(poolThreads)
        .maxMessageSize(Math.toIntExact(Math.min(maxMessageSize, Integer.MAX_VALUE - 1)))
        .maxInflightBytes(maxInflightBytes == null ? 0 : maxInflightBytes)
        .maxRecipients(maxRecipients)
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
        .tlsKeystorePassword(tlsKeystorePassword)
        .auth(SmtpAuth.parse(auth))
        .authOnPlainConnections(authInsecure)
        .traceHeader(!noTraceHeader);
  }
}
