package dev.burnbox.server.web;

import dev.burnbox.mailstore.EvictionCause;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.StoreStats;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The HTTP side of the service, on Javalin (Jetty 12) with one virtual thread per request: health,
 * Prometheus metrics and the JSON API over the {@link InboxStore}.
 *
 * <p>Routes: {@code GET /healthz}, {@code GET /metrics} (Prometheus text format), {@code GET
 * /api/v1/stats}. Errors are JSON objects {@code {"error": "..."}}. Not thread-safe to start and
 * stop concurrently; requests are served concurrently.
 */
public final class WebServer implements AutoCloseable {
  private final Javalin app;
  private final String bindAddress;
  private final int requestedPort;

  /**
   * A server on {@code port} (0 picks a free port) that serves {@code store}'s mail and {@code
   * registry}'s metrics; call {@link #start()}.
   *
   * @param bindAddress the address to listen on, or null for every interface
   */
  public WebServer(
      String bindAddress, int port, InboxStore store, PrometheusMeterRegistry registry) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(registry, "registry");
    this.bindAddress = bindAddress;
    this.requestedPort = port;
    this.app =
        Javalin.create(
            config -> {
              config.concurrency.useVirtualThreads = true;
              config.startup.showJavalinBanner = false;
              config.routes.get("/healthz", ctx -> ctx.json(Map.of("status", "ok")));
              config.routes.get(
                  "/metrics",
                  ctx ->
                      ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                          .result(registry.scrape()));
              config.routes.get("/api/v1/stats", ctx -> ctx.json(statsJson(store.stats())));
              config.routes.error(404, ctx -> error(ctx, "no such resource: " + ctx.path()));
              config.routes.exception(
                  IllegalArgumentException.class,
                  (e, ctx) -> error(ctx.status(400), e.getMessage()));
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

  /** Stops listening and finishes the requests in flight. */
  @Override
  public void close() {
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

  private static void error(Context ctx, String message) {
    ctx.json(Map.of("error", message == null ? "bad request" : message));
  }
}
