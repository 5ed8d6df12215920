package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.mailstore.BodyCodec;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxPage;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.ZstdCodec;
import dev.burnbox.server.config.BurnboxVersion;
import dev.burnbox.server.smtp.SmtpScript;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole service in-process, driven through its real entry points: Jakarta Mail's SMTP client
 * and HTTP requests.
 */
class BurnboxServiceTest {
  @TempDir Path dir;
  private BurnboxService service;

  private BurnboxService start(Consumer<ServiceSettings.Builder> tweak) throws Exception {
    ServiceSettings.Builder settings =
        ServiceSettings.builder()
            .with("--smtp-port=0", "--hostname=burnbox.test", "--http-port=0")
            .with("--shutdown-grace=2s");
    tweak.accept(settings);
    service = BurnboxService.start(settings.build());
    return service;
  }

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
  }

  private void send(String subject, String body, String... to) throws MessagingException {
    Properties props = new Properties();
    props.put("mail.smtp.host", "127.0.0.1");
    props.put("mail.smtp.port", Integer.toString(service.smtpPort()));
    props.put("mail.smtp.connectiontimeout", "5000");
    props.put("mail.smtp.timeout", "10000");
    MimeMessage message = new MimeMessage(Session.getInstance(props));
    message.setFrom(new InternetAddress("ann@example.com"));
    message.setRecipients(Message.RecipientType.TO, InternetAddress.parse(String.join(",", to)));
    message.setSubject(subject, "UTF-8");
    message.setText(body, "UTF-8");
    Transport.send(message);
  }

  private List<MessageSummary> inbox(String name) {
    InboxPage page = service.store().list(InboxName.of(name), 50, null);
    return page.messages();
  }

  private String http(String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.httpPort() + path))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void aMessageToThreeRecipientsIsStoredOnceAndListedInEachInbox() throws Exception {
    start(s -> {});
    send("Grüße aus Köln", "Hello there", "alice@any.test", "Bob@other.test", "carol@any.test");

    for (String name : List.of("alice", "bob", "carol")) {
      assertThat(inbox(name))
          .singleElement()
          .satisfies(
              m -> {
                assertThat(m.subject()).isEqualTo("Grüße aus Köln");
                assertThat(m.from()).contains("ann@example.com");
                assertThat(m.envelopeSender()).isEqualTo("ann@example.com");
              });
    }
    var stats = service.store().stats();
    assertThat(stats.messages()).isEqualTo(3);
    assertThat(http("/api/v1/stats")).contains("\"messages\":3");
  }

  /**
   * Mail sent over SMTP is stored in the codec's quick form, then, with the service idle,
   * re-encoded in its smaller form at rest: fewer message bytes than the intake form of the same
   * messages, and each still reads back whole over HTTP.
   */
  @Test
  void storedMailIsReencodedSmallerWhileTheServiceIsIdle() throws Exception {
    start(s -> {});
    Random random = new Random(15);
    List<String> words = List.of("alpha", "budget", "crane", "delta", "ember", "fjord", "gusto");
    for (int i = 0; i < 20; i++) {
      StringBuilder body = new StringBuilder("token" + i + "\n");
      for (int w = 0; w < 400; w++) {
        body.append(words.get(random.nextInt(words.size()))).append(random.nextInt(100));
        body.append(w % 12 == 11 ? "\n" : " ");
      }
      send("report " + i, body.toString(), "settle@any.test");
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> http("/metrics").contains("burnbox_store_settled_messages_total 20.0"));

    long intakeForm = 0;
    BodyCodec intake = ZstdCodec.plain(ZstdCodec.RECOMMENDED_LEVEL);
    for (MessageSummary m : inbox("settle")) {
      byte[] raw = service.store().get(m.id()).orElseThrow().raw();
      intakeForm += intake.encode(raw).length;
      String source = http("/api/v1/messages/" + m.id().value() + "/raw");
      assertThat(source).contains("token" + m.subject().substring("report ".length()));
      assertThat(source.getBytes(StandardCharsets.UTF_8)).isEqualTo(raw);
    }
    assertThat(service.store().stats().messageBytes()).isLessThan(intakeForm);
  }

  @Test
  void withNoIdleRecompressionStoredMailKeepsTheFormItCameIn() throws Exception {
    start(s -> s.with("--no-idle-recompression"));
    send("report", "a few words that compress ".repeat(100), "kept@any.test");
    long stored = service.store().stats().messageBytes();
    Thread.sleep(3 * StoreSettler.PERIOD.toMillis());

    assertThat(http("/metrics")).doesNotContain("burnbox_store_settled_messages_total");
    assertThat(service.store().stats().messageBytes()).isEqualTo(stored);
    assertThat(service.store().settle(10)).as("still there to settle").isEqualTo(1);
  }

  @Test
  void spamIsTaggedWithItsVerdictByDefault() throws Exception {
    start(s -> {});
    send(
        "You are a WINNER",
        "Claim your prize now! Act now, limited time offer: 100% free, no credit check, "
            + "risk free, cash bonus. Click here to claim your prize. Act now!",
        "dave@any.test");

    MessageSummary stored = inbox("dave").getFirst();
    assertThat(stored.verdict().terms()).isNotEmpty();
    assertThat(stored.verdict().spam()).isTrue();
    assertThat(stored.verdict().probability())
        .isGreaterThanOrEqualTo(service.scanner().threshold());
    assertThat(http("/metrics")).contains("burnbox_messages_spam_total 1.0");
  }

  @Test
  void rejectPolicyAnswers550AndStoresNothing() throws Exception {
    start(s -> s.with("--spam=reject"));
    assertThatThrownBy(
            () ->
                send(
                    "You are a WINNER",
                    "Claim your prize now! Act now, limited time offer: 100% free, no credit"
                        + " check, risk free, cash bonus. Click here. Act now!",
                    "erin@any.test"))
        .isInstanceOfSatisfying(
            SMTPSendFailedException.class, e -> assertThat(e.getReturnCode()).isEqualTo(550));
    assertThat(inbox("erin")).isEmpty();
    assertThat(http("/metrics"))
        .contains("burnbox_refusals_total{reason=\"spam\",stage=\"pipeline\"} 1.0");

    send("Lunch", "Noon at the usual place?", "erin@any.test");
    assertThat(inbox("erin")).hasSize(1);
  }

  @Test
  void aKeyStoreThatCannotBeReadStopsTheStartWithItsOwnReason() {
    // the key store is read after the store is built: the start closes what it built, idle
    // recompression's thread included, which had not started
    Path missing = dir.resolve("missing.p12");
    assertThatThrownBy(() -> start(s -> s.with("--tls-keystore=" + missing)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--tls-keystore: cannot read " + missing + ": no such file");
  }

  @Test
  void aMessageTooBigForTheStoreIsRefusedWith552() throws Exception {
    start(s -> s.with("--store-max-bytes=1m")); // the least budget taken
    byte[] noise = new byte[1536 * 1024];
    new Random(7).nextBytes(noise);
    String incompressible = Base64.getMimeEncoder().encodeToString(noise); // ~3/4 after zstd
    assertThatThrownBy(() -> send("big", incompressible, "frank@any.test"))
        .isInstanceOfSatisfying(
            SMTPSendFailedException.class, e -> assertThat(e.getReturnCode()).isEqualTo(552));
    assertThat(inbox("frank")).isEmpty();
  }

  @Test
  void aRecipientThatIsNotAValidInboxNameIsRefusedAtRcptWith553() throws Exception {
    start(s -> {});
    assertThatThrownBy(() -> send("hi", "hello", "bob!bang@any.test"))
        .isInstanceOf(SendFailedException.class)
        .satisfies(
            e ->
                assertThat(((SendFailedException) e).getNextException())
                    .isInstanceOfSatisfying(
                        SMTPAddressFailedException.class,
                        rcpt -> assertThat(rcpt.getReturnCode()).isEqualTo(553)));
    assertThat(http("/metrics"))
        .contains("burnbox_refusals_total{reason=\"bad_mailbox_name\",stage=\"pipeline\"} 1.0");
  }

  @Test
  void editingTheTermFileChangesVerdictsWithoutARestart() throws Exception {
    Path terms = Files.writeString(dir.resolve("terms.txt"), "pineapple\n");
    start(s -> s.with("--terms=" + terms));
    send("fruit", "pineapple and mango", "gina@any.test");
    assertThat(inbox("gina").getFirst().verdict().terms()).containsExactly("pineapple");

    Files.writeString(terms, "mango\n");
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> {
              send("fruit", "pineapple and mango", "gina@any.test");
              assertThat(inbox("gina").getFirst().verdict().terms()).containsExactly("mango");
            });
  }

  @Test
  void metricsCoverSessionsMessagesAndScanTime() throws Exception {
    start(s -> {});
    send("hello", "hello", "hank@any.test");
    String metrics = http("/metrics");
    assertThat(metrics)
        .contains("burnbox_messages_stored_total 1.0")
        .contains("burnbox_pipeline_scan_seconds_bucket")
        .contains("burnbox_store_messages 1.0")
        .contains("burnbox_smtp_sessions");
  }

  /**
   * Every {@code burnbox_*} metric family the service exposes says what it counts: a non-empty
   * {@code # HELP} line beside its {@code # TYPE}. With a webhook configured (its meters) and after
   * a delivery, a refused recipient and an aborted message (meters registered as they happen).
   */
  @Test
  void everyBurnboxMetricHasAHelpText() throws Exception {
    start(s -> s.with("--webhook=http://127.0.0.1:9/hook", "--webhook-retry-for=1s"));
    send("hello", "hello", "help@any.test");
    try (SmtpScript smtp = SmtpScript.ehlo(service.smtpPort(), "127.0.0.1")) {
      smtp.expectAfter("MAIL FROM:<s@example.com>", "250");
      smtp.expectAfter("RCPT TO:<bob!bang@any.test>", "553");
      smtp.expectAfter("RCPT TO:<help@any.test>", "250");
      smtp.expectAfter("DATA", "354");
      smtp.write("Subject: cut short\r\n");
    }
    String metrics = http("/metrics");
    Map<String, String> help = new TreeMap<>();
    Matcher line =
        Pattern.compile("^# HELP (burnbox_\\w+) ?(.*)$", Pattern.MULTILINE).matcher(metrics);
    while (line.find()) {
      help.put(line.group(1), line.group(2));
    }
    List<String> types = new ArrayList<>();
    Matcher type = Pattern.compile("^# TYPE (burnbox_\\w+) ", Pattern.MULTILINE).matcher(metrics);
    while (type.find()) {
      types.add(type.group(1));
    }
    assertThat(types).as("burnbox metric families").hasSizeGreaterThan(30);
    assertThat(help).containsKeys(types.toArray(String[]::new));
    assertThat(help)
        .allSatisfy((name, text) -> assertThat(text).as("# HELP %s", name).isNotBlank());
  }

  @Test
  void aCopysVerdictIsTheFirstCopysAndIsCountedAsKept() throws Exception {
    start(s -> {});
    send("Limited offer", "Dear customer, click here to claim your prize", "ola@any.test");
    send("Limited offer", "Dear customer, click here to claim your prize", "per@any.test");
    String first = http("/api/v1/inboxes/ola");
    String copy = http("/api/v1/inboxes/per");
    String verdict =
        first.substring(first.indexOf("\"spam\":"), first.indexOf("]", first.indexOf("\"spam\":")));
    assertThat(copy).contains(verdict);
    assertThat(http("/metrics"))
        .contains("burnbox_pipeline_verdicts_total{source=\"scored\"} 1.0")
        .contains("burnbox_pipeline_verdicts_total{source=\"kept\"} 1.0");
  }

  /**
   * A sender whose quoted local part needs its quotes is stored as written and escaped wherever it
   * shows: as a JSON string in the listing, as HTML text on the inbox page (which shows the
   * envelope sender of a mail without a From field).
   */
  @Test
  void aQuotedSenderIsListedAsWrittenAndEscaped() throws Exception {
    start(s -> {});
    String sender = "\"john <b>doe</b>\"@example.com";
    try (SmtpScript smtp = SmtpScript.ehlo(service.smtpPort(), "127.0.0.1")) {
      smtp.expectAfter("MAIL FROM:<" + sender + ">", "250");
      smtp.expectAfter("RCPT TO:<quoted@any.test>", "250");
      smtp.expectAfter("DATA", "354");
      smtp.expectAfter("Subject: no From field\r\n\r\nbody\r\n.", "250");
    }
    String listing = http("/api/v1/inboxes/quoted");
    assertThat(listing).contains("\"envelopeSender\":\"\\\"john <b>doe</b>\\\"@example.com\"");
    assertThat(new ObjectMapper().readTree(listing).at("/messages/0/envelopeSender").asText())
        .isEqualTo(sender);
    assertThat(http("/inbox/quoted"))
        .contains("&quot;john &lt;b&gt;doe&lt;/b&gt;&quot;@example.com")
        .doesNotContain("<b>doe");
  }

  /**
   * The ban ends after {@code --subject-flood-ban}, so its refusal is temporary (RFC 5321 4.2.5):
   * an honest sender whose subject was caught retries and gets through later.
   */
  @Test
  void aFloodingSubjectIsBannedWithATemporaryRefusalForUntrustedClientsOnly() throws Exception {
    start(
        s ->
            s.with("--trusted-networks=127.0.0.1/32")
                .with("--subject-flood-count=3", "--subject-flood-window=5m")
                .with("--subject-flood-ban=1h"));
    List<String> replies = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      replies.add(sendRaw("127.0.0.2", "Same old offer", "ivan@any.test"));
    }
    assertThat(replies)
        .extracting(r -> r.substring(0, 3))
        .containsExactly("250", "250", "450", "450");
    assertThat(replies.get(2)).isEqualTo("450 4.7.1 Subject banned for flooding; try again later");
    assertThat(sendRaw("127.0.0.1", "Same old offer", "ivan@any.test")).startsWith("250");
    assertThat(inbox("ivan")).hasSize(3);
  }

  @Test
  void withASnapshotFileMailSurvivesARestartUnderTheSameIds() throws Exception {
    Path snapshot = dir.resolve("store.snapshot");
    start(s -> s.with("--snapshot=" + snapshot));
    send("Keep me", "across the restart", "jane@any.test");
    MessageSummary before = inbox("jane").getFirst();
    byte[] raw = service.store().get(before.id()).orElseThrow().raw();
    service.close();
    assertThat(snapshot).exists();

    start(s -> s.with("--snapshot=" + snapshot));
    assertThat(inbox("jane")).containsExactly(before);
    assertThat(service.store().get(before.id()).orElseThrow().raw()).isEqualTo(raw);
    assertThat(http("/api/v1/messages/" + before.id().value())).contains("Keep me");
  }

  @Test
  void aDamagedSnapshotStartsAnEmptyStoreInsteadOfFailing() throws Exception {
    Path snapshot = Files.writeString(dir.resolve("store.snapshot"), "garbage, not a snapshot");
    start(s -> s.with("--snapshot=" + snapshot));
    assertThat(service.store().stats().messages()).isZero();
    send("still works", "hello", "kim@any.test");
    assertThat(inbox("kim")).hasSize(1);
  }

  @Test
  void aFileThatIsNoSnapshotIsMovedAsideNotOverwritten() throws Exception {
    Path snapshot = Files.writeString(dir.resolve("notes.txt"), "an operator's notes");
    start(s -> s.with("--snapshot=" + snapshot));
    send("kept", "hello", "lea@any.test");
    service.close();
    service = null;

    try (var files = Files.list(dir)) {
      Path aside =
          files
              .filter(f -> f.getFileName().toString().startsWith("notes.txt.unreadable-"))
              .findFirst()
              .orElseThrow();
      assertThat(aside).hasContent("an operator's notes");
    }
    assertThat(Files.readString(snapshot, StandardCharsets.ISO_8859_1)).startsWith("BURNBOX");
  }

  @Test
  void aSnapshotThatCannotBeWrittenRefusesToStartInsteadOfLosingMailAtShutdown() throws Exception {
    Path notAFolder = Files.writeString(dir.resolve("afile"), "x");
    assertThatThrownBy(() -> start(s -> s.with("--snapshot=" + notAFolder.resolve("snap"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--snapshot: cannot write the snapshot")
        .hasMessageContaining(notAFolder + " is not a folder");
    assertThatThrownBy(() -> start(s -> s.with("--snapshot=" + dir)))
        .hasMessageContaining("is a folder");
  }

  @Test
  void aPortInUseIsTheReasonGivenWhenTheServiceCannotStart() throws Exception {
    try (var taken = new java.net.ServerSocket(0)) {
      assertThatThrownBy(() -> start(s -> s.with("--http-port=" + taken.getLocalPort())))
          .hasMessageNotContaining("Thread not started")
          .satisfies(e -> assertThat(e.getSuppressed()).isEmpty());
    }
  }

  @Test
  void theRepliesNameTheVersionAndWhoseCopyAnIdIs() throws Exception {
    start(s -> {});
    try (SmtpScript smtp = SmtpScript.connect(service.smtpPort())) {
      assertThat(smtp.reply()).startsWith("220 ").contains("Burnbox " + BurnboxVersion.current());
      smtp.expectAfter("EHLO client.test", "250");
      smtp.expectAfter("MAIL FROM:<app@example.com>", "250");
      smtp.expectAfter("RCPT TO:<uma@any.test>", "250");
      smtp.expectAfter("RCPT TO:<vic@any.test>", "250");
      smtp.expectAfter("DATA", "354");
      String reply = smtp.send("Subject: two\r\n\r\nbody\r\n.");
      assertThat(reply)
          .matches("250 2\\.0\\.0 Ok: delivered to 2 inboxes; the copy in (uma|vic) is \\S+");
      String owner = reply.replaceAll(".* the copy in (\\S+) is .*", "$1");
      String id = reply.substring(reply.lastIndexOf(' ') + 1);
      assertThat(inbox(owner).getFirst().id().value()).isEqualTo(id);
    }
    assertThat(http("/healthz")).contains("\"version\":\"" + BurnboxVersion.current() + "\"");
  }

  /** Sends one message over a raw session from {@code localAddress}; returns the DATA reply. */
  private String sendRaw(String localAddress, String subject, String to) throws Exception {
    try (SmtpScript smtp = SmtpScript.ehlo(service.smtpPort(), localAddress)) {
      smtp.expectAfter("MAIL FROM:<flood@example.com>", "250");
      smtp.expectAfter("RCPT TO:<" + to + ">", "250");
      smtp.expectAfter("DATA", "354");
      smtp.write("Subject: " + subject + "\r\n\r\nbody\r\n");
      return smtp.send(".");
    }
  }
}
