package dev.burnbox.server.web;

import dev.burnbox.server.config.OptionRecord;
import dev.burnbox.server.config.OptionValues;
import dev.burnbox.server.config.WhenUnset;
import dev.burnbox.server.pipeline.PrivateDomains;
import dev.burnbox.server.smtp.NetworkList;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The web port's settings: each component is an option of {@code burnbox serve}, declared here once
 * (see {@link OptionRecord}). Immutable; make one with {@link #of}. Guarantees, checked at
 * construction: the port is 0 to 65535, the connection limits and head timeout are valid ({@link
 * WebLimits}), {@link #metrics()} and {@link #access()} can be built (a well-formed port, origins,
 * a token of 16+ characters, private domains that are domains, a readable and well-formed tokens
 * file, and someone who can read the private domains). The operator token is never shown by {@link
 * #toString()}.
 */
public record WebSettings(
    @Option(
            names = "--http-port",
            paramLabel = "N",
            defaultValue = "8080",
            description = "web port; 0 picks a free one")
        int port,
    @Option(
            names = "--http-max-connections",
            paramLabel = "N",
            defaultValue = "2000",
            description =
                "connections the web port holds open at once, live event streams included; at the cap"
                    + " it stops accepting until one closes (new clients wait in the listen queue)")
        int maxConnections,
    @Option(
            names = "--http-max-connections-per-ip",
            paramLabel = "N",
            defaultValue = "50",
            description =
                "connections one untrusted address holds open on the web port; one more is answered"
                    + " 429 and closed (a browser uses a handful per page, one more per open inbox tab);"
                    + " `--trusted-networks` are exempt, so put a reverse proxy there")
        int maxConnectionsPerIp,
    @Option(
            names = "--http-head-timeout",
            paramLabel = "DURATION",
            defaultValue = "20s",
            converter = OptionValues.Durations.class,
            description =
                "time for a whole request head (request line and headers) from a connection's opening or"
                    + " the end of its previous response; bytes trickled in do not extend it, and a"
                    + " keep-alive connection idle this long is closed")
        Duration headTimeout,
    @Option(
            names = "--metrics-port",
            paramLabel = "web|off|N",
            defaultValue = "web",
            description =
                "where `/metrics` is served: on the web port, nowhere (`off`), or only on port N of"
                    + " `--metrics-bind` and then not on the web port (0 picks a free one; the log line"
                    + " `listening ... metrics=PORT` says which); see [Metrics](#metrics)")
        String metricsPort,
    @Option(
            names = "--metrics-bind",
            paramLabel = "ADDRESS",
            description = "address of the metrics port of `--metrics-port N`")
        @WhenUnset("127.0.0.1")
        String metricsBind,
    @Option(
            names = "--cors-origins",
            paramLabel = "ORIGINS",
            description =
                "comma-separated origins (`https://dash.example`, `http://localhost:3000`) or `*` whose"
                    + " pages may read the JSON API from a browser (GET and the live event stream, with"
                    + " preflight); pages and `/metrics` stay same-origin")
        @WhenUnset("none")
        String corsOrigins,
    @Option(
            names = "--cors-writes",
            defaultValue = "false",
            description = "let those origins delete messages through the API too")
        boolean corsWrites,
    @Option(
            names = "--admin-token",
            paramLabel = "SECRET",
            description =
                "operator token (16+ characters) that opens `GET /api/v1/messages` (the newest mail of"
                    + " every inbox, searchable), the `/monitor` page and every private domain's"
                    + " inboxes, sent as `Authorization: Bearer TOKEN`; see [Operators](#operators)")
        @WhenUnset("operator endpoints off")
        String adminToken,
    @Option(
            names = "--private-domains",
            paramLabel = "DOMAINS",
            description =
                "comma-separated domains of `--domains` whose mail goes to inboxes of their own"
                    + " (`bob@team.example`, apart from the shared `bob`), read only with a token of"
                    + " `--api-tokens-file` or `--admin-token`; see [Private domains](#private-domains)")
        @WhenUnset("none")
        PrivateDomains privateDomains,
    @Option(
            names = "--api-tokens-file",
            paramLabel = "FILE",
            description =
                "tokens that open private domains' inboxes, one `TOKEN DOMAIN[,DOMAIN...]` (or `TOKEN"
                    + " *`) a line, read again when it changes; sent as `Authorization: Bearer TOKEN`"
                    + " or typed into the page's form")
        @WhenUnset("none")
        Path apiTokensFile) {

  /**
   * @throws IllegalArgumentException if a value is invalid (see the type's guarantees)
   */
  public WebSettings {
    privateDomains = privateDomains == null ? PrivateDomains.NONE : privateDomains;
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--http-port must be 0 to 65535: " + port);
    }
    new WebLimits(maxConnections, maxConnectionsPerIp, headTimeout, NetworkList.parse(""));
    metrics(metricsPort, metricsBind);
    access(corsOrigins, corsWrites, adminToken, privateDomains, apiTokensFile);
  }

  /**
   * These options given, every other at its default.
   *
   * @throws IllegalArgumentException if an option is unknown or a value invalid
   */
  public static WebSettings of(String... options) {
    return OptionRecord.parse(WebSettings.class, options);
  }

  /**
   * {@code --cors-origins}, {@code --cors-writes}, {@code --admin-token}, {@code --private-domains}
   * and {@code --api-tokens-file} as one setting; each call reads the tokens file anew (and watches
   * it), so build it once.
   *
   * @throws IllegalArgumentException if an origin, the token, a domain or the tokens file is bad
   *     (the message names the option, or the file and line)
   */
  public WebAccess access() {
    return access(corsOrigins, corsWrites, adminToken, privateDomains, apiTokensFile);
  }

  private static WebAccess access(
      String corsOrigins,
      boolean corsWrites,
      String adminToken,
      PrivateDomains privateDomains,
      Path apiTokensFile) {
    ApiTokens tokens;
    try {
      tokens = apiTokensFile == null ? ApiTokens.none() : ApiTokens.read(apiTokensFile);
    } catch (IOException e) {
      throw new IllegalArgumentException("--api-tokens-file: cannot read " + e.getMessage(), e);
    }
    return new WebAccess(
        CorsPolicy.parse(corsOrigins, corsWrites),
        adminToken == null || adminToken.isBlank() ? null : adminToken,
        privateDomains,
        tokens);
  }

  /** The connection limits, with {@code trustedNetworks} exempt from the per-address one. */
  public WebLimits limits(NetworkList trustedNetworks) {
    return new WebLimits(maxConnections, maxConnectionsPerIp, headTimeout, trustedNetworks);
  }

  /** {@code --metrics-port} and {@code --metrics-bind} as one setting. */
  public MetricsEndpoint metrics() {
    return metrics(metricsPort, metricsBind);
  }

  private static MetricsEndpoint metrics(String metricsPort, String metricsBind) {
    String where = metricsPort.strip().toLowerCase(Locale.ROOT);
    boolean bindGiven = metricsBind != null && !metricsBind.isBlank();
    if (where.equals("web") || where.equals("off")) {
      if (bindGiven) {
        throw new IllegalArgumentException("--metrics-bind needs --metrics-port N");
      }
      return where.equals("web") ? MetricsEndpoint.webPort() : MetricsEndpoint.off();
    }
    int number;
    try {
      number = Integer.parseInt(where);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--metrics-port must be web, off or a port number: " + metricsPort);
    }
    return MetricsEndpoint.ownPort(
        OptionValues.parseAddress(bindGiven ? metricsBind : "127.0.0.1"), number);
  }

  /** Hides the operator token. */
  @Override
  public String toString() {
    return OptionRecord.describe(this);
  }
}
