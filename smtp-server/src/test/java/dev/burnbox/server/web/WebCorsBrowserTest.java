package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.burnbox.server.smtp.NetworkList;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * CORS in a real headless Chromium: a page served from another origin (another port) reads the JSON
 * API only when its origin is allowed, and deletes through it only with writes allowed; the
 * browser, not the test, decides from the server's headers. Skipped without the browser.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebCorsBrowserTest {
  private HeadlessChromium chromium;
  private HttpServer pageServer;
  private String pageOrigin;
  private WebServer api;

  @BeforeAll
  void start() throws IOException {
    chromium = HeadlessChromium.start();
    pageServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    pageServer.createContext(
        "/",
        exchange -> {
          // the API's port comes in the query; the script tries a read and a delete
          byte[] page =
              """
              <!doctype html><title>waiting</title><body><script>
              const api = 'http://127.0.0.1:' + location.search.substring(1);
              const read = fetch(api + '/api/v1/inboxes/alice').then(r => r.json())
                .then(j => 'read:' + j.inbox).catch(() => 'read:blocked');
              const del = fetch(api + '/api/v1/messages/AAAAAAAAAAAAAAAAAAAAAA',
                  {method: 'DELETE'}).then(r => 'delete:' + r.status).catch(() => 'delete:blocked');
              Promise.all([read, del]).then(r => document.title = r.join(' '));
              </script>
              """
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
          exchange.sendResponseHeaders(200, page.length);
          exchange.getResponseBody().write(page);
          exchange.close();
        });
    pageServer.start();
    pageOrigin = "http://127.0.0.1:" + pageServer.getAddress().getPort();
  }

  @AfterEach
  void stopApi() {
    if (api != null) {
      api.close();
    }
  }

  @AfterAll
  void stop() throws IOException {
    if (chromium != null) {
      chromium.close();
    }
    if (pageServer != null) {
      pageServer.stop(0);
    }
  }

  /** What the other origin's page could do against an API with {@code cors}. */
  private String fromOtherOrigin(CorsPolicy cors) {
    api = WebFixture.startedServer(NetworkList.parse("127.0.0.1"), cors);
    var driver = chromium.driver();
    driver.get(pageOrigin + "/?" + api.port());
    new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> !"waiting".equals(d.getTitle()));
    return driver.getTitle();
  }

  @Test
  void withoutCorsThePageOfAnotherOriginCanNeitherReadNorDelete() {
    assertThat(fromOtherOrigin(CorsPolicy.NONE)).isEqualTo("read:blocked delete:blocked");
  }

  @Test
  void anAllowedOriginReadsButDeletesOnlyWithWrites() {
    assertThat(fromOtherOrigin(CorsPolicy.parse(pageOrigin, false)))
        .isEqualTo("read:alice delete:blocked");
    api.close();
    assertThat(fromOtherOrigin(CorsPolicy.parse(pageOrigin, true)))
        .as("the message does not exist, but the browser let the page see the answer")
        .isEqualTo("read:alice delete:404");
  }

  @Test
  void anotherOriginThanTheAllowedOneIsBlocked() {
    assertThat(fromOtherOrigin(CorsPolicy.parse("http://127.0.0.1:1", true)))
        .isEqualTo("read:blocked delete:blocked");
  }
}
