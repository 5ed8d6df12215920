package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.server.BurnboxService;
import dev.burnbox.server.junit.BurnboxExtension;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator's view across inboxes, end to end: mail sent over SMTP to several inboxes of a
 * running Burnbox, read back through {@code GET /api/v1/messages} with and without the token, and
 * watched on the {@code /monitor} page in headless Chromium (skipped without the browser).
 */
class OperatorMonitorTest {
  private static final String TOKEN = "op-token-0123456789abcdef";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private BurnboxService service;

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
  }

  private BurnboxService start(String... options) throws IOException {
    service = BurnboxService.start(BurnboxExtension.testSettings().with(options).build());
    return service;
  }

  private void send(String to, String subject, String text) throws Exception {
    TextMail.send(service.smtpPort(), to, subject, text);
  }

  private HttpResponse<String> get(String path, String authorization) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.httpPort() + path));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static List<String> subjects(HttpResponse<String> response) throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode messages = JSON.readTree(response.body()).get("messages");
    return messages.findValuesAsText("subject");
  }

  @Test
  void theOperatorSeesTheNewestMailOfEveryInboxAndSearchesItsText() throws Exception {
    start("--admin-token=" + TOKEN);
    send("ann@one.test", "first", "Hello Ann");
    send("bob@two.test", "second", "Your parcel number is 4711");
    send("cid@one.test", "third", "Nothing to see");

    assertThat(subjects(get("/api/v1/messages", "Bearer " + TOKEN)))
        .containsExactly("third", "second", "first");
    assertThat(subjects(get("/api/v1/messages?limit=2", "Bearer " + TOKEN)))
        .containsExactly("third", "second");
    assertThat(subjects(get("/api/v1/messages?q=PARCEL", "Bearer " + TOKEN)))
        .as("the text, not only the headers")
        .containsExactly("second");
  }

  @Test
  void withoutTheRightTokenTheAnswerIs401AndWithoutATokenConfiguredTheEndpointIsOff()
      throws Exception {
    start("--admin-token=" + TOKEN);
    send("ann@one.test", "private", "secret mail");

    for (String wrong : new String[] {null, "Bearer nope", "Bearer " + TOKEN + "x", TOKEN}) {
      HttpResponse<String> answer = get("/api/v1/messages", wrong);
      assertThat(answer.statusCode()).as(String.valueOf(wrong)).isEqualTo(401);
      assertThat(answer.headers().firstValue("WWW-Authenticate"))
          .hasValueSatisfying(value -> assertThat(value).startsWith("Bearer"));
      assertThat(answer.body()).doesNotContain("private");
    }
    service.close();

    start();
    assertThat(get("/api/v1/messages", "Bearer " + TOKEN).statusCode()).isEqualTo(404);
    HttpResponse<String> monitor = get("/monitor", null);
    assertThat(monitor.statusCode()).as("the page is off too").isEqualTo(404);
    assertThat(monitor.headers().firstValue("content-type").orElseThrow()).startsWith("text/html");
    assertThat(monitor.body()).contains("--admin-token");
  }

  @Test
  void aShortTokenIsRefused() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new WebAccess(CorsPolicy.NONE, "short"))
        .withMessageContaining("16");
  }

  @Test
  void theMonitorPageAsksForTheTokenOnceAndShowsNewMailAsItArrives() throws Exception {
    start("--admin-token=" + TOKEN);
    send("ann@one.test", "before the page", "x");
    try (HeadlessChromium chromium = HeadlessChromium.start()) {
      var driver = chromium.driver();
      driver.get("http://127.0.0.1:" + service.httpPort() + "/monitor");
      var wait = new WebDriverWait(driver, Duration.ofSeconds(15));
      wait.until(d -> d.findElement(By.id("token-form")).isDisplayed());
      driver.findElement(By.id("token")).sendKeys(TOKEN);
      driver.findElement(By.cssSelector("#token-form button")).click();
      wait.until(d -> d.findElement(By.id("messages")).getText().contains("before the page"));

      send("bob@two.test", "after the page <b>opened</b>", "y");

      wait.until(d -> d.findElement(By.id("messages")).getText().contains("after the page"));
      assertThat(driver.findElement(By.cssSelector("#messages li:first-child")).getText())
          .as("newest first, mail text shown as text")
          .contains("after the page <b>opened</b>")
          .contains("bob");
      assertThat(driver.getCurrentUrl())
          .as("the token never goes into a URL")
          .doesNotContain(TOKEN);
      assertThat(driver.findElement(By.id("token-form")).isDisplayed()).isFalse();
    }
  }
}
