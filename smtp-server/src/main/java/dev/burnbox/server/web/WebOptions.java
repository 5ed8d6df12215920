package dev.burnbox.server.web;

import dev.burnbox.server.config.OptionCatalog;
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
 * The web port's options of {@code burnbox serve}, each declared once here (see {@link
 * OptionCatalog}); {@link WebLimits#defaults} and the service's settings start from their defaults.
 * A picocli mixin; not thread-safe until parsed.
 */
public final class WebOptions {
  private static final WebOptions DEFAULTS = OptionCatalog.defaults(new WebOptions());

  @Option(
      names = "--http-port",
      paramLabel = "N",
      defaultValue = "8080",
      description = "web port; 0 picks a free one")
  int port;

  @Option(
      names = "--http-max-connections",
      paramLabel = "N",
      defaultValue = "2000",
      description =
          "connections the web port holds open at once, live event streams included; at the cap"
              + " it stops accepting until one closes (new clients wait in the listen queue)")
  int maxConnections;

  @Option(
      names = "--http-max-connections-per-ip",
      paramLabel = "N",
      defaultValue = "50",
      description =
          "connections one untrusted address holds open on the web port; one more is closed as it"
              + " opens (a browser uses a handful per page, one more per open inbox tab);"
              + " `--trusted-networks` are exempt, so put a reverse proxy there")
  int maxConnectionsPerIp;

  @Option(
      names = "--http-head-timeout",
      paramLabel = "DURATION",
      defaultValue = "20s",
      converter = OptionValues.Durations.class,
      description =
          "time for a whole request head (request line and headers) from a connection's opening or"
              + " the end of its previous response; bytes trickled in do not extend it, and a"
              + " keep-alive connection idle this long is closed")
  Duration headTimeout;

  @Option(
      names = "--metrics-port",
      paramLabel = "web|off|N",
      defaultValue = "web",
      description =
          "where `/metrics` is served: on the web port, nowhere (`off`), or only on port N of"
              + " `--metrics-bind` and then not on the web port (0 picks a free one; the log line"
              + " `listening ... metrics=PORT` says which); see [Metrics](#metrics)")
  String metricsPort;

  @Option(
      names = "--metrics-bind",
      paramLabel = "ADDRESS",
      description = "address of the metrics port of `--metrics-port N`")
  @WhenUnset("127.0.0.1")
  String metricsBind;

  @Option(
      names = "--cors-origins",
      paramLabel = "ORIGINS",
      description =
          "comma-separated origins (`https://dash.example`, `http://localhost:3000`) or `*` whose"
              + " pages may read the JSON API from a browser (GET and the live event stream, with"
              + " preflight); pages and `/metrics` stay same-origin")
  @WhenUnset("none")
  String corsOrigins;

  @Option(
      names = "--cors-writes",
      defaultValue = "false",
      description = "let those origins delete messages through the API too")
  boolean corsWrites;

  @Option(
      names = "--admin-token",
      paramLabel = "SECRET",
      description =
          "operator token (16+ characters) that opens `GET /api/v1/messages` (the newest mail of"
              + " every inbox, searchable), the `/monitor` page and every private domain's inboxes,"
              + " sent as `Authorization: Bearer TOKEN`; see [Operators](#operators)")
  @WhenUnset("operator endpoints off")
  String adminToken;

  @Option(
      names = "--private-domains",
      paramLabel = "DOMAINS",
      description =
          "comma-separated domains of `--domains` whose mail goes to inboxes of their own"
              + " (`bob@team.example`, apart from the shared `bob`), read only with a token of"
              + " `--api-tokens-file` or `--admin-token`; see [Private domains](#private-domains)")
  @WhenUnset("none")
  String privateDomains;

  @Option(
      names = "--api-tokens-file",
      paramLabel = "FILE",
      description =
          "tokens that open private domains' inboxes, one `TOKEN DOMAIN[,DOMAIN...]` (or `TOKEN"
              + " *`) a line, read again when it changes; sent as `Authorization: Bearer TOKEN`"
              + " or typed into the page's form")
  @WhenUnset("none")
  Path apiTokensFile;

  /** These options without a command line or environment: every one at its default. */
  public static WebOptions defaults() {
    return DEFAULTS;
  }

  /**
   * {@code --cors-origins}, {@code --cors-writes}, {@code --admin-token}, {@code --private-domains}
   * and {@code --api-tokens-file} as one setting.
   *
   * @throws IllegalArgumentException if an entry is not an origin, the token is too short, a domain
   *     is not a domain, or the tokens file cannot be read or has a bad line (the message says
   *     which)
   */
  public WebAccess access() {
    ApiTokens tokens;
    try {
      tokens = apiTokensFile == null ? ApiTokens.none() : ApiTokens.read(apiTokensFile);
    } catch (IOException e) {
      throw new IllegalArgumentException("--api-tokens-file: cannot read " + e.getMessage(), e);
    }
    return new WebAccess(
        CorsPolicy.parse(corsOrigins, corsWrites),
        adminToken == null || adminToken.isBlank() ? null : adminToken,
        PrivateDomains.parse(privateDomains),
        tokens);
  }

  /** {@code --http-port}. */
  public int port() {
    return port;
  }

  /**
   * The connection limits, with {@code trustedNetworks} exempt from the per-address one.
   *
   * @throws IllegalArgumentException if a limit is out of range (see {@link WebLimits})
   */
  public WebLimits limits(NetworkList trustedNetworks) {
    return new WebLimits(maxConnections, maxConnectionsPerIp, headTimeout, trustedNetworks);
  }

  /**
   * {@code --metrics-port} and {@code --metrics-bind} as one setting.
   *
   * @throws IllegalArgumentException if the port is not web, off or a number, or a bind address is
   *     given without a port of its own or cannot be resolved
   */
  public MetricsEndpoint metrics() {
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
    return MetricsEndpoint.ownPort(
        OptionValues.parseAddress(bindGiven ? metricsBind : "127.0.0.1"), port);
  }
}
