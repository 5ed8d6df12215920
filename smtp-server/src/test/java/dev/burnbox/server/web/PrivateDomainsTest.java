package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.server.BurnboxService;
import dev.burnbox.server.junit.BurnboxExtension;
import dev.burnbox.server.pipeline.PrivateDomains;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Private domains end to end: mail sent over SMTP to a private domain lands in an inbox of its own
 * that the API and the pages open only with a token of the tokens file (or the operator token),
 * while the shared inbox of the same name stays public; the file is read again when it changes; and
 * the pages ask for the token in a form and keep it in a cookie, never in a URL (headless Chromium;
 * skipped without the browser).
 */
class PrivateDomainsTest {
  private static final String TEAM = "team-0123456789abcdef";
  private static final String OTHER = "other-0123456789abcdef";
  private static final String OPERATOR = "op-0123456789abcdefgh";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;
  private BurnboxService service;

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
  }

  private Path tokens(String... lines) throws IOException {
    Path file = dir.resolve("tokens");
    Files.write(file, List.of(lines));
    return file;
  }

  private void start(Path tokensFile) throws IOException {
    service =
        BurnboxService.start(
            BurnboxExtension.testSettings()
                .with(
                    "--private-domains=team.test",
                    "--api-tokens-file=" + tokensFile,
                    "--admin-token=" + OPERATOR)
                .build());
  }

  private void send(String to, String subject, String text) throws Exception {
    TextMail.send(service.smtpPort(), to, subject, text);
  }

  private HttpResponse<String> call(String method, String path, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.httpPort() + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private List<String> subjects(String inbox, String token) throws Exception {
    HttpResponse<String> response = call("GET", "/api/v1/inboxes/" + inbox, token);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).get("messages").findValuesAsText("subject");
  }

  @Test
  void aPrivateDomainsMailIsReadOnlyWithATokenForItAndTheSharedInboxStaysPublic() throws Exception {
    start(tokens("# team A", TEAM + "  team.test", OTHER + " other.test"));
    send("bob@team.test", "team secret", "the build key is 4711");
    send("bob@public.test", "public hello", "hi");

    assertThat(subjects("bob", null)).containsExactly("public hello");
    assertThat(subjects("bob@public.test", null))
        .as("a public domain's address names the shared inbox")
        .containsExactly("public hello");
    assertThat(subjects("bob@team.test", TEAM)).containsExactly("team secret");
    assertThat(subjects("BOB@Team.Test", OPERATOR)).containsExactly("team secret");

    HttpResponse<String> none = call("GET", "/api/v1/inboxes/bob@team.test", null);
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"burnbox\"");
    assertThat(none.body()).doesNotContain("team secret").contains("private");
    assertThat(call("GET", "/api/v1/inboxes/bob@team.test", "x".repeat(20)).statusCode())
        .isEqualTo(401);
    assertThat(call("GET", "/api/v1/inboxes/bob@team.test", OTHER).statusCode())
        .as("a known token for another domain")
        .isEqualTo(403);

    String id =
        JSON.readTree(call("GET", "/api/v1/inboxes/bob@team.test", TEAM).body())
            .at("/messages/0/id")
            .asText();
    for (String path :
        new String[] {
          "/api/v1/messages/" + id,
          "/api/v1/messages/" + id + "/raw",
          "/api/v1/messages/" + id + "/links",
          "/api/v1/messages/" + id + "/codes",
          "/api/v1/inboxes/bob@team.test/next?timeout=1s",
          "/api/v1/inboxes/bob@team.test/events",
          "/message/" + id,
          "/message/" + id + "/html",
          "/inbox/bob@team.test",
        }) {
      HttpResponse<String> answer = call("GET", path, null);
      assertThat(answer.statusCode()).as(path).isEqualTo(401);
      assertThat(answer.body()).as(path).doesNotContain("4711").doesNotContain("team secret");
    }
    assertThat(call("GET", "/api/v1/messages/" + id, TEAM).body()).contains("4711");
    assertThat(call("GET", "/api/v1/messages/" + id + "/raw", TEAM).body()).contains("4711");
    assertThat(call("DELETE", "/api/v1/messages/" + id, null).statusCode()).isEqualTo(401);
    assertThat(call("DELETE", "/api/v1/inboxes/bob@team.test", OTHER).statusCode()).isEqualTo(403);
    assertThat(subjects("bob@team.test", TEAM)).as("nothing deleted").hasSize(1);
    assertThat(call("DELETE", "/api/v1/messages/" + id, TEAM).statusCode()).isEqualTo(204);
    assertThat(subjects("bob@team.test", TEAM)).isEmpty();
  }

  @Test
  void theTokensFileIsReadAgainWhenItChangesAndABrokenOneKeepsTheTokensBefore() throws Exception {
    Path file = tokens(TEAM + " team.test");
    start(file);
    send("ci@team.test", "build 1", "ok");
    assertThat(call("GET", "/api/v1/inboxes/ci@team.test", OTHER).statusCode()).isEqualTo(401);

    Files.write(file, List.of(OTHER + " *"));
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
    Thread.sleep(1_100); // the file is checked at most once a second
    assertThat(subjects("ci@team.test", OTHER)).containsExactly("build 1");
    assertThat(call("GET", "/api/v1/inboxes/ci@team.test", TEAM).statusCode())
        .as("revoked")
        .isEqualTo(401);

    Files.write(file, List.of("short team.test"));
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
    Thread.sleep(1_100);
    assertThat(subjects("ci@team.test", OTHER)).as("the tokens read before stay").hasSize(1);

    Files.write(file, List.of(TEAM + " team.test"));
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(15)));
    Thread.sleep(1_100);
    assertThat(subjects("ci@team.test", TEAM)).as("the file mended is read again").hasSize(1);
  }

  @Test
  void aBadTokensLineOrAPrivateDomainNotServedIsRefusedWithWhereAndWhy() throws Exception {
    Path file = tokens("# fine", TEAM + " team.test", "too-short team.test");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ApiTokens.read(file))
        .withMessageContaining(file + ":3")
        .withMessageContaining("shorter than 16");
    Files.write(file, List.of(TEAM + " team..test"));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ApiTokens.read(file))
        .withMessageContaining(file + ":1");
    Files.write(file, List.of(TEAM + " team.test", TEAM + " other.test"));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ApiTokens.read(file))
        .withMessageContaining("same token");

    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                BurnboxExtension.testSettings()
                    .with(
                        "--domains=burnbox.test",
                        "--private-domains=team.test",
                        "--admin-token=" + OPERATOR)
                    .build())
        .withMessageContaining("team.test is not one of --domains");
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                BurnboxExtension.testSettings()
                    .with("--private-domains=team..test", "--admin-token=" + OPERATOR)
                    .build())
        .withMessageContaining("--private-domains");
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                BurnboxExtension.testSettings()
                    .with("--private-domains=team.test", "--api-tokens-file=" + dir.resolve("none"))
                    .build())
        .withMessageContaining("--api-tokens-file");
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                new WebAccess(
                    CorsPolicy.NONE, null, PrivateDomains.parse("team.test"), ApiTokens.none()))
        .withMessageContaining("nobody could read them");
  }

  @Test
  void thePagesAskForTheTokenAndKeepItInASessionCookieNeverInAUrl() throws Exception {
    start(tokens(TEAM + " team.test"));
    send("qa@team.test", "verify your account", "code 246810");
    try (HeadlessChromium chromium = HeadlessChromium.start()) {
      var driver = chromium.driver();
      var wait = new WebDriverWait(driver, Duration.ofSeconds(15));
      driver.get("http://127.0.0.1:" + service.httpPort() + "/");
      driver.findElement(By.id("name")).sendKeys("qa@team.test");
      driver.findElement(By.cssSelector("form.open-inbox button")).click();

      wait.until(d -> d.findElement(By.cssSelector("form.token")).isDisplayed());
      assertThat(driver.getPageSource()).doesNotContain("verify your account");
      driver.findElement(By.id("token")).sendKeys("wrong-token-0123456789");
      driver.findElement(By.cssSelector("form.token button")).click();
      wait.until(d -> d.getPageSource().contains("opens nothing here"));
      driver.findElement(By.id("token")).sendKeys(TEAM);
      driver.findElement(By.cssSelector("form.token button")).click();

      wait.until(d -> d.findElement(By.id("messages")).getText().contains("verify your account"));
      assertThat(driver.getCurrentUrl()).endsWith("/inbox/qa%40team.test").doesNotContain(TEAM);
      assertThat((String) ((JavascriptExecutor) driver).executeScript("return document.cookie"))
          .as("HttpOnly: no script reads the token")
          .doesNotContain("burnbox_token");

      send("qa@team.test", "second mail, live", "x");
      wait.until(d -> d.findElement(By.id("messages")).getText().contains("second mail, live"));

      driver.findElement(By.cssSelector("#messages li:last-child a")).click();
      wait.until(d -> d.getPageSource().contains("246810"));
      assertThat(driver.getCurrentUrl()).doesNotContain(TEAM);

      driver.get("http://127.0.0.1:" + service.httpPort() + "/inbox/qa%40team.test");
      driver.findElement(By.cssSelector("form.sign-out button")).click();
      wait.until(d -> d.findElements(By.cssSelector("form.open-inbox")).size() == 1); // home
      driver.get("http://127.0.0.1:" + service.httpPort() + "/inbox/qa%40team.test");
      wait.until(d -> d.findElement(By.cssSelector("form.token")).isDisplayed());
      assertThat(driver.getPageSource()).doesNotContain("verify your account");
    }
  }

  @Test
  void addressesNameTheirInboxes() {
    PrivateDomains domains = PrivateDomains.parse(" Team.Test , bücher.test ");
    assertThat(domains.domains()).containsExactlyInAnyOrder("team.test", "xn--bcher-kva.test");
    assertThat(domains.inboxOf("Bob+ci@TEAM.test").value()).isEqualTo("bob+ci@team.test");
    assertThat(domains.inboxOf("jörg@bücher.test").value()).isEqualTo("jörg@xn--bcher-kva.test");
    assertThat(domains.inboxOf("bob@public.test").value()).isEqualTo("bob");
    // a trailing dot (the root) names the same domain, as it does for the served domains
    assertThat(domains.inboxOf("bob@team.test.").value()).isEqualTo("bob@team.test");
    assertThat(domains.inboxOf("bob@xn--bcher-kva.test.").value())
        .isEqualTo("bob@xn--bcher-kva.test");
    assertThat(domains.inboxNamed("bob").value()).isEqualTo("bob");
    assertThat(PrivateDomains.parse("").isEmpty()).isTrue();
    assertThat(MessagePages.localPath("/inbox/x")).isEqualTo("/inbox/x");
    for (String elsewhere : new String[] {"//evil.test/x", "https://evil.test", "/\\evil", null}) {
      assertThat(MessagePages.localPath(elsewhere)).as(elsewhere).isEqualTo("/");
    }
  }
}
