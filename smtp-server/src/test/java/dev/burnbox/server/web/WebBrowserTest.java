package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.server.BurnboxService;
import dev.burnbox.server.ServiceSettings;
import dev.burnbox.server.pipeline.SpamScanner;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The inbox in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}):
 * mail sent over SMTP to the whole service showing up live, live mail, the text and HTML views,
 * delete, and the hostile corpus, which must run no script and load nothing (no dialog, no request
 * to a beacon server the test runs). One browser for the class; screenshots go to {@code
 * target/screenshots/}. Skipped when the browser is not installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebBrowserTest {
  private static final Path SCREENSHOTS = Path.of("target", "screenshots");

  private WebFixture web;
  private HttpServer beaconServer;
  private final List<String> beaconRequests = new CopyOnWriteArrayList<>();
  private String beacon;
  private HeadlessChromium chromium;
  private ChromeDriver driver;
  private WebDriverWait wait;

  @BeforeAll
  void startBrowser() throws IOException {
    chromium = HeadlessChromium.start();
    web = new WebFixture();
    beaconServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    beaconServer.createContext(
        "/",
        exchange -> {
          beaconRequests.add(exchange.getRequestURI().getPath());
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    beaconServer.start();
    beacon = "http://127.0.0.1:" + beaconServer.getAddress().getPort();
    Files.createDirectories(SCREENSHOTS);

    driver = chromium.driver();
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
    wait = new WebDriverWait(driver, Duration.ofSeconds(10));
  }

  @AfterAll
  void stopBrowser() throws IOException {
    if (chromium != null) {
      chromium.close();
    }
    if (web != null) {
      web.close();
    }
    if (beaconServer != null) {
      beaconServer.stop(0);
    }
  }

  @BeforeEach
  void desktopWidth() {
    driver.manage().window().setSize(new Dimension(1280, 1000));
    beaconRequests.clear();
  }

  @Test
  void newMailAppearsLiveAndCanBeReadAndDeleted() throws IOException {
    driver.get(web.url("/"));
    screenshot("home");
    WebElement box = driver.findElement(By.id("name"));
    assertThat(driver.switchTo().activeElement()).isEqualTo(box);
    box.sendKeys("Live-Test", Keys.ENTER);
    wait.until(ExpectedConditions.urlToBe(web.url("/inbox/live-test")));
    waitUntilLive();
    assertThat(driver.findElement(By.id("empty")).getText()).contains("No mail");
    assertThat(driver.findElement(By.cssSelector(".addresses .address")).getText())
        .isEqualTo("live-test@burnbox.test");
    assertThat(driver.findElement(By.cssSelector("button.copy")).isDisplayed()).isTrue();

    MessageId id =
        web.deliver(
            "live-test", WebApiTest.MULTIPART, SpamVerdict.ofScore(List.of("soup", "menu"), 3));
    WebElement row =
        wait.until(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("li.message[data-id='" + id + "']")));
    assertThat(row.findElement(By.className("subject")).getText()).isEqualTo("Café menu");
    assertThat(row.findElement(By.className("from")).getText()).contains("Åsa Öst");
    WebElement badge = row.findElement(By.className("spam"));
    assertThat(shownText(badge)).isEqualTo("spam 95%");
    assertThat(badge.getDomProperty("title")).isEqualTo("soup, menu (score +3.00)");
    assertThat(row.findElement(By.tagName("time")).getText()).isEqualTo("just now");
    assertThat(driver.findElements(By.id("empty"))).isEmpty();
    screenshot("inbox");
    driver.manage().window().setSize(new Dimension(390, 844));
    screenshot("inbox-phone");
    driver.manage().window().setSize(new Dimension(1280, 1000));

    row.findElement(By.tagName("a")).click();
    wait.until(ExpectedConditions.urlToBe(web.url("/message/" + id)));
    assertThat(driver.findElement(By.cssSelector("h1.subject")).getText()).isEqualTo("Café menu");
    // the HTML view comes first, the text version below it, folded until asked for
    WebElement frame = driver.findElement(By.cssSelector("iframe.mail-html"));
    WebElement textVersion = driver.findElement(By.cssSelector("details.text-view"));
    assertThat(frame.getRect().getY()).isLessThan(textVersion.getRect().getY());
    assertThat(driver.findElement(By.cssSelector("pre.text")).isDisplayed()).isFalse();
    textVersion.findElement(By.tagName("summary")).click();
    assertThat(driver.findElement(By.cssSelector("pre.text")).getText())
        .contains("Soup of the day");
    assertThat(frame.getDomAttribute("sandbox"))
        .doesNotContain("allow-scripts")
        .doesNotContain("allow-same-origin");
    driver.switchTo().frame(frame);
    WebElement bold = wait.until(ExpectedConditions.presenceOfElementLocated(By.tagName("b")));
    assertThat(bold.getText()).isEqualTo("of the day");
    assertThat(driver.findElement(By.tagName("body")).getText()).contains("Soup of the day");
    driver.switchTo().defaultContent();
    // the name its download gets: no path, no quote
    assertThat(driver.findElement(By.cssSelector(".attachments a")).getText())
        .isEqualTo("pass wd_.pdf");
    screenshot("message");
    driver.manage().window().setSize(new Dimension(390, 844));
    screenshot("message-phone");
    driver.manage().window().setSize(new Dimension(1280, 1000));

    driver.findElement(By.cssSelector("details.delete summary")).click();
    driver.findElement(By.cssSelector("details.delete button.danger")).click();
    wait.until(ExpectedConditions.urlToBe(web.url("/inbox/live-test")));
    assertThat(driver.findElements(By.cssSelector("li.message"))).isEmpty();
    assertThat(web.store.get(id)).isEmpty();
    screenshot("inbox-after-delete");
    assertNoDialog();
  }

  /**
   * Mail that arrives while the event stream is down (no subscription to carry it) shows up once
   * the page has reconnected: it fetches the newest page then.
   */
  @Test
  void mailThatArrivesWhileTheStreamIsDownAppearsAfterTheReconnect() throws Exception {
    driver.get(web.url("/inbox/reconnect-test"));
    waitUntilLive();
    web.server.endEventStreams();
    wait.until(d -> web.openSubscriptions.get() == 0);

    MessageId id = web.deliver("reconnect-test", WebFixture.textMail("Sent meanwhile", "x"));

    WebElement row =
        wait.until(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("li.message[data-id='" + id + "']")));
    assertThat(row.findElement(By.className("subject")).getText()).isEqualTo("Sent meanwhile");
    assertThat(driver.findElements(By.cssSelector("li.message"))).hasSize(1);
    waitUntilLive();
    assertNoDialog();
  }

  /**
   * Thirty mails come while the stream is down, before any live mail: the reconnect (with the
   * position the stream sent at its opening) and the listing read back bring every one, in the
   * order received, not the newest page of 20, and not older above newer.
   */
  @Test
  void everyMailThatCameWhileTheStreamWasDownShowsInTheOrderReceived() throws Exception {
    web.deliver("gap-test", WebFixture.textMail("before", "x"));
    driver.get(web.url("/inbox/gap-test"));
    waitUntilLive();
    web.server.endEventStreams();
    wait.until(d -> web.openSubscriptions.get() == 0);

    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      web.deliver("gap-test", WebFixture.textMail("missed " + i, "x"));
      expected.addFirst("missed " + i);
    }
    expected.add("before");

    wait.until(d -> d.findElements(By.cssSelector("li.message")).size() == expected.size());
    waitUntilLive();
    assertThat(subjectsListed()).isEqualTo(expected);
    assertThat(driver.findElements(By.cssSelector("li.gap"))).isEmpty();
    assertNoDialog();
  }

  /**
   * A reconnect that is answered 503 (the store is down) closes {@code EventSource} for good; the
   * page opens a new one after a pause, and then shows the mail that came while it was down and
   * after.
   */
  @Test
  void liveUpdatesComeBackAfterTheStreamWasRefused() throws Exception {
    driver.get(web.url("/inbox/refused-test"));
    waitUntilLive();
    int refusedBefore = web.refusedSubscriptions.get();
    List<String> expected = new ArrayList<>();
    web.storeDown.set(true);
    try {
      web.server.endEventStreams();
      new WebDriverWait(driver, Duration.ofSeconds(20))
          .until(d -> web.refusedSubscriptions.get() > refusedBefore);
      for (int i = 0; i < 25; i++) { // more than the first page read back
        web.deliver("refused-test", WebFixture.textMail("meanwhile " + i, "x"));
        expected.addFirst("meanwhile " + i);
      }
      assertThat(driver.findElement(By.tagName("body")).getDomAttribute("data-live"))
          .isEqualTo("off");
    } finally {
      web.storeDown.set(false);
    }
    new WebDriverWait(driver, Duration.ofSeconds(20))
        .until(ExpectedConditions.attributeToBe(By.tagName("body"), "data-live", "on"));
    MessageId after = web.deliver("refused-test", WebFixture.textMail("after", "x"));
    expected.addFirst("after");

    wait.until(
        ExpectedConditions.presenceOfElementLocated(
            By.cssSelector("li.message[data-id='" + after + "']")));
    wait.until(d -> d.findElements(By.cssSelector("li.message")).size() == expected.size());
    assertThat(subjectsListed()).isEqualTo(expected);
    assertThat(driver.findElement(By.id("live")).getText()).startsWith("New mail from");
    assertNoDialog();
  }

  /**
   * More mail came while the stream was down than the page reads back (200): the newest 200 are
   * listed, and a note where the gap is says that more came and to reload, instead of nothing.
   */
  @Test
  void moreMailThanThePageReadsBackIsSaidToBeMissing() throws Exception {
    try (WebFixture big = WebFixture.withInboxCap(500)) {
      big.deliver("flood", WebFixture.textMail("before", "x"));
      driver.get(big.url("/inbox/flood"));
      waitUntilLive();
      big.storeDown.set(true);
      try {
        big.server.endEventStreams();
        new WebDriverWait(driver, Duration.ofSeconds(20))
            .until(d -> big.refusedSubscriptions.get() > 0);
        for (int i = 0; i < 230; i++) {
          big.deliver("flood", WebFixture.textMail("flood " + i, "x"));
        }
      } finally {
        big.storeDown.set(false);
      }

      WebElement gap =
          new WebDriverWait(driver, Duration.ofSeconds(30))
              .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("li.gap")));
      assertThat(gap.getText()).contains("More than 200", "Reload");
      List<String> subjects = subjectsListed();
      assertThat(subjects).hasSize(201);
      assertThat(subjects.getFirst()).isEqualTo("flood 229");
      assertThat(subjects.get(199)).isEqualTo("flood 30");
      assertThat(subjects.getLast()).isEqualTo("before");
      assertThat(driver.findElement(By.cssSelector("li.gap + li.message .subject")).getText())
          .as("the note is where the gap is")
          .isEqualTo("before");
      driver.executeScript("arguments[0].scrollIntoView({block: 'center'})", gap);
      screenshot("inbox-gap");
      assertNoDialog();
    }
  }

  /**
   * Each live page holds one of the browser's six connections to the host: a hidden one (a
   * minimized window) lets go of its stream after a few seconds, so a seventh page loads, and it
   * shows the mail that came while it was hidden once it is shown again.
   */
  @Test
  void hiddenInboxPagesLetGoOfTheirStreamsAndCatchUpWhenShownAgain() throws Exception {
    driver.get(web.url("/"));
    String main = driver.getWindowHandle();
    List<String> windows = new ArrayList<>();
    WebDriverWait slowly = new WebDriverWait(driver, Duration.ofSeconds(30));
    try {
      for (int i = 0; i < 6; i++) {
        driver.switchTo().newWindow(WindowType.WINDOW);
        windows.add(driver.getWindowHandle());
        driver.get(web.url("/inbox/tab" + i));
        waitUntilLive();
        driver.manage().window().minimize();
      }
      slowly.until(d -> web.server.openEventStreams() == 0);

      driver.switchTo().newWindow(WindowType.WINDOW);
      windows.add(driver.getWindowHandle());
      driver.get(web.url("/inbox/tab6"));
      waitUntilLive();
      assertThat(web.server.openEventStreams()).isEqualTo(1);

      MessageId id = web.deliver("tab0", WebFixture.textMail("While hidden", "x"));
      driver.switchTo().window(windows.getFirst());
      driver.manage().window().maximize();
      WebElement row =
          slowly.until(
              ExpectedConditions.presenceOfElementLocated(
                  By.cssSelector("li.message[data-id='" + id + "']")));
      assertThat(row.findElement(By.className("subject")).getText()).isEqualTo("While hidden");
      waitUntilLive();
      assertThat(web.server.openEventStreams()).isEqualTo(2);
      assertNoDialog();
    } finally {
      for (String window : windows) {
        driver.switchTo().window(window).close();
      }
      driver.switchTo().window(main);
    }
  }

  /** The subjects of the inbox page's list, top to bottom. */
  private List<String> subjectsListed() {
    return driver.findElements(By.cssSelector("li.message .subject")).stream()
        .map(WebElement::getText)
        .toList();
  }

  /**
   * An older page keeps its list when new mail comes: the mail is announced with a link to the
   * newest page, not put above mail older than the page before it.
   */
  @Test
  void anOlderPageAnnouncesNewMailWithALinkToTheNewestInsteadOfListingIt() throws Exception {
    for (int i = 0; i <= InboxApi.DEFAULT_LIMIT; i++) {
      web.deliver("older-page", WebFixture.textMail("old " + i, "x"));
    }
    driver.get(web.url("/inbox/older-page"));
    driver.findElement(By.cssSelector("a.older")).click();
    wait.until(ExpectedConditions.urlContains("cursor="));
    waitUntilLive();
    assertThat(driver.findElements(By.cssSelector("li.message"))).hasSize(1);

    MessageId id = web.deliver("older-page", WebFixture.textMail("Brand new", "x"));

    WebElement live = driver.findElement(By.id("live"));
    wait.until(ExpectedConditions.textToBePresentInElement(live, "New mail from"));
    assertThat(driver.findElements(By.cssSelector("li.message[data-id='" + id + "']"))).isEmpty();
    assertThat(driver.findElements(By.cssSelector("li.message"))).hasSize(1);
    live.findElement(By.linkText("Newest mail")).click();
    wait.until(ExpectedConditions.urlToBe(web.url("/inbox/older-page")));
    assertThat(driver.findElement(By.cssSelector("li.message .subject")).getText())
        .isEqualTo("Brand new");
    assertNoDialog();
  }

  /**
   * A search typed into the inbox page lists what matches and, like an older page, keeps its list
   * when new mail comes: mail that does not match is announced, not put among the results.
   */
  @Test
  void aSearchPageListsWhatMatchesAndAnnouncesNewMailInsteadOfListingIt() throws Exception {
    MessageId invoice = web.deliver("searching", WebFixture.textMail("Invoice 42", "Due soon"));
    web.deliver("searching", WebFixture.textMail("Welcome", "Hello"));
    driver.get(web.url("/inbox/searching"));
    driver.findElement(By.id("q")).sendKeys("invoice", Keys.ENTER);
    wait.until(ExpectedConditions.urlToBe(web.url("/inbox/searching?q=invoice")));
    waitUntilLive();
    WebElement live = driver.findElement(By.id("live"));
    assertThat(live.getText()).isEqualTo("Search results. Whole inbox");
    assertThat(driver.findElements(By.cssSelector("li.message")))
        .extracting(row -> row.getDomAttribute("data-id"))
        .containsExactly(invoice.value());
    screenshot("inbox-search");

    MessageId id = web.deliver("searching", WebFixture.textMail("Brand new", "x"));

    wait.until(ExpectedConditions.textToBePresentInElement(live, "New mail from"));
    assertThat(driver.findElements(By.cssSelector("li.message[data-id='" + id + "']"))).isEmpty();
    assertThat(driver.findElements(By.cssSelector("li.message"))).hasSize(1);
    live.findElement(By.linkText("Whole inbox")).click();
    wait.until(ExpectedConditions.urlToBe(web.url("/inbox/searching")));
    assertThat(driver.findElements(By.cssSelector("li.message"))).hasSize(3);
    assertNoDialog();
  }

  @Test
  void theHostileCorpusRunsNothingAndLoadsNothing() throws Exception {
    List<MessageId> ids = new ArrayList<>();
    for (String file : HostileCorpus.FILES) {
      ids.add(web.deliver("hostile", HostileCorpus.mail(file, beacon)));
    }
    driver.get(web.url("/inbox/hostile"));
    waitUntilLive();
    // one more hostile mail arriving live, rendered by inbox.js rather than the server
    MessageId live = web.deliver("hostile", HostileCorpus.mail("11-hostile-headers.eml", beacon));
    wait.until(
        ExpectedConditions.presenceOfElementLocated(
            By.cssSelector("li.message[data-id='" + live + "']")));
    List<WebElement> rows = driver.findElements(By.cssSelector("li.message"));
    assertThat(rows).hasSize(HostileCorpus.FILES.size() + 1);
    assertThat(rows.get(0).findElement(By.className("subject")).getText())
        .startsWith("<script>fetch(");
    assertThat(rows.get(0).findElement(By.className("from")).getText()).startsWith("<img src=");
    assertThat(driver.findElements(By.cssSelector("main img, main script:not([src])"))).isEmpty();
    screenshot("hostile-inbox");
    assertNoDialog();

    for (int i = 0; i < ids.size(); i++) {
      driver.get(web.url("/message/" + ids.get(i)));
      for (WebElement frame : driver.findElements(By.cssSelector("iframe.mail-html"))) {
        driver.switchTo().frame(frame);
        wait.until(ExpectedConditions.presenceOfElementLocated(By.tagName("body")));
        driver.switchTo().defaultContent();
      }
      assertNoDialog();
      screenshot("hostile-" + HostileCorpus.FILES.get(i).replace(".eml", ""));
    }
    Thread.sleep(1000);
    assertNoDialog();
    assertThat(beaconRequests).as("requests the hostile mail made").isEmpty();
  }

  @Test
  void remoteImagesLoadOnlyAfterTheReaderAsks() throws Exception {
    MessageId id = web.deliver("images", HostileCorpus.mail(HostileCorpus.REMOTE_IMAGE, beacon));
    driver.get(web.url("/message/" + id));
    driver.switchTo().frame(driver.findElement(By.cssSelector("iframe.mail-html")));
    wait.until(ExpectedConditions.presenceOfElementLocated(By.tagName("img")));
    driver.switchTo().defaultContent();
    Thread.sleep(500);
    assertThat(beaconRequests).isEmpty();

    WebElement show = driver.findElement(By.id("show-images"));
    show.sendKeys(Keys.ENTER);
    wait.until(ExpectedConditions.urlContains("images=1"));
    wait.until(d -> beaconRequests.contains("/pixel.gif"));
    screenshot("message-images-shown");
  }

  @Test
  void anInlineImageShowsAtOnceWhileARemoteOneWaitsForTheReader() throws Exception {
    MessageId id = web.deliver("inline", WebApiTest.relatedMail(beacon + "/remote.png"));
    driver.get(web.url("/message/" + id));
    driver.switchTo().frame(driver.findElement(By.cssSelector("iframe.mail-html")));
    wait.until(d -> loaded(d, "inline"));
    assertThat(loaded(driver, "remote")).isFalse();
    driver.switchTo().defaultContent();
    screenshot("message-inline-image");
    assertThat(beaconRequests).isEmpty();

    driver.findElement(By.id("show-images")).sendKeys(Keys.ENTER);
    wait.until(ExpectedConditions.urlContains("images=1"));
    wait.until(d -> beaconRequests.contains("/remote.png"));
    driver.switchTo().frame(driver.findElement(By.cssSelector("iframe.mail-html")));
    wait.until(d -> loaded(d, "inline"));
    driver.switchTo().defaultContent();
  }

  /**
   * In a private inbox too, although the sandboxed frame (an opaque origin) sends no token cookie:
   * its inline image has a signed URL, and no token is in any URL.
   */
  @Test
  void anInlineImageShowsAtOnceInAPrivateInboxToo() throws Exception {
    MessageId id =
        web.deliver(
            "bob@" + WebFixture.PRIVATE_DOMAIN, WebApiTest.relatedMail(beacon + "/remote.png"));
    try {
      driver.get(web.url("/message/" + id));
      driver.findElement(By.id("token")).sendKeys(WebFixture.ADMIN_TOKEN, Keys.ENTER);
      wait.until(
          ExpectedConditions.frameToBeAvailableAndSwitchToIt(By.cssSelector("iframe.mail-html")));
      assertThat(driver.getCurrentUrl()).isEqualTo(web.url("/message/" + id));
      wait.until(d -> loaded(d, "inline"));
      String source = driver.findElement(By.cssSelector("img[alt=inline]")).getDomProperty("src");
      assertThat(source).contains("/message/" + id + "/inline/0?", "sig=");
      assertThat(source)
          .doesNotContain(WebFixture.ADMIN_TOKEN, WebAccess.cookieValue(WebFixture.ADMIN_TOKEN));
      assertThat(loaded(driver, "remote")).isFalse();
      driver.switchTo().defaultContent();
      screenshot("message-inline-image-private");
      assertThat(beaconRequests).isEmpty();
    } finally {
      driver.switchTo().defaultContent();
      driver.manage().deleteAllCookies();
    }
  }

  /** Whether the image with alt text {@code id} in the current frame has loaded and decoded. */
  private static boolean loaded(org.openqa.selenium.WebDriver driver, String id) {
    Object width =
        ((ChromeDriver) driver)
            .executeScript(
                "const i = document.querySelector('img[alt=\"' + arguments[0] + '\"]');"
                    + " return i && i.complete ? i.naturalWidth : 0;",
                id);
    return ((Number) width).longValue() > 0;
  }

  @Test
  void mailSentOverSmtpToTheRunningServiceAppearsLiveInTheBrowser() throws Exception {
    try (BurnboxService service =
        BurnboxService.start(
            ServiceSettings.of(
                "--smtp-port=0",
                "--hostname=burnbox.test",
                "--http-port=0",
                "--shutdown-grace=2s"))) {
      String base = "http://127.0.0.1:" + service.httpPort();
      driver.get(base + "/inbox/smtp-live");
      waitUntilLive();

      Properties props = new Properties();
      props.put("mail.smtp.host", "127.0.0.1");
      props.put("mail.smtp.port", Integer.toString(service.smtpPort()));
      MimeMessage mail = new MimeMessage(Session.getInstance(props));
      mail.setFrom(new InternetAddress("zoe@example.com", "Zoë Sender", "UTF-8"));
      mail.setRecipients(Message.RecipientType.TO, "smtp-live@any.test");
      mail.setSubject("Über SMTP", "UTF-8");
      MimeMultipart alternative = new MimeMultipart("alternative");
      MimeBodyPart text = new MimeBodyPart();
      text.setText("Plain words over SMTP, click here to claim your prize", "UTF-8");
      MimeBodyPart html = new MimeBodyPart();
      html.setContent("<p>Rich <i>words</i> over SMTP</p>", "text/html; charset=UTF-8");
      alternative.addBodyPart(text);
      alternative.addBodyPart(html);
      mail.setContent(alternative);
      Transport.send(mail);

      WebElement row =
          wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("li.message")));
      assertThat(row.findElement(By.className("subject")).getText()).isEqualTo("Über SMTP");
      assertThat(row.findElement(By.className("from")).getText()).contains("Zoë Sender");
      // the built-in model's verdict, whatever it is, as a probability with its terms on hover
      WebElement badge = row.findElement(By.className("spam"));
      assertThat(shownText(badge)).matches("(spam )?(<1%|>99%|\\d{1,3}%)");
      assertThat(badge.getDomProperty("title")).contains("(score ");
      screenshot("smtp-inbox");

      row.findElement(By.tagName("a")).click();
      wait.until(ExpectedConditions.urlContains("/message/"));
      driver.findElement(By.cssSelector("details.text-view summary")).click();
      assertThat(driver.findElement(By.cssSelector("pre.text")).getText())
          .contains("Plain words over SMTP");
      driver.switchTo().frame(driver.findElement(By.cssSelector("iframe.mail-html")));
      assertThat(wait.until(ExpectedConditions.presenceOfElementLocated(By.tagName("i"))).getText())
          .isEqualTo("words");
      driver.switchTo().defaultContent();
      screenshot("smtp-message");
      assertNoDialog();
    }
  }

  @Test
  void disguisedSpamTermsAreMarkedAsWrittenAndTheVerdictIsExplained() throws Exception {
    driver.get(web.url("/inbox/marks"));
    waitUntilLive();
    // viagra 5 times (capped at 3) and casino 3 times: score -5 + 6 = 1, probability 73%
    String spamMail =
        """
        From: Spam Sender <offers@example.test>\r
        To: marks@burnbox.test\r
        Subject: Your v1agra order\r
        MIME-Version: 1.0\r
        Content-Type: text/plain; charset=utf-8\r
        Content-Transfer-Encoding: 8bit\r
        \r
        Buy viagra now, or our v1agra, v.i.a.g.r.a and v\u0456agra <script>alert(1)</script>\r
        at the casino. Casino nights, CAS1NO prizes.\r
        """;
    // casino once: score -4, probability 2%
    String quietMail = WebFixture.textMail("Saturday", "Shall we meet at the casino?");
    MessageId spam = web.deliverScanned("marks", spamMail);
    MessageId quiet = web.deliverScanned("marks", quietMail);

    // live rows, built by inbox.js, then the same rows rendered by the server
    for (boolean reloaded : List.of(false, true)) {
      if (reloaded) {
        driver.navigate().refresh();
      }
      WebElement spamRow =
          wait.until(
              ExpectedConditions.presenceOfElementLocated(
                  By.cssSelector("li.message[data-id='" + spam + "']")));
      WebElement spamBadge = spamRow.findElement(By.className("spam"));
      assertThat(shownText(spamBadge)).as("reloaded %s", reloaded).isEqualTo("spam 73%");
      assertThat(spamBadge.getDomAttribute("class")).isEqualTo("spam");
      assertThat(spamBadge.getDomProperty("title")).isEqualTo("viagra, casino (score +1.00)");
      // why it is spam, shown beside the badge rather than only on hover
      WebElement spamTerms = spamRow.findElement(By.className("spam-terms"));
      assertThat(spamTerms.isDisplayed()).isTrue();
      assertThat(shownText(spamTerms)).as("reloaded %s", reloaded).isEqualTo("viagra, casino");
      WebElement quietBadge =
          driver
              .findElement(By.cssSelector("li.message[data-id='" + quiet + "']"))
              .findElement(By.className("spam"));
      assertThat(shownText(quietBadge)).as("reloaded %s", reloaded).isEqualTo("2%");
      assertThat(quietBadge.getDomAttribute("class")).isEqualTo("spam quiet");
      assertThat(quietBadge.getDomProperty("title")).isEqualTo("casino (score -4.00)");
      assertThat(
              driver.findElements(
                  By.cssSelector("li.message[data-id='" + quiet + "'] .spam-terms")))
          .isEmpty();
      // what a screen reader reads in the rows' links, which the badge's look says to the eye
      // (Chromium puts a space on each side of the hidden words: "spam , probability")
      assertThat(spamRow.findElement(By.tagName("a")).getAccessibleName().replace(" ,", ","))
          .as("reloaded %s", reloaded)
          .endsWith(" spam, probability 73% for the words viagra, casino");
      assertThat(
              driver
                  .findElement(By.cssSelector("li.message[data-id='" + quiet + "'] a"))
                  .getAccessibleName())
          .as("reloaded %s", reloaded)
          .endsWith(" not spam, spam probability 2%");
    }
    screenshot("inbox-probabilities");

    driver.get(web.url("/message/" + spam));
    List<String> marked =
        driver.findElements(By.cssSelector("pre.text mark")).stream()
            .map(WebElement::getText)
            .toList();
    assertThat(marked)
        .containsExactly(
            "viagra", "v1agra", "v.i.a.g.r.a", "v\u0456agra", "casino", "Casino", "CAS1NO");
    WebElement disguised = driver.findElements(By.cssSelector("pre.text mark")).get(1);
    assertThat(disguised.getDomProperty("title")).isEqualTo("viagra +1.00");
    assertThat(driver.findElement(By.cssSelector("h1.subject mark")).getText()).isEqualTo("v1agra");
    assertThat(driver.findElement(By.cssSelector("h1.subject")).getText())
        .isEqualTo("Your v1agra order");
    assertThat(driver.findElement(By.cssSelector("pre.text")).getText())
        .contains("v.i.a.g.r.a and v\u0456agra <script>alert(1)</script>");
    assertThat(driver.findElements(By.cssSelector("main script"))).isEmpty();

    WebElement why = driver.findElement(By.id("why"));
    assertThat(why.findElement(By.className("probability")).getText()).isEqualTo("73%");
    assertThat(why.findElement(By.className("threshold")).getText()).isEqualTo("50%");
    assertThat(why.findElement(By.className("verdict")).getText())
        .isEqualTo("Spam: probability 73%, spam from 50%.");
    assertThat(
            why.findElements(By.cssSelector("table.for tbody tr")).stream()
                .map(WebElement::getText)
                .toList())
        .containsExactly("casino any \u00D73 +3.00", "viagra any \u00D75 +3.00");
    assertThat(why.findElement(By.cssSelector("table.against tbody")).getText()).isEqualTo("none");
    assertThat(shownText(driver.findElement(By.cssSelector(".meta .spam")))).isEqualTo("spam 73%");
    // styled by the page's own stylesheet (--mark), as the policy allows no inline style
    assertThat(disguised.getCssValue("background-color")).isEqualTo("rgba(255, 215, 168, 1)");
    screenshot("message-why");
    driver.manage().window().setSize(new Dimension(390, 844));
    screenshot("message-why-phone");
    assertNoDialog();
  }

  /**
   * On the message page the subject and the sender wrap, whole: the one-line ellipsis of a list row
   * hid the end of a long subject and, on a phone, the sender's address behind its name.
   */
  @Test
  void onAPhoneTheMessagePageShowsTheWholeSubjectAndSender() throws Exception {
    String subject = "A long subject that says a good deal more than one line of a phone can hold";
    String from = "News From The Example Organisation <news@example.organisation.test>";
    MessageId id =
        web.deliver(
            "wrap",
            WebFixture.textMail(subject, "x").replace("Ann Example <ann@example.test>", from));
    phoneWidth();
    driver.get(web.url("/message/" + id));
    WebElement heading = driver.findElement(By.cssSelector("h1.subject"));
    WebElement sender = driver.findElement(By.cssSelector(".meta .from"));
    assertThat(heading.getText()).isEqualTo(subject);
    assertThat(sender.getText()).isEqualTo(from);
    for (WebElement whole : List.of(heading, sender)) {
      assertThat(hiddenWidth(whole)).as(whole.getText()).isZero();
      assertThat(whole.getCssValue("text-overflow")).as(whole.getText()).isEqualTo("clip");
    }
    screenshot("message-long-subject-phone");

    driver.get(web.url("/inbox/wrap"));
    WebElement row = driver.findElement(By.cssSelector("li.message"));
    assertThat(row.findElement(By.className("subject")).getCssValue("text-overflow"))
        .isEqualTo("ellipsis");
  }

  /**
   * On a phone nothing runs off the side of a message page, and the Why tables keep their terms
   * readable: a long content type made the page wider than the window, and the Terms column was
   * squeezed into fragments a few characters wide.
   */
  @Test
  void onAPhoneTheMessagePageIsNoWiderThanTheWindowAndTheWhyTablesKeepTheirTermsReadable()
      throws Exception {
    String mail =
        """
        From: Prize Desk <prizes@example.test>\r
        To: wide@burnbox.test\r
        Subject: Claim your free prize\r
        MIME-Version: 1.0\r
        Content-Type: multipart/mixed; boundary="b1"\r
        \r
        --b1\r
        Content-Type: text/plain; charset=utf-8\r
        \r
        Click here to claim your free prize now, or unsubscribe. Lottery winner!\r
        --b1\r
        Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document\r
        Content-Disposition: attachment; filename="prize-form.docx"\r
        Content-Transfer-Encoding: base64\r
        \r
        UEsDBAo=\r
        --b1--\r
        """;
    // the built-in model, whose words stand for several character n-grams each
    try (WebFixture model = new WebFixture(SpamScanner.withDefaultModel(null, null))) {
      MessageId id = model.deliverScanned("wide", mail);
      phoneWidth();
      driver.get(model.url("/message/" + id));
      WebElement page = driver.findElement(By.tagName("html"));
      assertThat(hiddenWidth(page)).as("how much wider than the window").isZero();
      assertThat(driver.findElement(By.cssSelector(".attachments .type")).getText())
          .contains("wordprocessingml.document");
      List<WebElement> terms = driver.findElements(By.cssSelector(".why td.terms"));
      assertThat(terms).isNotEmpty();
      for (WebElement cell : terms) {
        WebElement table = cell.findElement(By.xpath("ancestor::table"));
        assertThat(cell.getRect().getWidth())
            .as("the width of terms %s", cell.getText())
            .isGreaterThan(table.getRect().getWidth() / 2);
      }
      driver.manage().window().setSize(new Dimension(375, 2400));
      screenshot("message-why-attachments-phone");
    }
  }

  /**
   * The text view lays each line out in its own direction: a Hebrew line starts at the right, the
   * English around it at the left (each was laid out left to right).
   */
  @Test
  void eachLineOfTheTextViewRunsInTheDirectionOfItsScript() throws Exception {
    String hebrew = "\u05E9\u05DC\u05D5\u05DD \u05E2\u05D5\u05DC\u05DD"; // shalom olam
    MessageId id =
        web.deliver(
            "bidi", WebFixture.textMail("Shalom", "Hello there,\r\n" + hebrew + "\r\nSee you"));
    driver.get(web.url("/message/" + id));
    assertThat(gapsInTheTextView(hebrew).get(1)).as("gap right of the Hebrew line").isLessThan(2);
    assertThat(gapsInTheTextView(hebrew).get(0)).as("gap left of it").isGreaterThan(100);
    assertThat(gapsInTheTextView("See you").get(0)).as("gap left of English").isLessThan(2);
  }

  /** The space left and right of {@code text} inside the text view's padding, in CSS pixels. */
  private List<Double> gapsInTheTextView(String text) {
    @SuppressWarnings("unchecked")
    List<Number> gaps =
        (List<Number>)
            driver.executeScript(
                """
                const pre = document.querySelector('pre.text');
                const node = pre.firstChild;
                const range = document.createRange();
                range.setStart(node, node.data.indexOf(arguments[0]));
                range.setEnd(node, node.data.indexOf(arguments[0]) + arguments[0].length);
                const box = range.getBoundingClientRect();
                const outer = pre.getBoundingClientRect();
                const style = getComputedStyle(pre);
                const left = outer.left + parseFloat(style.borderLeftWidth)
                    + parseFloat(style.paddingLeft);
                const right = outer.right - parseFloat(style.borderRightWidth)
                    - parseFloat(style.paddingRight);
                return [box.left - left, right - box.right];
                """,
                text);
    return gaps.stream().map(Number::doubleValue).toList();
  }

  /**
   * Live rows show sender text as the server's rows do: without bidirectional controls, each in a
   * {@code <bdi>}, so an override in the sender cannot turn its address around or reverse the rest
   * of the row.
   */
  @Test
  void liveRowsDropBidiControlsAndIsolateTheSenderAndSubject() throws Exception {
    driver.get(web.url("/inbox/bidi-live"));
    waitUntilLive();
    String raw =
        WebFixture.textMail("=?UTF-8?Q?Your_order_=E2=80=AEgnp.exe?=", "x")
            .replace(
                "Ann Example <ann@example.test>",
                "=?UTF-8?Q?Pay_=E2=80=AEmoc.lapyap?= <x@example.test>");
    MessageId id = web.deliver("bidi-live", raw);
    WebElement row =
        wait.until(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("li.message[data-id='" + id + "']")));
    assertThat(row.findElement(By.cssSelector(".from > bdi")).getText())
        .isEqualTo("Pay moc.lapyap <x@example.test>");
    assertThat(row.findElement(By.cssSelector(".subject > bdi")).getText())
        .isEqualTo("Your order gnp.exe");
    assertNoDialog();
  }

  /** A live bounce without From or envelope sender is from "(unknown sender)", as on reload. */
  @Test
  void aLiveBounceWithoutAnySenderIsFromAnUnknownSender() throws Exception {
    driver.get(web.url("/inbox/bounced"));
    waitUntilLive();
    MessageId id = web.deliver("", "bounced", WebPagesTest.BOUNCE, SpamVerdict.CLEAN);
    WebElement row =
        wait.until(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("li.message[data-id='" + id + "']")));
    assertThat(row.findElement(By.className("from")).getText()).isEqualTo("(unknown sender)");
    driver.navigate().refresh();
    assertThat(driver.findElement(By.cssSelector("li.message .from")).getText())
        .isEqualTo("(unknown sender)");
  }

  /**
   * Times showed in UTC only, and list ages had no exact time: a reader in India (UTC+05:30, so
   * that even the minutes differ) sees the received time in their zone, with UTC in its title, and
   * an age's title gives its exact time in their zone, for listed and live mail alike.
   */
  @Test
  void timesShowInTheReadersZone() throws Exception {
    driver.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "Asia/Kolkata"));
    try {
      MessageId listed = web.deliver("zone", WebApiTest.MULTIPART);
      Instant received = web.store.get(listed).orElseThrow().summary().receivedAt();
      String localMinute =
          DateTimeFormatter.ofPattern(":mm:ss").format(received.atZone(ZoneId.of("Asia/Kolkata")));
      String utc =
          DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
              .format(received.atZone(ZoneOffset.UTC));

      driver.get(web.url("/message/" + listed));
      WebElement time = driver.findElement(By.cssSelector("dl.meta time"));
      wait.until(d -> time.getText().contains(localMinute));
      assertThat(time.getText()).doesNotContain("UTC");
      assertThat(time.getDomProperty("title")).isEqualTo(utc);

      driver.get(web.url("/inbox/zone"));
      waitUntilLive();
      assertThat(driver.findElement(By.cssSelector("li.message time")).getDomProperty("title"))
          .contains(localMinute)
          .doesNotContain("UTC");
      MessageId live = web.deliver("zone", WebApiTest.MULTIPART);
      String liveMinute =
          DateTimeFormatter.ofPattern(":mm:ss")
              .format(
                  web.store
                      .get(live)
                      .orElseThrow()
                      .summary()
                      .receivedAt()
                      .atZone(ZoneId.of("Asia/Kolkata")));
      WebElement liveTime =
          wait.until(
              ExpectedConditions.presenceOfElementLocated(
                  By.cssSelector("li.message[data-id='" + live + "'] time")));
      assertThat(liveTime.getDomProperty("title")).contains(liveMinute);
      assertThat(liveTime.getText()).isEqualTo("just now");
    } finally {
      driver.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", ""));
    }
  }

  /** A link to an anchor of the mail scrolls the sandboxed view to it, as in a mail client. */
  @Test
  void aLinkToAnAnchorOfTheMailScrollsTheViewToIt() throws Exception {
    StringBuilder filler = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      filler.append("<p>Line ").append(i).append("</p>\r\n");
    }
    MessageId id =
        web.deliver(
            "anchors",
            "From: ann@example.test\r\nSubject: Anchors\r\nContent-Type: text/html\r\n\r\n"
                + "<p><a href=\"#sec2\">Jump</a></p>\r\n"
                + filler
                + "<h2 id=\"sec2\">Section 2</h2>\r\n"
                + filler);
    driver.get(web.url("/message/" + id));
    driver.switchTo().frame(driver.findElement(By.cssSelector("iframe.mail-html")));
    try {
      driver.findElement(By.linkText("Jump")).click();
      wait.until(d -> ((Number) driver.executeScript("return window.scrollY")).intValue() > 1000);
      assertThat(driver.getWindowHandles()).hasSize(1);
    } finally {
      driver.switchTo().defaultContent();
    }
  }

  /** Tabbing into the mail view rings it, as every other focused control is ringed. */
  @Test
  void theMailViewShowsAFocusRingWhileTheKeyboardIsInsideIt() throws Exception {
    MessageId id =
        web.deliver(
            "focus",
            WebApiTest.MULTIPART.replace(
                "<b>of the day</b>",
                "<a href=\"https://example.test/\">of the day</a>"
                    + "<img src=\"https://example.test/a.png\" alt=\"\">"));
    driver.get(web.url("/message/" + id));
    WebElement frame = driver.findElement(By.cssSelector("iframe.mail-html"));
    assertThat(frame.getCssValue("outline-style")).isEqualTo("none");
    driver.findElement(By.id("show-images")).sendKeys(""); // focuses it
    new Actions(driver).sendKeys(Keys.TAB).perform();
    wait.until(d -> frame.equals(driver.switchTo().activeElement()));
    wait.until(d -> frame.getCssValue("outline-style").equals("solid"));
    screenshot("message-frame-focused");
    new Actions(driver).keyDown(Keys.SHIFT).sendKeys(Keys.TAB).keyUp(Keys.SHIFT).perform();
    wait.until(d -> frame.getCssValue("outline-style").equals("none"));
  }

  /**
   * The name field's pattern, as the browser compiles it, refuses what the server refuses and takes
   * what it takes, for names and whole addresses in any script.
   */
  @Test
  void theNameFieldTakesWhatTheServerTakes() {
    driver.get(web.url("/"));
    WebElement field = driver.findElement(By.id("name"));
    List<String> typed =
        List.of(
            "alice",
            "J\u00F6rg.M\u00FCller+news",
            "\u5F20\u4F1F",
            "Bob@team.test",
            "a_b-c",
            "x".repeat(64),
            "a b",
            "a..b",
            ".a",
            "a.",
            "+tag",
            "emoji\uD83D\uDE00",
            "x".repeat(65),
            "<b>x");
    for (String name : typed) {
      Object matches =
          driver.executeScript(
              "arguments[0].value = arguments[1]; return !arguments[0].validity.patternMismatch;",
              field,
              name);
      assertThat(matches).as(name).isEqualTo(isInboxName(name));
    }
  }

  private static boolean isInboxName(String typed) {
    try {
      WebFixture.configuredAccess().privateDomains().inboxNamed(typed);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Delete asks once more before it deletes, and going back after it shows the message gone rather
   * than the page as it was: Chromium kept it in its back-forward cache although pages are sent
   * with {@code Cache-Control: no-store}, so page.js loads a page restored from there again.
   */
  @Test
  void deleteAsksOnceMoreAndGoingBackShowsTheMessageGone() throws Exception {
    MessageId id = web.deliver("deleting", WebFixture.textMail("Delete me", "x"));
    driver.get(web.url("/inbox/deleting"));
    driver.findElement(By.cssSelector("li.message a")).click();
    wait.until(ExpectedConditions.urlToBe(web.url("/message/" + id)));
    WebElement confirm = driver.findElement(By.cssSelector("details.delete button.danger"));
    assertThat(confirm.isDisplayed()).isFalse();

    driver.findElement(By.cssSelector("details.delete summary")).click();
    assertThat(web.store.get(id)).as("a first click deletes nothing").isPresent();
    assertThat(confirm.isDisplayed()).isTrue();
    assertThat(driver.findElement(By.cssSelector("details.delete form")).getText())
        .contains("Delete it for everyone who reads this inbox?");
    screenshot("message-delete-confirm");
    confirm.click();
    wait.until(ExpectedConditions.urlToBe(web.url("/inbox/deleting")));
    assertThat(web.store.get(id)).isEmpty();

    driver.navigate().back();
    wait.until(ExpectedConditions.urlToBe(web.url("/message/" + id)));
    assertThat(driver.findElement(By.tagName("h1")).getText()).isEqualTo("Not found");
    assertThat(driver.findElements(By.cssSelector("h1.subject"))).isEmpty();
    assertNoDialog();
  }

  private void phoneWidth() {
    driver.manage().window().setSize(new Dimension(375, 800));
  }

  /** How much wider than its box {@code element}'s content is, in CSS pixels: 0 if it fits. */
  private long hiddenWidth(WebElement element) {
    Object wider =
        driver.executeScript(
            "return Math.max(0, arguments[0].scrollWidth - arguments[0].clientWidth);", element);
    return ((Number) wider).longValue();
  }

  /** The text of {@code element} that the eye sees: without the words only read out. */
  private String shownText(WebElement element) {
    return chromium.shownText(element);
  }

  private void waitUntilLive() {
    wait.until(ExpectedConditions.attributeToBe(By.tagName("body"), "data-live", "on"));
  }

  private void assertNoDialog() {
    assertThatThrownBy(() -> driver.switchTo().alert())
        .as("a dialog opened")
        .isInstanceOf(NoAlertPresentException.class);
  }

  private void screenshot(String name) throws IOException {
    File shot = driver.getScreenshotAs(OutputType.FILE);
    Files.copy(
        shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }
}
