package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.server.BurnboxService;
import dev.burnbox.server.junit.BurnboxExtension;
import dev.burnbox.server.logging.LogCapture;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Webhooks end to end: mail sent over SMTP with Jakarta Mail to a running Burnbox, posted to real
 * HTTP receivers started by the test, which answer, fail, answer slowly or not at all.
 */
class WebhooksTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  /** One request as the receiver saw it. */
  record Post(Map<String, List<String>> headers, byte[] body) {
    String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }

    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }
  }

  /**
   * An HTTP receiver on loopback; {@code status} gives the answer to the n-th request (from 1), and
   * a request waits for {@code gate} first.
   */
  private final class Receiver {
    final BlockingQueue<Post> posts = new LinkedBlockingQueue<>();
    final AtomicInteger requests = new AtomicInteger();
    final HttpServer server;
    volatile CountDownLatch gate = new CountDownLatch(0);
    volatile Duration delayFirst = Duration.ZERO;

    Receiver(IntUnaryOperator status) throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
      server.createContext(
          "/",
          exchange -> {
            int n = requests.incrementAndGet();
            try {
              gate.await();
              if (n == 1 && !delayFirst.isZero()) {
                Thread.sleep(delayFirst.toMillis());
              }
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            byte[] body = exchange.getRequestBody().readAllBytes();
            posts.add(new Post(Map.copyOf(exchange.getRequestHeaders()), body));
            exchange.sendResponseHeaders(status.applyAsInt(n), -1);
            exchange.close();
          });
      server.start();
      open.add(() -> server.stop(0));
    }

    String url(String path) {
      return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    Post next() throws InterruptedException {
      Post post = posts.poll(20, TimeUnit.SECONDS);
      assertThat(post).as("a post within 20 s").isNotNull();
      return post;
    }
  }

  private BurnboxService start(String... webhooks) throws IOException {
    BurnboxService service =
        BurnboxService.start(BurnboxExtension.testSettings().with(webhooks).build());
    open.add(service);
    return service;
  }

  /** The options of these webhooks, signed with {@link #SECRET}. */
  private static String[] hooks(Duration retryFor, Duration timeout, int queue, String... targets) {
    return Stream.concat(
            Stream.of(
                "--webhook-secret=" + new String(SECRET, StandardCharsets.UTF_8),
                "--webhook-retry-for=" + retryFor.toMillis() + "ms",
                "--webhook-timeout=" + timeout.toMillis() + "ms",
                "--webhook-queue=" + queue),
            Arrays.stream(targets).map(target -> "--webhook=" + target))
        .toArray(String[]::new);
  }

  private static void send(BurnboxService service, String subject, String... to) throws Exception {
    sendHtml(
        service,
        subject,
        "<p>Welcome! <a href=\"https://app.example/verify?token=abc&amp;user=ann\">Verify</a></p>",
        to);
  }

  private static void sendHtml(BurnboxService service, String subject, String html, String... to)
      throws Exception {
    Properties props = new Properties();
    props.put("mail.smtp.host", "127.0.0.1");
    props.put("mail.smtp.port", Integer.toString(service.smtpPort()));
    MimeMessage message = new MimeMessage(Session.getInstance(props));
    message.setFrom(new InternetAddress("no-reply@app.example"));
    for (String address : to) {
      message.addRecipient(Message.RecipientType.TO, new InternetAddress(address));
    }
    message.setSubject(subject);
    message.setContent(html, "text/html; charset=utf-8");
    Transport.send(message);
  }

  private static double count(BurnboxService service, String name, String outcome) {
    var search = service.registry().find(name);
    if (outcome != null) {
      search = search.tag("outcome", outcome);
    }
    var counter = search.counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void eachDeliveredCopyIsPostedSignedWithItsIdAddressVerdictAndLinks() throws Exception {
    Receiver receiver = new Receiver(n -> 204);
    BurnboxService service =
        start(hooks(Duration.ofMinutes(1), Duration.ofSeconds(5), 100, receiver.url("/hook")));

    send(service, "Verify your address", "ann@burnbox.test", "bob+x@burnbox.test");

    Map<String, Post> byAddress = new HashMap<>();
    for (int i = 0; i < 2; i++) {
      Post post = receiver.next();
      byAddress.put(post.json().get("address").asText(), post);
    }
    assertThat(byAddress).containsOnlyKeys("ann@burnbox.test", "bob+x@burnbox.test");
    Post ann = byAddress.get("ann@burnbox.test");
    JsonNode json = ann.json();
    String storedId =
        service.store().list(InboxName.of("ann"), 10, null).messages().get(0).id().value();
    assertThat(json.get("event").asText()).isEqualTo("mail");
    assertThat(json.get("id").asText()).isEqualTo(storedId);
    assertThat(json.get("to").asText()).isEqualTo("ann");
    assertThat(json.get("from").asText()).contains("no-reply@app.example");
    assertThat(json.get("subject").asText()).isEqualTo("Verify your address");
    assertThat(json.get("spam").get("probability").isNumber()).isTrue();
    assertThat(json.get("spam").has("spam")).isTrue();
    assertThat(json.get("links").get(0).get("url").asText())
        .isEqualTo("https://app.example/verify?token=abc&user=ann");
    assertThat(ann.header("Content-Type")).isEqualTo("application/json");
    assertThat(ann.header("X-Burnbox-Event")).isEqualTo("mail");
    assertThat(ann.header("X-Burnbox-Attempt")).isEqualTo("1");
    assertThat(ann.header("X-Burnbox-Delivery"))
        .isNotEqualTo(byAddress.get("bob+x@burnbox.test").header("X-Burnbox-Delivery"));

    String signature = ann.header("X-Burnbox-Signature");
    long seconds = Long.parseLong(signature.replaceAll("^t=(\\d+),v1=.*$", "$1"));
    assertThat(Math.abs(seconds - System.currentTimeMillis() / 1000)).isLessThan(60);
    assertThat(signature).isEqualTo(Webhooks.signature(SECRET, seconds, ann.body()));
    assertThat(signature)
        .as("another secret gives another signature")
        .isNotEqualTo(
            Webhooks.signature("other".getBytes(StandardCharsets.UTF_8), seconds, ann.body()));
  }

  /** The receiver gets the one-time codes as {@code /codes} lists them, with no call back. */
  @Test
  void aPostCarriesTheMailsCodesAsTheCodesApiListsThem() throws Exception {
    Receiver receiver = new Receiver(n -> 204);
    BurnboxService service =
        start(hooks(Duration.ofMinutes(1), Duration.ofSeconds(5), 100, receiver.url("/hook")));

    sendHtml(service, "Sign in", "<p>Your code is 493027</p>", "ann@burnbox.test");

    JsonNode json = receiver.next().json();
    JsonNode codes = json.get("codes");
    assertThat(codes).as("codes in %s", json).isNotNull();
    assertThat(codes.size()).isEqualTo(1);
    assertThat(codes.get(0).get("code").asText()).isEqualTo("493027");
    assertThat(codes.get(0).get("value").asText()).isEqualTo("493027");
    assertThat(codes.get(0).get("context").asText()).contains("Your code is 493027");
    URI codesApi =
        URI.create(
            "http://127.0.0.1:"
                + service.httpPort()
                + "/api/v1/messages/"
                + json.get("id").asText()
                + "/codes");
    try (HttpClient http = HttpClient.newHttpClient()) {
      String api =
          http.send(HttpRequest.newBuilder(codesApi).build(), HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(codes).isEqualTo(JSON.readTree(api).get("codes"));
    }
    assertThat(json.get("links").isArray()).isTrue();
  }

  @Test
  void aScopedWebhookGetsOnlyTheAddressesItCovers() throws Exception {
    Receiver signups = new Receiver(n -> 200);
    Receiver otherDomain = new Receiver(n -> 200);
    Receiver all = new Receiver(n -> 200);
    BurnboxService service =
        start(
            hooks(
                Duration.ofMinutes(1),
                Duration.ofSeconds(5),
                100,
                "signup-*@burnbox.test=" + signups.url("/"),
                "other.test=" + otherDomain.url("/"),
                all.url("/")));

    send(service, "one", "Signup-1@burnbox.test");
    send(service, "two", "x@other.test");
    send(service, "three", "y@burnbox.test");

    assertThat(signups.next().json().get("address").asText()).isEqualTo("Signup-1@burnbox.test");
    assertThat(otherDomain.next().json().get("address").asText()).isEqualTo("x@other.test");
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      seen.add(all.next().json().get("subject").asText());
    }
    assertThat(seen).containsExactlyInAnyOrder("one", "two", "three");
    Thread.sleep(300); // nothing more arrives
    assertThat(signups.posts).isEmpty();
    assertThat(otherDomain.posts).isEmpty();
  }

  @Test
  void aFailingReceiverIsRetriedWithTheSameDeliveryIdUntilItAnswers() throws Exception {
    Receiver receiver = new Receiver(n -> n <= 2 ? 500 : 200);
    BurnboxService service =
        start(hooks(Duration.ofMinutes(1), Duration.ofSeconds(5), 100, receiver.url("/")));

    send(service, "retry me", "ann@burnbox.test");

    Post first = receiver.next();
    Post second = receiver.next();
    Post third = receiver.next();
    assertThat(List.of(first, second, third))
        .extracting(p -> p.header("X-Burnbox-Delivery"))
        .containsOnly(first.header("X-Burnbox-Delivery"));
    assertThat(List.of(first, second, third))
        .extracting(p -> p.header("X-Burnbox-Attempt"))
        .containsExactly("1", "2", "3");
    assertThat(third.body()).isEqualTo(first.body());
    awaitCount(service, "burnbox.webhook.posts", "sent", 1);
    assertThat(count(service, "burnbox.webhook.retries", null)).isEqualTo(2);
  }

  /**
   * Given up, a delivery is counted and logged at WARN in one line: its id, the attempts and the
   * URL with its password hidden.
   */
  @Test
  void aReceiverThatNeverAnswersIsGivenUpAfterTheRetryPeriodAndLoggedSo() throws Exception {
    Receiver receiver = new Receiver(n -> 200);
    receiver.gate = new CountDownLatch(1); // holds every request: no answer ever comes
    LogCapture lines = LogCapture.of(Webhooks.class);
    open.add(lines);
    String url = receiver.url("/").replace("://", "://hook:pw-0123@");
    BurnboxService service =
        start(hooks(Duration.ofMillis(1800), Duration.ofMillis(300), 100, url));

    send(service, "nobody home", "ann@burnbox.test");

    awaitCount(service, "burnbox.webhook.posts", "gave_up", 1);
    assertThat(count(service, "burnbox.webhook.retries", null)).isEqualTo(1);
    assertThat(receiver.requests.get()).as("the first try and one retry after ~1 s").isEqualTo(2);
    receiver.gate.countDown(); // the held requests are read now
    String deliveryId = receiver.next().header("X-Burnbox-Delivery");
    List<String> gaveUp =
        lines.messages().stream().filter(line -> line.contains("given up")).toList();
    assertThat(gaveUp).hasSize(1);
    assertThat(gaveUp.get(0))
        .contains(deliveryId, "after 2 attempts", "hook:(hidden)@127.0.0.1")
        .doesNotContain("pw-0123");
    assertThat(lines.events())
        .filteredOn(line -> line.getFormattedMessage().contains("given up"))
        .allMatch(line -> line.getLevel() == Level.WARN);
  }

  @Test
  void aSlowAnswerTimesOutAndIsRetried() throws Exception {
    Receiver receiver = new Receiver(n -> 200);
    receiver.delayFirst = Duration.ofSeconds(3);
    BurnboxService service =
        start(hooks(Duration.ofMinutes(1), Duration.ofMillis(500), 100, receiver.url("/")));

    send(service, "slowly", "ann@burnbox.test");

    awaitCount(service, "burnbox.webhook.posts", "sent", 1);
    assertThat(count(service, "burnbox.webhook.retries", null)).isEqualTo(1);
  }

  @Test
  void aStuckReceiverNeverHoldsUpSmtpAndPostsBeyondTheQueueAreDroppedAndCounted() throws Exception {
    Receiver receiver = new Receiver(n -> 200);
    receiver.gate = new CountDownLatch(1);
    BurnboxService service =
        start(hooks(Duration.ofMinutes(1), Duration.ofMinutes(1), 2, receiver.url("/")));

    // every message is answered 250 while the receiver holds the first posts unanswered
    assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () -> {
          for (int i = 0; i < 5; i++) {
            send(service, "mail " + i, "ann@burnbox.test");
          }
        });
    assertThat(service.store().stats().messages()).isEqualTo(5);
    assertThat(count(service, "burnbox.webhook.posts", "dropped")).isEqualTo(3);

    receiver.gate.countDown();
    awaitCount(service, "burnbox.webhook.posts", "sent", 2);
    assertThat(receiver.requests.get()).isEqualTo(2);
  }

  private static void awaitCount(BurnboxService service, String name, String outcome, double n)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (count(service, name, outcome) < n && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(count(service, name, outcome)).as(name + " " + outcome).isEqualTo(n);
  }

  /**
   * A domain in Unicode or in its ASCII ({@code xn--}) form is one domain, as for private domains:
   * a scope written either way covers mail to either form, domain and address glob alike.
   */
  @Test
  void aScopeCoversItsDomainInUnicodeAndInAsciiForm() {
    for (String scope : List.of("bücher.test", "xn--bcher-kva.test", "BÜCHER.test.")) {
      WebhookTarget domain = WebhookTarget.parse(scope + "=http://127.0.0.1:9/x");
      assertThat(domain.scope()).as(scope).isEqualTo("*@xn--bcher-kva.test");
      assertThat(domain.covers("y@bücher.test")).as(scope).isTrue();
      assertThat(domain.covers("x@xn--bcher-kva.test")).as(scope).isTrue();
      assertThat(domain.covers("x@XN--BCHER-KVA.test.")).as(scope).isTrue();
      assertThat(domain.covers("x@bucher.test")).as(scope).isFalse();
    }
    WebhookTarget glob = WebhookTarget.parse("signup-*@*.bücher.test=http://h/");
    assertThat(glob.covers("signup-7@ci.xn--bcher-kva.test")).isTrue();
    assertThat(glob.covers("Signup-7@CI.Bücher.test")).isTrue();
    assertThat(glob.covers("login-7@ci.bücher.test")).isFalse();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> WebhookTarget.parse("*@bü*.test=http://h/"))
        .withMessageContaining("internationalised domain label");
  }

  @Test
  void targetsParseScopesAndRefuseWhatIsNotAnHttpUrl() {
    WebhookTarget all = WebhookTarget.parse("https://ci.example/hook?a=b");
    assertThat(all.scope()).isEqualTo("*");
    assertThat(all.url()).isEqualTo(URI.create("https://ci.example/hook?a=b"));
    assertThat(all.covers("anyone@anywhere.test")).isTrue();

    WebhookTarget domain = WebhookTarget.parse("CI.example.test=http://127.0.0.1:9/x");
    assertThat(domain.scope()).isEqualTo("*@ci.example.test");
    assertThat(domain.covers("Ann@ci.EXAMPLE.test")).isTrue();
    assertThat(domain.covers("ann@xci.example.test")).isFalse();

    WebhookTarget glob = WebhookTarget.parse("signup-?@*.test=http://h/");
    assertThat(glob.covers("signup-1@a.test")).isTrue();
    assertThat(glob.covers("signup-12@a.test")).isFalse();
    assertThat(glob.covers("signup-1@a.test.evil")).isFalse();

    for (String bad :
        List.of("ftp://h/x", "example.test", "x=mailto:a@b", "=http://h/", "http:///x")) {
      assertThatIllegalArgumentException()
          .as(bad)
          .isThrownBy(() -> WebhookTarget.parse(bad))
          .withMessageContaining("--webhook " + bad);
    }
  }
}
