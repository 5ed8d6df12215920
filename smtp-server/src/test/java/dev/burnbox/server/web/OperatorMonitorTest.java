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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
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

  /** Opens {@code /monitor} in {@code driver} and gives it the operator token. */
  private WebDriverWait watch(ChromeDriver driver) {
    driver.get("http://127.0.0.1:" + service.httpPort() + "/monitor");
    var wait = new WebDriverWait(driver, Duration.ofSeconds(15));
    wait.until(d -> d.findElement(By.id("token-form")).isDisplayed());
    driver.findElement(By.id("token")).sendKeys(TOKEN);
    driver.findElement(By.cssSelector("#token-form button")).click();
    return wait;
  }

  @Test
  void theMonitorPageAsksForTheTokenOnceAndShowsNewMailAsItArrives() throws Exception {
    start("--admin-token=" + TOKEN);
    send("ann@one.test", "before the page", "x");
    try (HeadlessChromium chromium = HeadlessChromium.start()) {
      var driver = chromium.driver();
      var wait = watch(driver);
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

  /**
   * A spam message's row shows the terms that made it spam beside its badge, as the inbox's rows
   * do, read out after the badge as "for the words ..."; a message that is not spam shows none.
   */
  @Test
  void theMonitorShowsASpamMessagesTermsBesideItsBadgeAsTheInboxDoes(@TempDir Path dir)
      throws Exception {
    // a plain list: each hit counts 1, at most 3 per term, spam from 5
    Path terms = Files.writeString(dir.resolve("terms.txt"), "viagra\ncasino\n");
    start("--admin-token=" + TOKEN, "--terms=" + terms);
    // viagra and casino 3 times each: score +1, probability 73%
    send("ann@one.test", "Offers", "Buy viagra, viagra, viagra at the casino, casino, casino.");
    // casino once: score -4, probability 2%
    send("bob@two.test", "Saturday", "Shall we meet at the casino?");
    try (HeadlessChromium chromium = HeadlessChromium.start()) {
      var driver = chromium.driver();
      var wait = watch(driver);
      wait.until(d -> d.findElements(By.cssSelector("#messages li")).size() == 2);
      WebElement spamRow = driver.findElement(By.cssSelector("#messages li:nth-child(2)"));
      WebElement quietRow = driver.findElement(By.cssSelector("#messages li:nth-child(1)"));
      assertThat(spamRow.getText()).contains("Offers");

      assertThat(spamRow.findElements(By.className("spam-terms")))
          .as("the spam row's terms")
          .hasSize(1);
      WebElement spamTerms = spamRow.findElement(By.className("spam-terms"));
      assertThat(spamTerms.isDisplayed()).isTrue();
      assertThat(chromium.shownText(spamTerms)).isEqualTo("viagra, casino");
      assertThat(quietRow.findElements(By.className("spam-terms"))).isEmpty();
      // the inbox's badge: "spam 73%", a quieter "2%"
      assertThat(chromium.shownText(spamRow.findElement(By.className("spam"))))
          .isEqualTo("spam 73%");
      assertThat(chromium.shownText(quietRow.findElement(By.className("spam")))).isEqualTo("2%");
      // what a screen reader reads in the rows' links, as on the inbox page (Chromium puts a space
      // on each side of the hidden words: "spam , probability")
      assertThat(spamRow.findElement(By.tagName("a")).getAccessibleName().replace(" ,", ","))
          .endsWith(" spam, probability 73% for the words viagra, casino");
      assertThat(quietRow.findElement(By.tagName("a")).getAccessibleName())
          .endsWith(" not spam, spam probability 2%");
    }
  }

  /**
   * Where the parts of the row of the mail {@code id} are, in CSS pixels: the row ({@code li}) with
   * its classes, and the left, top and bottom of its inbox name (on the monitor), sender, subject
   * and spam line.
   */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> layout(ChromeDriver driver, String id) {
    return (Map<String, Object>)
        driver.executeScript(
            """
            const row = document.querySelector('#messages li[data-id="' + arguments[0] + '"]');
            const box = e => {
              if (!e) return null;
              const r = e.getBoundingClientRect();
              return {left: r.left, top: r.top, bottom: r.bottom};
            };
            const part = name => box(row.querySelector('.' + name));
            return {classes: row.className, height: row.getBoundingClientRect().height,
                    inbox: part('inbox'), from: part('from'), subject: part('subject'),
                    spamLine: part('spam-line')};
            """,
            id);
  }

  private static double at(Map<String, Object> layout, String part, String edge) {
    @SuppressWarnings("unchecked")
    Map<String, Object> box = (Map<String, Object>) layout.get(part);
    assertThat(box).as("%s in %s", part, layout).isNotNull();
    return ((Number) box.get(edge)).doubleValue();
  }

  /**
   * The monitor's rows are laid out as the inbox page's: in columns (inbox name, sender, subject)
   * that line up from row to row whatever the names' lengths, the spam line under them from the
   * first column, and each row as tall as the same mail's row on its inbox page.
   */
  @Test
  void theMonitorsRowsAreLaidOutAsTheInboxPagesRows(@TempDir Path dir) throws Exception {
    Path terms = Files.writeString(dir.resolve("terms.txt"), "viagra\ncasino\n");
    start("--admin-token=" + TOKEN, "--terms=" + terms);
    send("ann@one.test", "Offers", "Buy viagra, viagra, viagra at the casino, casino, casino.");
    send("bartholomew-the-long@two.test", "Saturday", "Shall we meet at the casino?");
    Map<String, String> inboxOf = new java.util.LinkedHashMap<>();
    for (String inbox : List.of("ann", "bartholomew-the-long")) {
      JsonNode listed = JSON.readTree(get("/api/v1/inboxes/" + inbox, null).body()).get("messages");
      inboxOf.put(listed.get(0).get("id").asText(), inbox);
    }
    try (HeadlessChromium chromium = HeadlessChromium.start()) {
      var driver = chromium.driver();
      Map<String, Map<String, Object>> onTheInboxPage = new java.util.HashMap<>();
      for (var mail : inboxOf.entrySet()) {
        driver.get("http://127.0.0.1:" + service.httpPort() + "/inbox/" + mail.getValue());
        onTheInboxPage.put(mail.getKey(), layout(driver, mail.getKey()));
      }
      var wait = watch(driver);
      wait.until(d -> d.findElements(By.cssSelector("#messages li")).size() == 2);
      Path shot = Path.of("target", "monitor-rows.png");
      Files.write(shot, driver.getScreenshotAs(OutputType.BYTES));

      SoftAssertions softly = new SoftAssertions();
      List<Map<String, Object>> rows =
          inboxOf.keySet().stream().map(id -> layout(driver, id)).toList();
      for (String id : inboxOf.keySet()) {
        Map<String, Object> monitor = layout(driver, id);
        Map<String, Object> inbox = onTheInboxPage.get(id);
        softly.assertThat(monitor.get("classes")).as("row classes").isEqualTo(inbox.get("classes"));
        softly
            .assertThat(at(monitor, "from", "top"))
            .as("sender and subject on one line, as on the inbox page")
            .isEqualTo(at(monitor, "subject", "top"))
            .isEqualTo(at(monitor, "inbox", "top"));
        softly
            .assertThat(at(monitor, "spamLine", "left"))
            .as("the spam line from the first column, as on the inbox page")
            .isEqualTo(at(monitor, "inbox", "left"));
        softly
            .assertThat(at(inbox, "spamLine", "left"))
            .as("on the inbox page, the spam line from the first column")
            .isEqualTo(at(inbox, "from", "left"));
        softly
            .assertThat(at(monitor, "spamLine", "top"))
            .as("the spam line under the subject, as on the inbox page")
            .isGreaterThanOrEqualTo(at(monitor, "subject", "bottom"));
        softly
            .assertThat(((Number) monitor.get("height")).doubleValue())
            .as("as tall as the inbox page's row of %s (see %s)", inboxOf.get(id), shot)
            .isEqualTo(((Number) inbox.get("height")).doubleValue());
      }
      for (String part : List.of("inbox", "from", "subject")) {
        softly
            .assertThat(at(rows.get(0), part, "left"))
            .as("the %s column lines up from row to row (see %s)", part, shot)
            .isEqualTo(at(rows.get(1), part, "left"));
      }
      softly.assertAll();
    }
  }
}
