package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.smtp.NetworkList;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Where {@code /metrics} is served: the web port, a port of its own, or nowhere. */
class WebMetricsEndpointTest {
  private static final String SCRAPE = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";

  private WebServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private WebServer start(MetricsEndpoint metrics) {
    server =
        new WebServer(
            "127.0.0.1",
            0,
            WebLimits.defaults(NetworkList.parse("127.0.0.1")),
            metrics,
            WebAccess.SAME_ORIGIN,
            List.of(),
            InboxStore.memory().build(),
            MailDecoder.withDefaults(),
            WebFixture.plainListScanner(),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    server.start();
    return server;
  }

  @Test
  void byDefaultTheWebPortServesTheMetrics() throws Exception {
    start(MetricsEndpoint.webPort());
    RawHttp.Reply reply = RawHttp.exchange(server.port(), SCRAPE);
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body()).contains("burnbox_http_connections");
    assertThat(server.metricsPort()).isEmpty();
  }

  @Test
  void onTheirOwnPortTheMetricsAreGoneFromTheWebPort() throws Exception {
    start(MetricsEndpoint.ownPort(InetAddress.getLoopbackAddress(), 0));
    int metricsPort = server.metricsPort().orElseThrow();
    assertThat(metricsPort).isNotEqualTo(server.port());

    RawHttp.Reply scrape = RawHttp.exchange(metricsPort, SCRAPE);
    assertThat(scrape.status()).isEqualTo(200);
    assertThat(scrape.header("Content-Type")).startsWith("text/plain");
    assertThat(scrape.body())
        .contains("burnbox_refusals_total{reason=\"head_timeout\",stage=\"web\"} 0.0");
    assertThat(scrape.header("X-Content-Type-Options")).isEqualTo("nosniff");

    assertThat(RawHttp.exchange(server.port(), SCRAPE).status()).isEqualTo(404);
    assertThat(RawHttp.exchange(server.port(), "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").status())
        .isEqualTo(200);
  }

  @Test
  void theMetricsPortServesNothingElseAndItsErrorsCarryTheSecurityHeaders() throws Exception {
    start(MetricsEndpoint.ownPort(InetAddress.getLoopbackAddress(), 0));
    int metricsPort = server.metricsPort().orElseThrow();
    assertThat(
            RawHttp.exchange(metricsPort, "GET /inbox/alice HTTP/1.1\r\nHost: x\r\n\r\n").status())
        .isEqualTo(404);
    RawHttp.Reply bad = RawHttp.exchange(metricsPort, "GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n");
    assertThat(bad.status()).isEqualTo(505);
    assertThat(bad.header("Content-Security-Policy")).isEqualTo(SecurityHeaders.PAGE_POLICY);
  }

  @Test
  void aHeadOnTheMetricsPortAnswersTheHeadersOfAScrape() throws Exception {
    start(MetricsEndpoint.ownPort(InetAddress.getLoopbackAddress(), 0));
    int metricsPort = server.metricsPort().orElseThrow();
    RawHttp.Reply scrape = RawHttp.exchange(metricsPort, SCRAPE);
    try (RawHttp http = RawHttp.connect(metricsPort)) {
      RawHttp.Reply head = http.send("HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n").replyHead();
      assertThat(head.status()).isEqualTo(200);
      assertThat(head.header("Content-Type")).isEqualTo(scrape.header("Content-Type"));
      assertThat(Integer.parseInt(head.header("Content-Length"))).isPositive();
    }
  }

  @Test
  void turnedOffTheMetricsAreServedNowhere() throws Exception {
    start(MetricsEndpoint.off());
    assertThat(RawHttp.exchange(server.port(), SCRAPE).status()).isEqualTo(404);
    assertThat(server.metricsPort()).isEmpty();
  }
}
