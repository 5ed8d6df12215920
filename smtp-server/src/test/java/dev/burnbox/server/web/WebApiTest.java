package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.server.BurnboxService;
import dev.burnbox.server.junit.BurnboxExtension;
import dev.burnbox.server.pipeline.PrivateDomains;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.wordlists.SpamModel;
import dev.burnbox.wordlists.SpamModel.Match;
import dev.burnbox.wordlists.SpamModel.Part;
import dev.burnbox.wordlists.SpamModel.Scoring;
import dev.burnbox.wordlists.SpamModel.WeightedTerm;
import jakarta.activation.DataHandler;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.util.ByteArrayDataSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The JSON API's behaviour as documented in {@code /api/openapi.json}. */
class WebApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A red 24 x 16 PNG. */
  static final String PNG_BASE64 =
      "iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAAGklEQVR42mM4ISdHFcQwatCoQaMGjRpEGQIA57aGEIIOLo4AAAAASUVORK5CYII=";

  /**
   * HTML with an inline image (part 0, {@code cid:logo@x}), an SVG part it names (part 1, never
   * shown), a cid that names nothing and a remote image at {@code %1$s}.
   */
  static String relatedMail(String remoteImageUrl) {
    return """
        From: news@example.test\r
        Subject: Inline logo\r
        MIME-Version: 1.0\r
        Content-Type: multipart/related; boundary="rel"\r
        \r
        --rel\r
        Content-Type: text/html; charset=utf-8\r
        \r
        <p>Logo <img alt="inline" src="cid:logo@x"> svg <img alt="svg" src="cid:drawing@x">\r
        none <img alt="none" src="cid:nothing@x"> remote <img alt="remote" src="%1$s"></p>\r
        --rel\r
        Content-Type: image/png\r
        Content-ID: <logo@x>\r
        Content-Transfer-Encoding: base64\r
        \r
        %2$s\r
        --rel\r
        Content-Type: image/svg+xml\r
        Content-ID: <drawing@x>\r
        \r
        <svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\r
        --rel--\r
        """
        .formatted(remoteImageUrl, PNG_BASE64);
  }

  static final String MULTIPART =
      """
      From: =?UTF-8?B?w4VzYSDDlnN0?= <asa@example.test>\r
      To: Bob <bob@burnbox.test>, carol@burnbox.test\r
      Subject: =?UTF-8?Q?Caf=C3=A9_menu?=\r
      Date: Sat, 21 Nov 2026 10:00:00 +0000\r
      X-First: one\r
      X-Second: two\r
      MIME-Version: 1.0\r
      Content-Type: multipart/mixed; boundary="b1"\r
      \r
      --b1\r
      Content-Type: multipart/alternative; boundary="b2"\r
      \r
      --b2\r
      Content-Type: text/plain; charset=utf-8\r
      \r
      Soup of the day\r
      --b2\r
      Content-Type: text/html; charset=utf-8\r
      \r
      <p onclick="alert(1)">Soup <b>of the day</b><script>alert(2)</script></p>\r
      --b2--\r
      --b1\r
      Content-Type: application/pdf\r
      Content-Disposition: attachment; filename="../../etc/pass wd\\".pdf"\r
      Content-Transfer-Encoding: base64\r
      \r
      JVBERi0xLjQK\r
      --b1--\r
      """;

  private final WebFixture web = new WebFixture();

  @AfterEach
  void stop() {
    web.close();
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    assertThat(response.headers().firstValue("content-type").orElseThrow())
        .startsWith("application/json");
    return JSON.readTree(response.body());
  }

  @Test
  void anInboxWithNoMailIsAnEmptyList() throws Exception {
    HttpResponse<String> response = web.get("/api/v1/inboxes/nobody");
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode page = json(response);
    assertThat(page.get("inbox").asText()).isEqualTo("nobody");
    assertThat(page.get("messages").size()).isZero();
    assertThat(page.get("nextCursor").isNull()).isTrue();
  }

  @Test
  void listingIsNewestFirstAndPagedWithoutBodies() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(web.deliver("Alice", WebFixture.textMail("number " + i, "secret body")).value());
    }
    web.deliver("alice", MULTIPART, SpamVerdict.ofScore(List.of("soup", "day"), 2.5));

    JsonNode first = json(web.get("/api/v1/inboxes/ALICE?limit=4"));
    assertThat(first.get("messages").size()).isEqualTo(4);
    JsonNode newest = first.get("messages").get(0);
    assertThat(newest.get("subject").asText()).isEqualTo("Café menu");
    assertThat(newest.get("from").asText()).contains("Åsa Öst").contains("asa@example.test");
    assertThat(newest.get("to").asText()).isEqualTo("alice");
    assertThat(newest.get("spam").get("terms").toString()).isEqualTo("[\"soup\",\"day\"]");
    assertThat(newest.get("spam").get("score").asDouble()).isEqualTo(2.5);
    assertThat(newest.get("spam").get("probability").asDouble())
        .isCloseTo(1 / (1 + Math.exp(-2.5)), within(1e-12));
    assertThat(newest.get("spam").get("spam").asBoolean()).isTrue();
    assertThat(newest.get("size").asInt()).isEqualTo(MULTIPART.length());
    assertThat(newest.get("receivedAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    assertThat(first.toString()).doesNotContain("secret body").doesNotContain("Soup of the day");

    String cursor = first.get("nextCursor").asText();
    JsonNode second =
        json(
            web.get(
                "/api/v1/inboxes/alice?limit=4&cursor="
                    + java.net.URLEncoder.encode(cursor, StandardCharsets.UTF_8)));
    List<String> older = new ArrayList<>();
    second.get("messages").forEach(m -> older.add(m.get("id").asText()));
    assertThat(older).containsExactly(ids.get(1), ids.get(0));
    assertThat(second.get("nextCursor").isNull()).isTrue();
  }

  @Test
  void listingCarriesTheStoredVerdictAndTheThresholdInUseNow() throws Exception {
    try (WebFixture strict = new WebFixture(SpamScanner.of(null, 0.9, weightedModel()))) {
      MessageId ham = strict.deliverScanned("fay", WebFixture.textMail("lunch", "see you there"));
      MessageId spam =
          strict.deliverScanned("fay", WebFixture.textMail("Cheap VIAGRA", "viagra viagra"));
      JsonNode listing = json(strict.get("/api/v1/inboxes/fay"));
      JsonNode spamJson = listing.get("messages").get(0).get("spam");
      JsonNode hamJson = listing.get("messages").get(1).get("spam");
      assertThat(listing.get("messages").get(0).get("id").asText()).isEqualTo(spam.value());
      assertThat(listing.get("messages").get(1).get("id").asText()).isEqualTo(ham.value());

      // viagra 3 times (capped 3) * 2 + cheap 0.5 - 1 = 5.5
      assertThat(fieldNames(spamJson))
          .containsExactly("probability", "threshold", "spam", "score", "terms");
      assertThat(spamJson.get("score").asDouble()).isCloseTo(5.5, within(1e-9));
      assertThat(spamJson.get("probability").asDouble())
          .isCloseTo(SpamModel.probability(5.5), within(1e-12));
      assertThat(spamJson.get("threshold").asDouble()).isEqualTo(0.9);
      assertThat(spamJson.get("spam").asBoolean()).isTrue();
      assertThat(spamJson.get("terms").toString()).isEqualTo("[\"viagra\",\"cheap\"]");

      assertThat(hamJson.get("score").asDouble()).isEqualTo(-1.0);
      assertThat(hamJson.get("probability").asDouble()).isBetween(0.26, 0.27);
      assertThat(hamJson.get("threshold").asDouble()).isEqualTo(0.9);
      assertThat(hamJson.get("spam").asBoolean()).isFalse();
      assertThat(hamJson.get("terms").size()).isZero();
    }
  }

  @Test
  void aMessageListsAtMostTwoHundredTermsAndCountsTheRest() throws Exception {
    List<String> terms = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      terms.add("word" + (char) ('a' + i / 26 % 26) + (char) ('a' + i % 26));
    }
    try (WebFixture many =
        new WebFixture(SpamScanner.of(null, null, SpamModel.ofPlainTerms(terms, "test")))) {
      MessageId id =
          many.deliverScanned("hal", WebFixture.textMail("many", String.join(" ", terms)));
      JsonNode spam = json(many.get("/api/v1/messages/" + id)).get("spam");
      assertThat(spam.get("terms")).hasSize(MailJson.MAX_TERMS);
      assertThat(spam.get("termsOmitted").asInt()).isEqualTo(300 - MailJson.MAX_TERMS);
    }
  }

  @Test
  void aMessageExplainsEveryTermHitStrongestContributionFirstKeepingTheStoredVerdict()
      throws Exception {
    try (WebFixture weighted = new WebFixture(SpamScanner.of(null, null, weightedModel()))) {
      String raw =
          WebFixture.textMail(
              "Cheap VIAGRA", "viagra before the meeting, casino after the Meeting");
      MessageId scanned = weighted.deliverScanned("gus", raw);
      JsonNode spam = json(weighted.get("/api/v1/messages/" + scanned)).get("spam");
      assertThat(fieldNames(spam))
          .containsExactly("probability", "threshold", "spam", "score", "terms", "termsOmitted");
      // viagra 2 x 2.0, cheap (subject only) 0.5, casino (body only) 1.0, meeting 2 x -3.0
      List<String> rows = new ArrayList<>();
      spam.get("terms")
          .forEach(
              t ->
                  rows.add(
                      "%s %s %d %.2f %.2f"
                          .formatted(
                              t.get("term").asText(),
                              t.get("part").asText(),
                              t.get("count").asInt(),
                              t.get("weight").asDouble(),
                              t.get("contribution").asDouble())));
      assertThat(rows)
          .containsExactly(
              "meeting body 2 -3.00 -6.00",
              "viagra any 2 2.00 4.00",
              "casino body 1 1.00 1.00",
              "cheap subject 1 0.50 0.50");
      assertThat(spam.get("score").asDouble()).isCloseTo(-1.5, within(1e-9));
      assertThat(spam.get("probability").asDouble())
          .isCloseTo(SpamModel.probability(-1.5), within(1e-12));
      assertThat(spam.get("threshold").asDouble()).isEqualTo(0.5);
      assertThat(spam.get("spam").asBoolean()).isFalse();

      // the verdict stays as stored at delivery (here: by an older model); terms are explained now
      MessageId older = weighted.deliver("gus", raw, SpamVerdict.ofScore(List.of("viagra"), 3));
      JsonNode kept = json(weighted.get("/api/v1/messages/" + older)).get("spam");
      assertThat(kept.get("score").asDouble()).isEqualTo(3.0);
      assertThat(kept.get("probability").asDouble())
          .isCloseTo(SpamModel.probability(3), within(1e-12));
      assertThat(kept.get("spam").asBoolean()).isTrue();
      assertThat(kept.get("terms")).isEqualTo(spam.get("terms"));
    }
  }

  /**
   * Whole words: viagra 2.0 anywhere, cheap 0.5 in the subject, casino 1.0 and meeting -3.0 in the
   * body, agenda -0.25 anywhere; capped counts, intercept -1, spam from 0.5.
   */
  static SpamModel weightedModel() {
    return new SpamModel(
        List.of(
            new WeightedTerm("viagra", 2.0, Part.ANY, 1),
            new WeightedTerm("cheap", 0.5, Part.SUBJECT, 1),
            new WeightedTerm("casino", 1.0, Part.BODY, 1),
            new WeightedTerm("meeting", -3.0, Part.BODY, 1),
            new WeightedTerm("agenda", -0.25, Part.ANY, 1)),
        Scoring.CAPPED,
        -1,
        0.5,
        Match.WORDS,
        "web test model");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/api/v1/inboxes/a..b",
        "/api/v1/inboxes/%3Cscript%3E",
        "/api/v1/inboxes/alice?limit=0",
        "/api/v1/inboxes/alice?limit=101",
        "/api/v1/inboxes/alice?limit=ten",
        "/api/v1/inboxes/alice?cursor=garbage",
        "/api/v1/messages/not-an-id",
        "/api/v1/messages/not-an-id/raw",
        "/api/v1/messages/AAAAAAAAAAAAAAAAAAAAAA/attachments/-1",
        "/api/v1/inboxes/a..b/events"
      })
  void badNamesIdsAndParametersAre400WithAJsonError(String path) throws Exception {
    HttpResponse<String> response = web.get(path);
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(json(response).get("error").asText()).isNotBlank();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/api/v1/messages/AAAAAAAAAAAAAAAAAAAAAA",
        "/api/v1/messages/AAAAAAAAAAAAAAAAAAAAAA/raw",
        "/api/v1/messages/AAAAAAAAAAAAAAAAAAAAAA/attachments/0"
      })
  void unknownMessagesAre404WithAJsonError(String path) throws Exception {
    HttpResponse<String> response = web.get(path);
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(json(response).get("error").asText()).contains("no such message");
  }

  @Test
  void aMessageHasDecodedMetadataSanitizedHtmlHeadersInOrderAndAttachmentLinks() throws Exception {
    MessageId id = web.deliver("bob", MULTIPART);
    JsonNode message = json(web.get("/api/v1/messages/" + id));
    assertThat(message.get("id").asText()).isEqualTo(id.value());
    assertThat(message.get("subject").asText()).isEqualTo("Café menu");
    assertThat(message.get("recipients").size()).isEqualTo(2);
    assertThat(message.get("date").asText()).isEqualTo("2026-11-21T10:00:00Z");
    assertThat(message.get("text").asText()).contains("Soup of the day");
    String html = message.get("html").asText();
    assertThat(html).contains("<b>of the day</b>").doesNotContain("script", "onclick", "alert");
    List<String> names = new ArrayList<>();
    message.get("headers").forEach(h -> names.add(h.get("name").asText()));
    assertThat(names).containsSubsequence("From", "To", "Subject", "Date", "X-First", "X-Second");
    assertThat(message.get("headers").get(2).get("value").asText()).isEqualTo("Café menu");
    JsonNode attachment = message.get("attachments").get(0);
    assertThat(attachment.get("name").asText()).isEqualTo("../../etc/pass wd\".pdf");
    assertThat(attachment.get("type").asText()).isEqualTo("application/pdf");
    assertThat(attachment.get("size").asInt()).isEqualTo(9);
    assertThat(attachment.get("url").asText())
        .isEqualTo("/api/v1/messages/" + id + "/attachments/0");
    assertThat(message.get("events").isArray()).isTrue();
    assertThat(message.get("events").size()).isZero(); // no calendar part
  }

  /**
   * A meeting invite showed only its text and an attachment. An app's invite, sent over SMTP to the
   * running service as Jakarta Mail builds one (text and a text/calendar part, as alternatives),
   * has its event in the message JSON, times in UTC, and its calendar part still downloads.
   */
  @Test
  void anInviteAnAppSendsHasItsEventInTheMessageJson() throws Exception {
    String calendar =
        """
        BEGIN:VCALENDAR
        PRODID:-//Example App//Scheduler 1.0//EN
        VERSION:2.0
        METHOD:REQUEST
        BEGIN:VEVENT
        UID:launch-review-42@app.example
        DTSTAMP:20260420T120000Z
        DTSTART;TZID=America/New_York:20260504T090000
        DTEND;TZID=America/New_York:20260504T100000
        SUMMARY:Launch review\\, final round
        LOCATION:Room 12\\, 3rd floor
        ORGANIZER;CN="Pat Planner":mailto:pat@app.example
        ATTENDEE;RSVP=TRUE;CN=QA:mailto:qa@burnbox.test
        END:VEVENT
        END:VCALENDAR
        """
            .replace("\n", "\r\n");
    try (BurnboxService service = BurnboxService.start(BurnboxExtension.testSettings().build());
        HttpClient http = HttpClient.newHttpClient()) {
      sendInvite(service.smtpPort(), "qa@burnbox.test", calendar);
      String base = "http://127.0.0.1:" + service.httpPort();
      JsonNode inbox =
          json(
              http.send(
                  HttpRequest.newBuilder(URI.create(base + "/api/v1/inboxes/qa")).build(),
                  HttpResponse.BodyHandlers.ofString()));
      String id = inbox.get("messages").get(0).get("id").asText();
      JsonNode message =
          json(
              http.send(
                  HttpRequest.newBuilder(URI.create(base + "/api/v1/messages/" + id)).build(),
                  HttpResponse.BodyHandlers.ofString()));

      assertThat(message.get("events").size()).isEqualTo(1);
      JsonNode event = message.get("events").get(0);
      assertThat(fieldNames(event))
          .containsExactly(
              "method",
              "summary",
              "start",
              "end",
              "allDay",
              "timeZone",
              "repeats",
              "location",
              "organizer");
      assertThat(event.get("method").asText()).isEqualTo("REQUEST");
      assertThat(event.get("summary").asText()).isEqualTo("Launch review, final round");
      assertThat(event.get("start").asText()).isEqualTo("2026-05-04T13:00:00Z"); // 09:00 EDT
      assertThat(event.get("end").asText()).isEqualTo("2026-05-04T14:00:00Z");
      assertThat(event.get("allDay").asBoolean()).isFalse();
      assertThat(event.get("timeZone").asText()).isEqualTo("America/New_York");
      assertThat(event.get("location").asText()).isEqualTo("Room 12, 3rd floor");
      assertThat(event.get("organizer").get("name").asText()).isEqualTo("Pat Planner");
      assertThat(event.get("organizer").get("email").asText()).isEqualTo("pat@app.example");

      JsonNode attachment = message.get("attachments").get(0);
      assertThat(attachment.get("type").asText()).isEqualTo("text/calendar");
      HttpResponse<String> ics =
          http.send(
              HttpRequest.newBuilder(URI.create(base + attachment.get("url").asText())).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(ics.body()).startsWith("BEGIN:VCALENDAR").contains("SUMMARY:Launch review");
    }
  }

  /**
   * An Exchange invite in a Windows zone it gives no VTIMEZONE for had its start as a local time
   * without offset; it is now the moment, in UTC, with the zone as the invite named it.
   */
  @Test
  void anOutlookInviteInAWindowsZoneHasItsTimesInUtcInTheMessageJson() throws Exception {
    MessageId id = web.deliver("qa", WebPagesTest.OUTLOOK_INVITE);
    JsonNode event = json(web.get("/api/v1/messages/" + id)).get("events").get(0);

    assertThat(event.get("summary").asText()).isEqualTo("Design review");
    assertThat(event.get("start").asText()).isEqualTo("2026-12-01T17:00:00Z"); // 09:00 PST
    assertThat(event.get("end").asText()).isEqualTo("2026-12-01T18:00:00Z");
    assertThat(event.get("timeZone").asText()).isEqualTo("Pacific Standard Time");
  }

  /**
   * A repeating event's JSON said nothing of its repeating. Each event now has repeats: how, in
   * words, "Repeats" for a rule not understood, null for an event that does not repeat.
   */
  @Test
  void eachEventOfTheMessageJsonSaysHowItRepeats() throws Exception {
    MessageId id =
        web.deliver(
            "qa",
            "Subject: Series\r\nContent-Type: text/calendar; method=REQUEST\r\n\r\n"
                + WebPagesTest.REPEATING_CALENDAR);
    JsonNode events = json(web.get("/api/v1/messages/" + id)).get("events");

    List<String> repeats = new ArrayList<>();
    events.forEach(e -> repeats.add(e.get("repeats").isNull() ? null : e.get("repeats").asText()));
    assertThat(repeats)
        .containsExactly(
            "Weekly on Monday and Wednesday, 10 times",
            "Every 2 weeks on Monday until 2027-03-01",
            "Repeats",
            null);
  }

  /**
   * Sends {@code calendar} as an app's invite: Jakarta Mail over SMTP on loopback, its text and its
   * text/calendar part (method REQUEST) as alternatives.
   */
  private static void sendInvite(int smtpPort, String to, String calendar) throws Exception {
    Properties props = new Properties();
    props.put("mail.smtp.host", "127.0.0.1");
    props.put("mail.smtp.port", Integer.toString(smtpPort));
    MimeMessage message = new MimeMessage(Session.getInstance(props));
    message.setFrom(new InternetAddress("pat@app.example"));
    message.setRecipient(Message.RecipientType.TO, new InternetAddress(to));
    message.setSubject("Invitation: Launch review");
    MimeBodyPart text = new MimeBodyPart();
    text.setText("Pat invites you to the launch review.", "utf-8");
    MimeBodyPart invite = new MimeBodyPart();
    invite.setDataHandler(
        new DataHandler(
            new ByteArrayDataSource(calendar, "text/calendar; charset=utf-8; method=REQUEST")));
    message.setContent(new MimeMultipart("alternative", text, invite));
    Transport.send(message);
  }

  /** HTML-only mail read as text by an API client: the HTML's visible text, without its markup. */
  /**
   * A phone number link, which the mail view keeps, was missing from the links API and from the
   * message page's links: both list it now.
   */
  @Test
  void theLinksApiAndTheMessagePageListPhoneLinks() throws Exception {
    MessageId id =
        web.deliver(
            "alice",
            "From: desk@example.test\r\nSubject: Call\r\nContent-Type: text/html\r\n\r\n"
                + "<a href=\"https://app.example/v\">Verify</a>"
                + " or <a href=\"tel:+1 (555) 010-0199\">call us</a>\r\n");
    JsonNode links = json(web.get("/api/v1/messages/" + id + "/links")).get("links");
    assertThat(links).hasSize(2);
    assertThat(links.get(1).get("url").asText()).isEqualTo("tel:+1%20(555)%20010-0199");
    assertThat(links.get(1).get("text").asText()).isEqualTo("call us");
    assertThat(links.get(1).get("part").asText()).isEqualTo("html");
    assertThat(web.get("/message/" + id).body())
        .contains("<a href=\"tel:+1%20(555)%20010-0199\" rel=\"noopener noreferrer nofollow\"");
  }

  /**
   * Links a browser follows were dropped from the links API: a line break in an href, a raw space,
   * a Unicode host, a URL only in the HTML's visible text. Each is listed as a browser requests it.
   */
  @Test
  void theLinksApiListsLinksAsABrowserFollowsThem() throws Exception {
    MessageId id =
        web.deliver(
            "alice",
            "From: desk@example.test\r\nSubject: Verify\r\n"
                + "Content-Type: text/html; charset=utf-8\r\n\r\n"
                + "<a href=\"https://app.example/verify?\r\ntoken=abc&amp;user=ann\">Verify</a>"
                + " <a href=\"https://app.example/v?t=a b\">Space</a>"
                + " <a href=\"https://b\u00fccher.example/v\">Books</a>"
                + " <p>Or paste: https://app.example/verify?token=bare123</p>\r\n");
    List<String> urls = new ArrayList<>();
    json(web.get("/api/v1/messages/" + id + "/links"))
        .get("links")
        .forEach(link -> urls.add(link.get("url").asText()));
    assertThat(urls)
        .containsExactly(
            "https://app.example/verify?token=abc&user=ann",
            "https://app.example/v?t=a%20b",
            "https://xn--bcher-kva.example/v",
            "https://app.example/verify?token=bare123");
    assertThat(web.get("/message/" + id + "/html").body())
        .contains("href=\"https://app.example/verify?token&#61;abc&amp;user&#61;ann\"");
  }

  @Test
  void htmlOnlyMailHasTheVisibleTextOfItsHtml() throws Exception {
    MessageId id =
        web.deliver(
            "bob",
            "From: shop@example.com\r\nSubject: Your code\r\nContent-Type: text/html\r\n\r\n"
                + "<html><head><style>p{color:red}</style><script>var x=1</script></head>"
                + "<body><p>Your code is <b>493027</b>.</p><p>Caf&eacute; &amp; more</p></body>"
                + "</html>\r\n");
    JsonNode message = json(web.get("/api/v1/messages/" + id));
    assertThat(message.get("text").asText()).isEmpty();
    String text = message.get("htmlText").asText();
    assertThat(text).contains("Your code is 493027.").contains("Café & more");
    assertThat(text).doesNotContain("<", "color:red", "var x");
    assertThat(
            json(web.get("/api/v1/messages/" + web.deliver("bob", MULTIPART)))
                .get("htmlText")
                .asText())
        .contains("of the day");
  }

  @Test
  void attachmentsAreAlwaysDownloadsWithASafeName() throws Exception {
    MessageId id = web.deliver("bob", MULTIPART);
    HttpResponse<byte[]> response = web.getBytes("/api/v1/messages/" + id + "/attachments/0");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(new String(response.body(), StandardCharsets.US_ASCII)).isEqualTo("%PDF-1.4\n");
    assertThat(response.headers().firstValue("content-disposition").orElseThrow())
        .isEqualTo("attachment; filename=\"pass_wd_.pdf\"; filename*=UTF-8''pass%20wd_.pdf");
    assertThat(response.headers().firstValue("content-type").orElseThrow())
        .isEqualTo("application/octet-stream");
    assertThat(response.headers().firstValue("x-content-type-options")).hasValue("nosniff");
    assertThat(web.get("/api/v1/messages/" + id + "/attachments/1").statusCode()).isEqualTo(404);
  }

  /** Parts named in other scripts (RFC 2231 and RFC 2047), with a disguised and with no name. */
  private static final String NAMED_ATTACHMENTS =
      """
      Subject: files\r
      MIME-Version: 1.0\r
      Content-Type: multipart/mixed; boundary="b"\r
      \r
      --b\r
      Content-Type: text/plain\r
      Content-Disposition: attachment;\r
       filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E%E3%83%95%E3%82%A1%E3%82%A4%E3%83%AB.txt\r
      \r
      one\r
      --b\r
      Content-Type: application/pdf\r
      Content-Disposition: attachment;\r
       filename="=?UTF-8?Q?r=C3=A9sum=C3=A9_=E6=97=A5=E6=9C=AC.pdf?="\r
      \r
      two\r
      --b\r
      Content-Type: text/plain\r
      Content-Disposition: attachment; filename="=?UTF-8?Q?caf=C3=A9=5Fpart2.txt?="\r
      \r
      three\r
      --b\r
      Content-Type: application/pdf\r
      Content-Disposition: attachment\r
      \r
      four\r
      --b\r
      Content-Type: application/octet-stream\r
      Content-Disposition: attachment;\r
       filename="=?UTF-8?Q?..=5C..=5Cinvoice=E2=80=AEfdp.exe?="\r
      \r
      five\r
      --b\r
      Content-Type: text/html\r
      Content-Disposition: attachment\r
      \r
      <script>alert(1)</script>\r
      --b--\r
      """;

  /** The name a browser saves download {@code n} as: {@code filename*}, percent-decoded. */
  private String savedName(MessageId id, int n, String asciiName) throws Exception {
    HttpResponse<byte[]> response = web.getBytes("/api/v1/messages/" + id + "/attachments/" + n);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type")).hasValue("application/octet-stream");
    String disposition = response.headers().firstValue("content-disposition").orElseThrow();
    assertThat(disposition)
        .startsWith("attachment; filename=\"" + asciiName + "\"; filename*=UTF-8''");
    String encoded = disposition.substring(disposition.indexOf("filename*=UTF-8''") + 17);
    assertThat(encoded).matches("[A-Za-z0-9!#$&+\\-.^_`|~%]+");
    return URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  @Test
  void downloadsKeepTheirNamesInAnyScriptWithAnAsciiFallback() throws Exception {
    MessageId id = web.deliver("bob", NAMED_ATTACHMENTS);
    assertThat(savedName(id, 0, "attachment-0.txt")).isEqualTo("日本語ファイル.txt");
    assertThat(savedName(id, 1, "resume_.pdf")).isEqualTo("résumé 日本.pdf");
    assertThat(savedName(id, 2, "cafe_part2.txt")).isEqualTo("café_part2.txt");
  }

  @Test
  void anUnnamedDownloadGetsTheExtensionOfItsTypeAndAHostileNameLosesItsTricks() throws Exception {
    MessageId id = web.deliver("bob", NAMED_ATTACHMENTS);
    assertThat(savedName(id, 3, "attachment-3.pdf")).isEqualTo("attachment-3.pdf");
    assertThat(savedName(id, 4, "invoicefdp.exe"))
        .as("no path, no right-to-left override making .exe look like .pdf")
        .isEqualTo("invoicefdp.exe");
    assertThat(savedName(id, 5, "attachment-5.html"))
        .as("an HTML part is still an octet-stream download")
        .isEqualTo("attachment-5.html");
  }

  @Test
  void aMethodAnApiPathDoesNotTakeIs405WithAnAllowHeader() throws Exception {
    MessageId id = web.deliver("bob", WebFixture.textMail("hi", "x"));
    for (String[] call :
        new String[][] {
          {"POST", "/api/v1/inboxes/bob", "GET, HEAD, DELETE, OPTIONS"},
          {"PUT", "/api/v1/messages/" + id, "GET, HEAD, DELETE, OPTIONS"},
          {"DELETE", "/api/v1/stats", "GET, HEAD, OPTIONS"},
          {"POST", "/api/v1/inboxes/bob/events", "GET, HEAD, OPTIONS"}
        }) {
      HttpResponse<String> response =
          web.send(
              HttpRequest.newBuilder(URI.create(web.url(call[1])))
                  .method(call[0], HttpRequest.BodyPublishers.noBody())
                  .build());
      assertThat(response.statusCode()).as(call[0] + " " + call[1]).isEqualTo(405);
      assertThat(response.headers().firstValue("allow")).as(call[1]).hasValue(call[2]);
      assertThat(json(response).get("error").asText()).contains(call[0]);
    }
    assertThat(web.get("/api/v1/messages/" + id).statusCode()).as("nothing changed").isEqualTo(200);
    HttpResponse<String> unknown =
        web.send(
            HttpRequest.newBuilder(URI.create(web.url("/api/v1/nothing/here")))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
    assertThat(unknown.statusCode()).as("a path no route takes").isEqualTo(404);
  }

  @Test
  void rawIsExactlyTheBytesReceived() throws Exception {
    String raw = "Subject: bytes\r\n\r\n\u00e9 \r\n.leading dot\r\n\r\n";
    MessageId id = web.deliver("bob", raw);
    HttpResponse<byte[]> response = web.getBytes("/api/v1/messages/" + id + "/raw");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo(raw.getBytes(StandardCharsets.UTF_8));
    assertThat(response.headers().firstValue("content-type").orElseThrow())
        .startsWith("message/rfc822");
  }

  @Test
  void deleteRemovesTheMessageOnce() throws Exception {
    MessageId id = web.deliver("bob", WebFixture.textMail("bye", "x"));
    HttpRequest delete =
        HttpRequest.newBuilder(URI.create(web.url("/api/v1/messages/" + id))).DELETE().build();
    assertThat(web.send(delete).statusCode()).isEqualTo(204);
    assertThat(web.get("/api/v1/messages/" + id).statusCode()).isEqualTo(404);
    assertThat(web.send(delete).statusCode()).isEqualTo(404);
    assertThat(json(web.get("/api/v1/inboxes/bob")).get("messages").size()).isZero();
  }

  @Test
  void eventsAnnounceNewMailAndLetGoOfTheSubscriptionWhenTheClientGoes() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", web.server.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(
          "GET /api/v1/inboxes/Carol/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      assertThat(in.readLine()).isEqualTo("HTTP/1.1 200 OK");
      List<String> head = new ArrayList<>();
      for (String line = in.readLine(); !line.isEmpty(); line = in.readLine()) {
        head.add(line.toLowerCase(java.util.Locale.ROOT));
      }
      assertThat(head).anyMatch(h -> h.startsWith("content-type: text/event-stream"));
      assertThat(web.openSubscriptions.get()).isEqualTo(1);

      MessageId id = web.deliver("carol", WebFixture.textMail("live <one>", "x"));
      String data = null;
      for (String line = in.readLine(); data == null; line = in.readLine()) {
        if (line.startsWith("data: ")) {
          data = line.substring(6);
        }
      }
      JsonNode event = JSON.readTree(data);
      assertThat(event.get("id").asText()).isEqualTo(id.value());
      assertThat(event.get("subject").asText()).isEqualTo("live <one>");
    }
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(() -> assertThat(web.openSubscriptions.get()).isZero());
    assertThat(web.server.openEventStreams()).isZero();
  }

  /**
   * A client that reconnects with {@code Last-Event-ID} gets the mail it missed, oldest first,
   * before new mail; one that sends a bare message id (as event ids were before they carried the
   * time) whose message is no longer in the inbox is told to list it.
   */
  @Test
  @Timeout(30) // a stream that never sends the missed mail would block the reads for ever
  void aReconnectWithLastEventIdIsSentTheMailItMissedFirst() throws Exception {
    MessageId seen = web.deliver("erin", WebFixture.textMail("seen", "x"));
    web.deliver("erin", WebFixture.textMail("missed one", "x"));
    web.deliver("erin", WebFixture.textMail("missed two", "x"));
    HttpRequest reconnect =
        HttpRequest.newBuilder(URI.create(web.url("/api/v1/inboxes/erin/events")))
            .header("Last-Event-ID", seen.value())
            .build();
    HttpResponse<java.util.stream.Stream<String>> response =
        java.net.http.HttpClient.newHttpClient()
            .send(reconnect, HttpResponse.BodyHandlers.ofLines());
    List<String> subjects = new ArrayList<>();
    var lines = response.body().iterator();
    while (subjects.size() < 2) {
      String line = lines.next();
      if (line.startsWith("data: ")) {
        subjects.add(JSON.readTree(line.substring(6)).get("subject").asText());
      }
    }
    assertThat(subjects).containsExactly("missed one", "missed two");
    MessageId later = web.deliver("erin", WebFixture.textMail("new", "x"));
    String next = null;
    while (next == null) { // the next mail event's id (an id line without event is a position)
      if (lines.next().equals("event: mail")) {
        next = lines.next().substring(4);
      }
    }
    assertThat(next).startsWith(later.value() + ".");
    response.body().close();

    assertThat(web.store.delete(seen)).isTrue();
    HttpResponse<java.util.stream.Stream<String>> gone =
        java.net.http.HttpClient.newHttpClient()
            .send(reconnect, HttpResponse.BodyHandlers.ofLines());
    assertThat(gone.body().filter(line -> line.startsWith(":")).skip(1).findFirst())
        .hasValueSatisfying(line -> assertThat(line).contains("list the inbox"));
  }

  /**
   * The message a reconnecting client saw last was deleted meanwhile: the mail that came after it
   * is still sent first, found by the time its event id carries, and nothing older. The comment
   * telling to list the inbox, which {@code EventSource} never shows, was all it got before.
   */
  @Test
  @Timeout(30) // a stream that never sends the missed mail would block the reads for ever
  void aReconnectAfterTheLastSeenMessageWasDeletedGetsTheMailThatCameMeanwhile() throws Exception {
    web.deliver("frank", WebFixture.textMail("older", "x"));
    HttpRequest connect =
        HttpRequest.newBuilder(URI.create(web.url("/api/v1/inboxes/frank/events"))).build();
    HttpResponse<java.util.stream.Stream<String>> first =
        java.net.http.HttpClient.newHttpClient().send(connect, HttpResponse.BodyHandlers.ofLines());
    var firstLines = first.body().iterator();
    MessageId seen = web.deliver("frank", WebFixture.textMail("seen", "x"));
    String lastEventId = null;
    while (lastEventId == null) {
      String line = firstLines.next();
      if (line.startsWith("id: ")) {
        lastEventId = line.substring(4);
      }
    }
    first.body().close();
    web.deliver("frank", WebFixture.textMail("missed one", "x"));
    web.deliver("frank", WebFixture.textMail("missed two", "x"));
    assertThat(web.store.delete(seen)).isTrue();

    HttpResponse<java.util.stream.Stream<String>> again =
        java.net.http.HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(web.url("/api/v1/inboxes/frank/events")))
                    .header("Last-Event-ID", lastEventId)
                    .build(),
                HttpResponse.BodyHandlers.ofLines());
    var lines = again.body().iterator();
    List<String> subjects = new ArrayList<>();
    while (subjects.size() < 2) {
      String line = lines.next();
      if (line.startsWith("data: ")) {
        subjects.add(JSON.readTree(line.substring(6)).get("subject").asText());
      }
    }
    assertThat(subjects).containsExactly("missed one", "missed two");
    MessageId later = web.deliver("frank", WebFixture.textMail("new", "x"));
    JsonNode next = null;
    while (next == null) {
      String line = lines.next();
      if (line.startsWith("data: ")) {
        next = JSON.readTree(line.substring(6));
      }
    }
    assertThat(next.get("subject").asText()).as("nothing older came again").isEqualTo("new");
    assertThat(next.get("id").asText()).as("data's id is the message id").isEqualTo(later.value());
    again.body().close();
  }

  /**
   * A stream places its client at once, with the id of the inbox's newest mail, not only at the
   * first live mail: a client that loses the connection before any mail came reconnects with that
   * id and is sent everything that came meanwhile, oldest first, more than a listing's page too.
   */
  @Test
  @Timeout(30) // a stream that never sends the missed mail would block the reads for ever
  void aStreamSendsItsPositionAtOnceSoAReconnectBeforeAnyMailGetsEverythingMissed()
      throws Exception {
    MessageId seen = web.deliver("gina", WebFixture.textMail("seen", "x"));
    var first = eventLines("gina", null);
    String position = firstIdOrHeartbeat(first.body().iterator());
    first.body().close();
    assertThat(position).isEqualTo("id: " + seen.value() + "." + receivedAt(seen));

    List<String> sent = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      sent.add("missed " + i);
      web.deliver("gina", WebFixture.textMail("missed " + i, "x"));
    }
    var again = eventLines("gina", position.substring(4));
    var lines = again.body().iterator();
    assertThat(subjects(lines, 30)).isEqualTo(sent);
    again.body().close();
  }

  /**
   * On an empty inbox the position is {@code empty}: a reconnect with it is sent every mail of the
   * inbox, which all came after.
   */
  @Test
  @Timeout(30) // a stream that never sends the missed mail would block the reads for ever
  void aStreamOnAnEmptyInboxIsPlacedBeforeAllMailThatComesLater() throws Exception {
    var first = eventLines("hank", null);
    String position = firstIdOrHeartbeat(first.body().iterator());
    first.body().close();
    assertThat(position).isEqualTo("id: " + InboxEvents.EMPTY_INBOX_ID);

    web.deliver("hank", WebFixture.textMail("one", "x"));
    MessageId two = web.deliver("hank", WebFixture.textMail("two", "x"));
    var again = eventLines("hank", InboxEvents.EMPTY_INBOX_ID);
    var lines = again.body().iterator();
    assertThat(subjects(lines, 2)).containsExactly("one", "two");
    assertThat(firstIdOrHeartbeat(lines))
        .as("the position after the mail sent again")
        .isEqualTo("id: " + two.value() + "." + receivedAt(two));
    again.body().close();
  }

  /** The lines of a new event stream of {@code inbox}, sent {@code lastEventId} if not null. */
  private HttpResponse<java.util.stream.Stream<String>> eventLines(String inbox, String lastEventId)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(web.url("/api/v1/inboxes/" + inbox + "/events")));
    if (lastEventId != null) {
      request.header("Last-Event-ID", lastEventId);
    }
    return java.net.http.HttpClient.newHttpClient()
        .send(request.build(), HttpResponse.BodyHandlers.ofLines());
  }

  /** The next {@code id:} line or heartbeat comment, whichever comes first. */
  private static String firstIdOrHeartbeat(java.util.Iterator<String> lines) {
    while (true) {
      String line = lines.next();
      if (line.startsWith("id: ") || line.equals(": heartbeat")) {
        return line;
      }
    }
  }

  /** The subjects of the next {@code count} mail events. */
  private static List<String> subjects(java.util.Iterator<String> lines, int count)
      throws Exception {
    List<String> subjects = new ArrayList<>();
    while (subjects.size() < count) {
      String line = lines.next();
      if (line.startsWith("data: ")) {
        subjects.add(JSON.readTree(line.substring(6)).get("subject").asText());
      }
    }
    return subjects;
  }

  private Instant receivedAt(MessageId id) {
    return web.store.get(id).orElseThrow().summary().receivedAt();
  }

  @Test
  void closingTheServerEndsOpenStreams() throws Exception {
    WebFixture slow = new WebFixture(Duration.ofHours(1));
    HttpResponse<java.io.InputStream> response =
        java.net.http.HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(slow.url("/api/v1/inboxes/dave/events"))).build(),
                HttpResponse.BodyHandlers.ofInputStream());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(slow.openSubscriptions.get()).isEqualTo(1);
    slow.close();
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(() -> assertThat(slow.openSubscriptions.get()).isZero());
  }

  @Test
  void everyResponseCarriesTheSecurityHeaders() throws Exception {
    MessageId id = web.deliver("bob", MULTIPART);
    for (String path :
        List.of(
            "/",
            "/inbox/bob",
            "/message/" + id,
            "/api/v1/inboxes/bob",
            "/api/v1/messages/" + id,
            "/static/burnbox.css",
            "/static/inbox.js",
            "/nothing/here")) {
      HttpResponse<String> response = web.get(path);
      assertThat(response.headers().firstValue("content-security-policy"))
          .as(path)
          .hasValue(SecurityHeaders.PAGE_POLICY);
      assertThat(response.headers().firstValue("x-content-type-options"))
          .as(path)
          .hasValue("nosniff");
      assertThat(response.headers().firstValue("referrer-policy")).as(path).hasValue("no-referrer");
    }
    assertThat(SecurityHeaders.PAGE_POLICY)
        .contains("default-src 'self'", "frame-ancestors 'none'", "script-src 'self';")
        .doesNotContain("unsafe");
  }

  @Test
  void theMailHtmlHasItsOwnPolicyBlockingImagesUntilAskedFor() throws Exception {
    MessageId id = web.deliver("bob", MULTIPART);
    HttpResponse<String> blocked = web.get("/message/" + id + "/html");
    assertThat(blocked.statusCode()).isEqualTo(200);
    String policy = blocked.headers().firstValue("content-security-policy").orElseThrow();
    assertThat(policy)
        .contains("default-src 'none'", "img-src 'none'", "sandbox", "frame-ancestors 'self'")
        .doesNotContain("allow-scripts", "allow-same-origin", "script-src");
    assertThat(blocked.body()).contains("<b>of the day</b>").doesNotContain("script");
    String shown =
        web.get("/message/" + id + "/html?images=1")
            .headers()
            .firstValue("content-security-policy")
            .orElseThrow();
    assertThat(shown).contains("img-src http: https:");
  }

  @Test
  void anInlineImageIsServedAsItsRasterTypeAndNamedInTheMailHtmlAndItsPolicy() throws Exception {
    MessageId id = web.deliver("bob", relatedMail("https://tracker.test/pixel.gif"));
    HttpResponse<String> html = web.get("/message/" + id + "/html");
    String path = "/message/" + id + "/inline/0";
    assertThat(html.body())
        .contains("src=\"" + path + "\"", "https://tracker.test/pixel.gif")
        .doesNotContain("cid:", "/inline/1");
    assertThat(html.headers().firstValue("content-security-policy").orElseThrow())
        .contains("img-src " + web.url("/message/" + id + "/inline/") + ";")
        .doesNotContain("http: https:");

    HttpResponse<byte[]> image = web.getBytes(path);
    assertThat(image.statusCode()).isEqualTo(200);
    assertThat(image.body()).isEqualTo(java.util.Base64.getDecoder().decode(PNG_BASE64));
    assertThat(image.headers().firstValue("content-type")).contains("image/png");
    assertThat(image.headers().firstValue("content-disposition")).contains("inline");
    assertThat(image.headers().firstValue("x-content-type-options")).contains("nosniff");
    assertThat(image.headers().firstValue("content-security-policy"))
        .contains(SecurityHeaders.PAGE_POLICY);

    assertThat(web.get("/message/" + id + "/inline/1").statusCode()).as("svg").isEqualTo(404);
    assertThat(web.get("/message/" + id + "/inline/2").statusCode()).as("no part").isEqualTo(404);
    assertThat(web.get("/message/" + web.deliver("bob", MULTIPART) + "/inline/0").statusCode())
        .as("a pdf attachment")
        .isEqualTo(404);
  }

  /**
   * A private inbox's inline image has a signed URL, as the sandboxed mail view sends no token
   * cookie: it opens that part of that message without a token until it expires, made by any node
   * with the same secrets; a changed, expired or moved signature opens nothing, nor does another
   * deployment's.
   */
  @Test
  void aPrivateInboxsInlineImageOpensWithItsSignedUrlAndNothingElse() throws Exception {
    MessageId id =
        web.deliver(
            "bob@" + WebFixture.PRIVATE_DOMAIN, relatedMail("https://tracker.test/pixel.gif"));
    HttpResponse<String> html =
        web.send(
            HttpRequest.newBuilder(URI.create(web.url("/message/" + id + "/html")))
                .header("Authorization", "Bearer " + WebFixture.ADMIN_TOKEN)
                .build());
    String signed = Jsoup.parse(html.body()).selectFirst("img[alt=inline]").attr("src");
    String path = "/message/" + id + "/inline/0";
    assertThat(signed).matches(Pattern.quote(path) + "\\?exp=\\d+&sig=[\\w-]{43}");
    assertThat(signed)
        .doesNotContain(WebFixture.ADMIN_TOKEN, WebAccess.cookieValue(WebFixture.ADMIN_TOKEN));
    assertThat(html.headers().firstValue("content-security-policy").orElseThrow())
        .contains("img-src " + web.url("/message/" + id + "/inline/") + ";");

    HttpResponse<byte[]> image = web.getBytes(signed);
    assertThat(image.statusCode()).isEqualTo(200);
    assertThat(image.body()).isEqualTo(java.util.Base64.getDecoder().decode(PNG_BASE64));
    assertThat(image.headers().firstValue("content-type")).contains("image/png");

    String query = signed.substring(signed.indexOf('?'));
    long expires = Long.parseLong(query.replaceAll("\\?exp=(\\d+)&.*", "$1"));
    assertThat(expires - Instant.now().getEpochSecond())
        .isBetween(
            InlineImageSigner.LIFETIME.toSeconds() - 60, InlineImageSigner.LIFETIME.toSeconds());
    String sig = query.substring(query.indexOf("&sig=") + 5);
    String otherSig = (sig.charAt(0) == 'A' ? "B" : "A") + sig.substring(1);
    InlineImageSigner anotherNode = new InlineImageSigner(WebFixture.configuredAccess());
    InlineImageSigner expired =
        new InlineImageSigner(
            web.access,
            Clock.offset(Clock.systemUTC(), InlineImageSigner.LIFETIME.negated().minusSeconds(1)));
    InlineImageSigner anotherDeployment =
        new InlineImageSigner(
            new WebAccess(
                CorsPolicy.NONE,
                "another-admin-token-0123",
                PrivateDomains.parse(WebFixture.PRIVATE_DOMAIN),
                ApiTokens.none()));
    var summary = web.store.get(id).orElseThrow().summary();
    assertThat(web.getBytes(anotherNode.url(summary, 0)).statusCode())
        .as("made by another node with the same secrets")
        .isEqualTo(200);
    for (String refused :
        new String[] {
          path,
          path + "?exp=" + expires,
          path + "?exp=" + expires + "&sig=",
          path + "?exp=" + expires + "&sig=" + otherSig,
          path + "?exp=" + (expires + 1) + "&sig=" + sig,
          path + "?exp=x&sig=" + sig,
          "/message/" + id + "/inline/1" + query,
          expired.url(summary, 0),
          anotherDeployment.url(summary, 0),
        }) {
      assertThat(web.get(refused).statusCode()).as(refused).isEqualTo(401);
    }
    assertThat(
            web.send(
                    HttpRequest.newBuilder(URI.create(web.url(path)))
                        .header("Authorization", "Bearer " + WebFixture.ADMIN_TOKEN)
                        .build())
                .statusCode())
        .as("a token still opens it")
        .isEqualTo(200);

    MessageId shared = web.deliver("bob", relatedMail("https://tracker.test/pixel.gif"));
    assertThat(web.get("/message/" + shared + "/html").body())
        .as("a shared inbox's image needs no signature")
        .contains("src=\"/message/" + shared + "/inline/0\"");
  }

  /**
   * A typo ({@code subjet}) would drop a filter silently and answer the wrong mail: the API refuses
   * a parameter its endpoint does not take, but {@code _} (a cache-buster); the pages do not.
   */
  @Test
  void anUnknownQueryParameterIs400NamingItAndTheParametersTaken() throws Exception {
    web.deliver("alice", WebFixture.textMail("welcome", "not the mail to verify"));
    HttpResponse<String> typo =
        web.get("/api/v1/inboxes/alice/next?since=1970-01-01T00:00:00Z&subjet=verify&timeout=1");
    assertThat(typo.statusCode()).isEqualTo(400);
    assertThat(json(typo).get("error").asText())
        .isEqualTo(
            "unknown query parameter \"subjet\"; this endpoint takes after, since, from, subject,"
                + " timeout");

    MessageId id = web.deliver("alice", WebFixture.textMail("verify", "the one"));
    for (String path :
        new String[] {
          "/api/v1/inboxes/alice?limt=5",
          "/api/v1/messages/" + id + "?format=raw",
          "/api/v1/messages/" + id + "/links?x=1&y=2",
          "/api/v1/stats?verbose=1",
        }) {
      HttpResponse<String> response = web.get(path);
      assertThat(response.statusCode()).as(path).isEqualTo(400);
      assertThat(json(response).get("error").asText()).as(path).startsWith("unknown query param");
    }
    assertThat(json(web.get("/api/v1/stats?verbose=1")).get("error").asText())
        .endsWith("this endpoint takes none");

    assertThat(web.get("/api/v1/inboxes/alice?limit=5&cursor=&_=1769860800").statusCode())
        .isEqualTo(200);
    assertThat(web.get("/api/v1/messages/" + id + "?_=1").statusCode()).isEqualTo(200);
    assertThat(web.get("/inbox/alice?utm_source=mail").statusCode())
        .as("pages take what links add")
        .isEqualTo(200);
  }

  /** RFC 7235: the scheme is case-insensitive; clients also send extra spaces after it. */
  @ParameterizedTest
  @ValueSource(strings = {"Bearer ", "bearer ", "BEARER ", "bEaReR   "})
  void aPrivateInboxOpensWithTheBearerSchemeInAnyCase(String scheme) throws Exception {
    web.deliver("bob@" + WebFixture.PRIVATE_DOMAIN, WebFixture.textMail("team mail", "hi"));
    HttpResponse<String> response =
        web.send(
            HttpRequest.newBuilder(
                    URI.create(web.url("/api/v1/inboxes/bob@" + WebFixture.PRIVATE_DOMAIN)))
                .header("Authorization", scheme + WebFixture.ADMIN_TOKEN)
                .build());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(json(response).at("/messages/0/subject").asText()).isEqualTo("team mail");
  }

  @Test
  void aBearerSchemeRunIntoItsTokenOpensNothing() throws Exception {
    HttpResponse<String> response =
        web.send(
            HttpRequest.newBuilder(
                    URI.create(web.url("/api/v1/inboxes/bob@" + WebFixture.PRIVATE_DOMAIN)))
                .header("Authorization", "Bearer" + WebFixture.ADMIN_TOKEN)
                .build());
    assertThat(response.statusCode()).isEqualTo(401);
  }

  @Test
  void theMailHtmlShowsTheStyleBlocksRulesInlineAndFiltered() throws Exception {
    MessageId id =
        web.deliver(
            "bob",
            """
            Subject: Newsletter\r
            Content-Type: text/html\r
            \r
            <style>.price { color: #c00; background: url(https://tracker.test/p.png) }</style>\r
            <p class="price">Now 5 euros</p>\r
            """);
    String html = web.get("/message/" + id + "/html").body();
    assertThat(html).contains("<p style=\"color:#c00\">Now 5 euros</p>").doesNotContain("tracker");
  }

  @Test
  void openApiIsServed() throws Exception {
    HttpResponse<String> response = web.get("/api/openapi.json");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(json(response).get("openapi").asText()).startsWith("3.");
  }
}
