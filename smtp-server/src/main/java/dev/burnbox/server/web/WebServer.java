package dev.burnbox.server.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.mailstore.EvictionCause;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.StoreStats;
import dev.burnbox.mailstore.StoreUnavailableException;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.pipeline.SpamScanner;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;
import io.javalin.http.staticfiles.Location;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the service, on Javalin (Jetty 12) with one virtual thread per request.
 *
 * <p>Routes: the pages of {@link MessagePages} ({@code /}, {@code /inbox/{name}}, {@code
 * /message/{id}}), the JSON API of {@link InboxApi} under {@code /api/v1/} with its description at
 * {@code /api/openapi.json}, {@code GET /api/v1/stats}, {@code GET /healthz}, {@code GET /metrics}
 * (Prometheus text format) and the static front end under {@code /static/}.
 *
 * <p>Guarantees: every response carries the {@link SecurityHeaders}; a bad name, id or parameter
 * answers 400 and an unknown path or message 404, as a JSON {@code {"error": "..."}} body for the
 * API and as an HTML page for the pages. Not thread-safe to start and stop concurrently; requests
 * are served concurrently.
 */
public final class WebServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WebServer.class);

  /** How often an idle event stream sends a comment, to notice clients that have gone. */
  static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(15);

  private final Javalin app;
  private final InboxEvents events;
  private final String bindAddress;
  private final int requestedPort;

  /**
   * A server on {@code port} (0 picks a free port) that serves {@code store}'s mail, decoded by
   * {@code decoder}, and {@code registry}'s metrics; call {@link #start()}.
   *
   * @param bindAddress the address to listen on, or null for every interface
   * @param scanner the intake's scanner: its current threshold is reported with every verdict, and
   *     it explains verdicts and marks spam terms when a message is read
   */
  public WebServer(
      String bindAddress,
      int port,
      InboxStore store,
      MailDecoder decoder,
      SpamScanner scanner,
      PrometheusMeterRegistry registry) {
    this(bindAddress, port, store, decoder, scanner, registry, DEFAULT_HEARTBEAT);
  }

  WebServer(
      String bindAddress,
      int port,
      InboxStore store,
      MailDecoder decoder,
      SpamScanner scanner,
      PrometheusMeterRegistry registry,
      Duration heartbeat) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(decoder, "decoder");
    Objects.requireNonNull(scanner, "scanner");
    Objects.requireNonNull(registry, "registry");
    this.bindAddress = bindAddress;
    this.requestedPort = port;
    MailReader reader = new MailReader(store, decoder, new MailHtmlSanitizer());
    this.events = new InboxEvents(store, scanner, new ObjectMapper(), heartbeat);
    InboxApi api = new InboxApi(store, reader, scanner, events);
    MessagePages pages = new MessagePages(store, reader, scanner);
    byte[] openApi = resource("/web/openapi.json");
    this.app =
        Javalin.create(
            config -> {
              config.concurrency.useVirtualThreads = true;
              config.startup.showJavalinBanner = false;
              config.staticFiles.add(
                  files -> {
                    files.hostedPath = "/static";
                    files.directory = "/web/static";
                    files.location = Location.CLASSPATH;
                  });
              config.routes.before(SecurityHeaders::standard);
              config.routes.get("/healthz", ctx -> ctx.json(Map.of("status", "ok")));
              config.routes.get(
                  "/metrics",
                  ctx ->
                      ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                          .result(registry.scrape()));
              config.routes.get("/api/v1/stats", ctx -> ctx.json(statsJson(store.stats())));
              config.routes.get(
                  "/api/openapi.json", ctx -> ctx.contentType("application/json").result(openApi));
              api.addRoutes(config.routes);
              pages.addRoutes(config.routes);
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
              config.routes.exception(
                  NotFoundResponse.class, (e, ctx) -> error(ctx.status(404), e.getMessage()));
              config.routes.exception(
                  StoreUnavailableException.class,
                  (e, ctx) -> {
                    log.warn("answered 503: {}", e.getMessage());
                    error(ctx.status(503), "mail store unavailable; try again shortly");
                  });
            });
  }

  /** Starts listening. */
  public void start() {
    if (bindAddress == null) {
      app.start(requestedPort);
    } else {
      app.start(bindAddress, requestedPort);
    }
  }

  /** The port listened on; valid after {@link #start()}. */
  public int port() {
    return app.port();
  }

  /** Event streams open now. */
  int openEventStreams() {
    return events.openStreams();
  }

  /** Ends the event streams, stops listening and finishes the requests in flight. */
  @Override
  public void close() {
    events.close();
    app.stop();
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
    json.put("rawBytes", stats.rawBytes());
    json.put("storedBytes", stats.storedBytes());
    json.put("evictions", evictions);
    return json;
  }

  /** An error body: an HTML page for the pages, JSON for everything else. */
  private static void error(Context ctx, String message) {
    String text = message == null ? "bad request" : message;
    if (MessagePages.isPage(ctx.path())) {
      ctx.html(MessagePages.errorPage(ctx.statusCode(), text));
    } else {
      ctx.json(Map.of("error", text));
    }
  }

  private static byte[] resource(String path) {
    try (InputStream in = WebServer.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
