package dev.burnbox.server.web;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;

/**
 * {@code GET /metrics} on an address and port of its own ({@link MetricsEndpoint#ownPort}), so that
 * the operational data (JVM, GC, load, refusals by reason) can stay off the public web port: the
 * web port then has no {@code /metrics}. Nothing else is served here (404 as JSON); every reply
 * carries the {@link SecurityHeaders}, those Jetty writes itself included. Not thread-safe to start
 * and stop concurrently; requests are served concurrently.
 */
final class MetricsServer implements AutoCloseable {
  /** Scrapers served at once; more wait their turn (the port has no connection cap). */
  static final int METRICS_CONNECTIONS = 8;

  private final Javalin app;

  MetricsServer(
      MetricsEndpoint endpoint, PrometheusMeterRegistry registry, WebErrorHandler errors) {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(errors, "errors");
    String host = endpoint.bindAddress().getHostAddress();
    this.app =
        Javalin.create(
            config -> {
              config.jetty.threadPool =
                  WebThreads.requestPool("burnbox-metrics", METRICS_CONNECTIONS);
              config.startup.showJavalinBanner = false;
              config.jetty.modifyServer(
                  server -> {
                    server.setErrorHandler(errors);
                    server.insertHandler(new HeadAsGet());
                  });
              config.jetty.addConnector(
                  (server, http) -> {
                    ServerConnector connector =
                        new ServerConnector(server, new HttpConnectionFactory(http));
                    connector.setHost(host);
                    connector.setPort(endpoint.port());
                    return connector;
                  });
              config.routes.before(SecurityHeaders::standard);
              config.routes.get("/metrics", ctx -> scrape(ctx, registry));
              config.routes.error(
                  404, ctx -> ctx.json(Map.of("error", "not found: only /metrics is served here")));
            });
  }

  /** Answers {@code ctx} with {@code registry}'s metrics in the Prometheus text format. */
  static void scrape(Context ctx, PrometheusMeterRegistry registry) {
    ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(registry.scrape());
  }

  void start() {
    app.start();
  }

  int port() {
    return app.port();
  }

  @Override
  public void close() {
    app.stop();
  }
}
