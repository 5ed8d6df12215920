package dev.burnbox.server.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.HotSpotDiagnosticMXBean;
import dev.burnbox.mailstore.EvictionCause;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.StoreStats;
import dev.burnbox.mailstore.StoreUnavailableException;
import dev.burnbox.server.config.BurnboxVersion;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.server.smtp.IntakeSettings;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.NotFoundResponse;
import io.javalin.http.util.MethodNotAllowedUtil;
import io.javalin.router.EndpointNotFound;
import io.javalin.router.InternalRouter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.BindException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the service, on Javalin (Jetty 12): requests on platform threads (one per
 * connection at most), the waits among them (event streams, {@code /next}) on a virtual thread each
 * ({@link WebThreads}: why).
 *
 * <p>Routes: the pages of {@link MessagePages} ({@code /}, {@code /inbox/{name}}, {@code
 * /message/{id}}), the JSON API of {@link InboxApi} under {@code /api/v1/} with its description at
 * {@code /api/openapi.json}, {@code GET /api/v1/stats}, {@code GET /healthz} (as {@link #health}
 * says), {@code GET /metrics} (Prometheus text format; on the web port only with {@link
 * MetricsEndpoint#webPort()}, else on a {@link MetricsServer} of its own or nowhere) and the static
 * front end under {@code /static/}, with {@code /robots.txt} and {@code /favicon.ico}.
 *
 * <p>Guarantees: every response carries the {@link SecurityHeaders}, those Jetty writes itself
 * included ({@link WebGuard}, {@link WebErrorHandler}); a {@code HEAD} answers what the {@code GET}
 * of its URL answers, without the body ({@link HeadAsGet}); a bad name, id or parameter answers 400
 * and an unknown path or message 404, a method that the path does not take 405 with {@code Allow},
 * as a JSON {@code {"error": "..."}} body for the API ({@code /api/...}) and as an HTML page for
 * every other path; requests Jetty rejects get a generic plain-text body. No listing, page or API
 * body grows with a sender's header text beyond {@link HeaderCut}'s bounds. The port holds the
 * {@link WebLimits}: a total and a per-address connection cap and a request head deadline ({@link
 * ConnectionGate}); refusals count on {@code burnbox.refusals{stage="web", reason}} ({@link
 * WebRefusals}). Not thread-safe to start and stop concurrently; requests are served concurrently.
 */
public final class WebServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WebServer.class);

  static {
    presetJettyCacheLine();
  }

  /**
   * How often an idle event stream sends a comment, for proxies and clients that drop idle
   * connections (clients that go are noticed at once, by {@link ClientHangups}).
   */
  static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(15);

  private final Javalin app;
  private final InboxEvents events;
  private final WebThreads threads = new WebThreads("burnbox-web");
  private final ClientHangups hangups = new ClientHangups("burnbox-web-hangups");
  private final WebReadBudget readBudget;
  private final ConnectionGate gate;
  private final MetricsServer metricsServer;
  private final int port; // as asked: 0 picks one
  private final int metricsPort;
  private volatile Health health = Health.OK;

  /**
   * What {@code /healthz} says: 200 {@code {"status":"ok"}} only in {@link #OK}, 503 with the
   * status's name otherwise, so that a health check or a script that waits for it sends mail only
   * once the whole service takes it.
   */
  public enum Health {
    /** The service around this server is still starting (the SMTP port may not be open yet). */
    STARTING,
    /** Ready: the default for a server on its own. */
    OK,
    /** The service is shutting down. */
    STOPPING
  }

  /**
   * A server on {@code port} (0 picks a free port) with the default {@link WebLimits} (loopback
   * trusted) and the metrics on the web port; see {@link #WebServer(String, int, WebLimits,
   * MetricsEndpoint, WebAccess, List, InboxStore, MailDecoder, SpamScanner,
   * PrometheusMeterRegistry)}, with no other origin allowed and no domain named.
   */
  public WebServer(
      String bindAddress,
      int port,
      InboxStore store,
      MailDecoder decoder,
      SpamScanner scanner,
      PrometheusMeterRegistry registry) {
    this(
        bindAddress,
        port,
        defaultLimits(),
        MetricsEndpoint.webPort(),
        WebAccess.SAME_ORIGIN,
        List.of(),
        store,
        decoder,
        scanner,
        registry,
        DEFAULT_HEARTBEAT);
  }

  /**
   * A server on {@code port} (0 picks a free port) that serves {@code store}'s mail, decoded by
   * {@code decoder}, and {@code registry}'s metrics where {@code metrics} says; call {@link
   * #start()}.
   *
   * @param bindAddress the address to listen on, or null for every interface
   * @param limits the connection caps and the request head deadline of the web port
   * @param access which other origins' pages may use the JSON API, and the operator token
   * @param servedDomains the domains of {@code --domains}, in their order, whose addresses the
   *     pages show; empty if mail is taken for every domain
   * @param scanner the intake's scanner: its current threshold is reported with every verdict, and
   *     it explains verdicts and marks spam terms when a message is read
   */
  public WebServer(
      String bindAddress,
      int port,
      WebLimits limits,
      MetricsEndpoint metrics,
      WebAccess access,
      List<String> servedDomains,
      InboxStore store,
      MailDecoder decoder,
      SpamScanner scanner,
      PrometheusMeterRegistry registry) {
    this(
        bindAddress,
        port,
        limits,
        metrics,
        access,
        servedDomains,
        store,
        decoder,
        scanner,
        registry,
        DEFAULT_HEARTBEAT);
  }

  WebServer(
      String bindAddress,
      int port,
      InboxStore store,
      MailDecoder decoder,
      SpamScanner scanner,
      PrometheusMeterRegistry registry,
      Duration heartbeat) {
    this(
        bindAddress,
        port,
        defaultLimits(),
        MetricsEndpoint.webPort(),
        WebAccess.SAME_ORIGIN,
        List.of(),
        store,
        decoder,
        scanner,
        registry,
        heartbeat);
  }

  WebServer(
      String bindAddress,
      int port,
      WebLimits limits,
      MetricsEndpoint metrics,
      WebAccess access,
      List<String> servedDomains,
      InboxStore store,
      MailDecoder decoder,
      SpamScanner scanner,
      PrometheusMeterRegistry registry,
      Duration heartbeat) {
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(metrics, "metrics");
    this.port = port;
    this.metricsPort = metrics.port();
    Objects.requireNonNull(access, "access");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(decoder, "decoder");
    Objects.requireNonNull(scanner, "scanner");
    Objects.requireNonNull(registry, "registry");
    WebRefusals refusals = new WebRefusals(registry, System::nanoTime);
    WebErrorHandler errors = new WebErrorHandler(refusals);
    this.gate = new ConnectionGate(limits, refusals, registry, System::nanoTime);
    this.readBudget =
        new WebReadBudget(limits.readBudgetBytes(), limits.trustedNetworks(), registry, refusals);
    InlineImageSigner signer = new InlineImageSigner(access);
    MailReader reader = new MailReader(store, decoder, new MailHtmlSanitizer(), readBudget, signer);
    this.events = new InboxEvents(store, scanner, new ObjectMapper(), heartbeat, hangups);
    InboxApi api =
        new InboxApi(
            store,
            reader,
            scanner,
            events,
            new InboxWaits(store, reader, scanner, limits.trustedNetworks(), hangups, refusals),
            access,
            threads);
    MessagePages pages = new MessagePages(store, reader, scanner, access, servedDomains, signer);
    OperatorMonitor monitor = new OperatorMonitor(store, reader, scanner, access);
    byte[] openApi = resource("/web/openapi.json");
    StaticFiles staticFiles = new StaticFiles();
    this.app =
        Javalin.create(
            config -> {
              config.jetty.threadPool =
                  WebThreads.requestPool("burnbox-web", limits.maxConnections());
              config.startup.showJavalinBanner = false;
              config.jetty.modifyServer(
                  server -> {
                    server.setErrorHandler(errors);
                    server.insertHandler(new HeadAsGet());
                    server.insertHandler(new WebGuard(gate, errors)); // outermost
                    server.addBean(gate.totalLimit(server));
                  });
              config.jetty.addConnector(
                  (server, http) -> {
                    ServerConnector connector =
                        new ServerConnector(server, new HttpConnectionFactory(http));
                    connector.setHost(bindAddress);
                    connector.setPort(port);
                    connector.addEventListener(gate);
                    return connector;
                  });
              config.routes.before(SecurityHeaders::standard);
              config.routes.before("/api/*", access.cors()::onRequest);
              config.routes.options("/api/*", access.cors()::onPreflight);
              config.routes.get(
                  "/healthz",
                  ctx -> {
                    Health now = health;
                    ctx.status(now == Health.OK ? 200 : 503)
                        .json(
                            Map.of(
                                "status",
                                now.name().toLowerCase(Locale.ROOT),
                                "version",
                                BurnboxVersion.current()));
                  });
              if (metrics.where() == MetricsEndpoint.Where.WEB_PORT) {
                config.routes.get("/metrics", ctx -> MetricsServer.scrape(ctx, registry));
              }
              config.routes.get(
                  "/api/v1/stats", InboxApi.taking(ctx -> ctx.json(statsJson(store.stats()))));
              config.routes.get(
                  "/api/openapi.json", ctx -> ctx.contentType("application/json").result(openApi));
              staticFiles.addRoutes(config.routes);
              api.addRoutes(config.routes);
              pages.addRoutes(config.routes);
              monitor.addRoutes(config.routes);
              config.routes.error(
                  404,
                  ctx -> {
                    if (ctx.result() == null) {
                      error(ctx, "no such resource: " + ctx.path());
                    }
                  });
              config.routes.exception(
                  IllegalArgumentException.class,
                  (e, ctx) -> error(ctx.status(400), e.getMessage()));
              InternalRouter router = config.unsafe.internalRouter;
              config.routes.exception(NotFoundResponse.class, (e, ctx) -> notFound(router, e, ctx));
              config.routes.exception(
                  WebAccess.PrivateInboxException.class, WebServer::privateInbox);
              // a wait (/next) is interrupted only by close(): the node is stopping
              config.routes.exception(
                  InterruptedException.class,
                  (e, ctx) -> {
                    ctx.header("Retry-After", "1");
                    error(ctx.status(503), "the server is stopping; try again");
                  });
              config.routes.exception(
                  WebReadBudget.Busy.class,
                  (e, ctx) -> {
                    ctx.header("Retry-After", "1");
                    error(ctx.status(503), e.getMessage());
                  });
              config.routes.exception(
                  StoreUnavailableException.class,
                  (e, ctx) -> {
                    log.warn("answered 503: {}", e.getMessage());
                    ctx.header("Retry-After", "5");
                    error(ctx.status(503), "mail store unavailable; try again shortly");
                  });
            });
    this.metricsServer =
        metrics.where() == MetricsEndpoint.Where.OWN_PORT
            ? new MetricsServer(metrics, registry, errors)
            : null;
  }

  /** The defaults of {@link WebLimits}, loopback trusted as on the SMTP side. */
  private static WebLimits defaultLimits() {
    return WebLimits.defaults(IntakeSettings.defaults().trustedNetworks());
  }

  /**
   * Starts listening: the web port, then the metrics port if the metrics have one.
   *
   * @throws UncheckedIOException if a port cannot be bound; the message names its option and the
   *     port: {@code --http-port 8080: Address already in use}
   */
  public void start() {
    gate.start();
    listen(app::start, "--http-port", port);
    if (metricsServer != null) {
      listen(metricsServer::start, "--metrics-port", metricsPort);
    }
  }

  /** Runs {@code start}; its failure to bind {@code port} names {@code option} and the port. */
  private static void listen(Runnable start, String option, int port) {
    try {
      start.run();
    } catch (RuntimeException e) {
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof BindException taken) {
          throw new UncheckedIOException(option + " " + port + ": " + taken.getMessage(), taken);
        }
      }
      throw e;
    }
  }

  /** Sets what {@code /healthz} answers from now on. */
  public void health(Health health) {
    this.health = Objects.requireNonNull(health, "health");
  }

  /** The port listened on; valid after {@link #start()}. */
  public int port() {
    return app.port();
  }

  /** The metrics port listened on, if the metrics have their own; valid after {@link #start()}. */
  public OptionalInt metricsPort() {
    return metricsServer == null ? OptionalInt.empty() : OptionalInt.of(metricsServer.port());
  }

  /** Connections to the web port open now. */
  int openConnections() {
    return gate.openConnections();
  }

  /**
   * What the web side may hold at once of large messages it reads for requests, in a heap of {@code
   * heapBytes}: 1/64 of it, at least 16 MiB (see {@code WebReadBudget}).
   */
  public static long readBudgetBytes(long heapBytes) {
    return WebReadBudget.capacityFor(heapBytes);
  }

  /** Event streams open now. */
  int openEventStreams() {
    return events.openStreams();
  }

  /**
   * Ends the event streams open now, as a dropped connection would; clients reconnect. For tests.
   */
  void endEventStreams() {
    events.close();
  }

  /** Whether every wait ({@code /next}) has ended: after {@link #close}. For tests. */
  boolean waitsEnded() {
    return threads.waitsEnded();
  }

  /** Ends the event streams, stops listening and finishes the requests in flight. */
  @Override
  public void close() {
    events.close();
    // the waits end first, while their requests can still answer: a wait that completed after
    // Jetty recycled its request sent Javalin's error handling round in a loop on the wait thread
    threads.close();
    try {
      if (metricsServer != null) {
        metricsServer.close();
      }
      app.stop();
    } finally {
      hangups.close();
      readBudget.unregister();
      gate.close();
    }
  }

  /** The {@code /api/v1/stats} body: field names as documented on {@link StoreStats}. */
  static Map<String, Object> statsJson(StoreStats stats) {
    Map<String, Long> evictions = new LinkedHashMap<>();
    for (Map.Entry<EvictionCause, Long> e : stats.evictions().entrySet()) {
      evictions.put(e.getKey().name().toLowerCase(Locale.ROOT), e.getValue());
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("messages", stats.messages());
    json.put("inboxes", stats.inboxes());
    json.put("logicalBytes", stats.logicalBytes());
    json.put("distinctBytes", stats.distinctBytes());
    json.put("messageBytes", stats.messageBytes());
    json.put("indexBytes", stats.indexBytes());
    json.put("cacheBytes", stats.cacheBytes());
    json.put("codecBytes", stats.codecBytes());
    json.put("storedBytes", stats.storedBytes());
    json.put("entriesDelivered", stats.entriesDelivered());
    json.put("evictions", evictions);
    json.put("deletions", stats.deletions());
    return json;
  }

  /**
   * A private inbox asked for without a token that opens it: the pages answer with a form that asks
   * for the token, the API with a bearer challenge.
   */
  private static void privateInbox(WebAccess.PrivateInboxException e, Context ctx) {
    ctx.status(e.status());
    if (MessagePages.isPage(ctx.path())) {
      ctx.html(MessagePages.tokenPage(e, ctx.path()));
    } else {
      ctx.header("WWW-Authenticate", "Bearer realm=\"burnbox\"");
      ctx.json(Map.of("error", e.getMessage()));
    }
  }

  /**
   * A 404, or a 405 with {@code Allow} when no route takes the request's method at a path that
   * other methods' routes take (OPTIONS, which every API path answers for the CORS preflight, does
   * not make a path exist). A path no route takes says so in words outside the API, not as the
   * router's "Endpoint GET /x not found".
   */
  private static void notFound(InternalRouter router, NotFoundResponse e, Context ctx) {
    if (e instanceof EndpointNotFound) {
      List<HandlerType> methods =
          MethodNotAllowedUtil.INSTANCE.findAvailableHttpHandlerTypes(router, ctx.path());
      if (methods.stream().anyMatch(method -> method != HandlerType.OPTIONS)) {
        String allow =
            methods.stream()
                .flatMap(m -> m == HandlerType.GET ? Stream.of(m, HandlerType.HEAD) : Stream.of(m))
                .map(HandlerType::name)
                .collect(Collectors.joining(", "));
        ctx.header("Allow", allow);
        error(ctx.status(405), ctx.method().name() + " is not allowed here; allowed: " + allow);
        return;
      }
      if (!ctx.path().startsWith("/api/")) {
        error(
            ctx.status(404),
            "There is no page at " + HeaderCut.cut(ctx.path(), HeaderCut.LISTING) + ".");
        return;
      }
    }
    error(ctx.status(404), e.getMessage());
  }

  /** An error body: JSON for the API ({@code /api/...}), an HTML page for every other path. */
  private static void error(Context ctx, String message) {
    String text = message == null ? "bad request" : message;
    if (ctx.path().startsWith("/api/")) {
      ctx.json(Map.of("error", text));
    } else {
      ctx.html(MessagePages.errorPage(ctx.statusCode(), text));
    }
  }

  /** The bytes of a class path resource of the web layer, e.g. {@code /web/openapi.json}. */
  static byte[] resource(String path) {
    try (InputStream in = WebServer.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Jetty's {@code MemoryUtils} pads its queues to a cache line and, to know how many references
   * fit in one, asks the platform MBean server whether object pointers are compressed; building
   * that server (every platform MBean, JFR's diagnostic commands) took 0.2-0.8 s of a start here.
   * The same answer comes from the one diagnostic bean, handed to Jetty through the property it
   * reads first ({@code org.eclipse.jetty.util.referencesPerCacheLine}, unless the user set it).
   * Should that bean be missing, Jetty asks for itself as before.
   */
  private static void presetJettyCacheLine() {
    String property = "org.eclipse.jetty.util.referencesPerCacheLine";
    if (System.getProperty(property) != null) {
      return;
    }
    try {
      int cacheLineBytes = Integer.getInteger("org.eclipse.jetty.util.cacheLineBytes", 64);
      HotSpotDiagnosticMXBean hotspot =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      boolean compressed =
          Boolean.parseBoolean(hotspot.getVMOption("UseCompressedOops").getValue());
      System.setProperty(property, Integer.toString(cacheLineBytes / (compressed ? 4 : 8)));
    } catch (RuntimeException | LinkageError e) {
      log.debug("Jetty sizes its cache-line padding itself: {}", e.toString());
    }
  }
}
