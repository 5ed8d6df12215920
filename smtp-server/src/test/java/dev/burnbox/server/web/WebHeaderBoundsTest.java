package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.MessageId;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A sender's header text is bounded wherever it is shown: a listing entry (inbox page, JSON
 * listing, live event) shows at most {@link HeaderCut#LISTING} characters of a value, a message
 * (page and JSON) {@link HeaderCut#MESSAGE} characters of each value and its first {@link
 * HeaderCut#MESSAGE_HEADERS} fields, with a way to the whole raw source; so no response grows with
 * what a sender puts in a header.
 */
class WebHeaderBoundsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final WebFixture web = new WebFixture();

  @AfterEach
  void stop() {
    web.close();
  }

  /** A subject of about {@code chars} characters, folded into lines of 76 as a mailer would. */
  private static String foldedSubject(int chars) {
    StringBuilder subject = new StringBuilder("Start");
    while (subject.length() < chars) {
      subject.append("\r\n ").append("word ".repeat(15));
    }
    return subject.toString();
  }

  private static String mail(String subject, String from, int extraHeaders) {
    StringBuilder raw =
        new StringBuilder("From: ").append(from).append("\r\nTo: someone@burnbox.test\r\n");
    for (int i = 0; i < extraHeaders; i++) {
      raw.append("X-Extra-").append(i).append(": value ").append(i).append("\r\n");
    }
    return raw.append("Subject: ").append(subject).append("\r\n\r\nbody\r\n").toString();
  }

  @Test
  void aValueThatFitsIsKeptAsItIs() {
    assertThat(HeaderCut.cut("hello", 5)).isEqualTo("hello");
    assertThat(HeaderCut.cut("", 5)).isEmpty();
    assertThat(HeaderCut.isCut("hello", 5)).isFalse();
  }

  @Test
  void aLongValueIsCutWithAnEllipsisNeverInsideASurrogatePair() {
    assertThat(HeaderCut.cut("abcdefgh", 5)).isEqualTo("abcde\u2026");
    String emoji = "abcd\uD83D\uDE00xyz"; // the pair at 4 and 5: a cut at 5 keeps it out whole
    assertThat(HeaderCut.cut(emoji, 5)).isEqualTo("abcd\u2026");
    assertThat(HeaderCut.cut(emoji, 6)).isEqualTo("abcd\uD83D\uDE00\u2026");
  }

  @Test
  void theJsonListingShowsTheFirst200CharactersOfSubjectAndSender() throws Exception {
    String subject = foldedSubject(100_000);
    String from = "\"" + "Long Name ".repeat(1000) + "\" <ann@example.test>";
    web.deliver("alice", mail(subject, from, 0));
    JsonNode entry = JSON.readTree(web.get("/api/v1/inboxes/alice").body()).get("messages").get(0);
    String shown = entry.get("subject").asText();
    assertThat(shown).hasSize(HeaderCut.LISTING + 1).endsWith(HeaderCut.ELLIPSIS);
    String stored = web.store.list(InboxName.of("alice"), 1, null).messages().getFirst().subject();
    assertThat(stored).hasSizeGreaterThan(90_000).startsWith(shown.substring(0, HeaderCut.LISTING));
    assertThat(entry.get("from").asText()).hasSize(HeaderCut.LISTING + 1);
  }

  @Test
  void theInboxPageAndListingDoNotGrowWithTheSubject() throws Exception {
    web.deliver("small", mail(foldedSubject(1_000), "ann@example.test", 0));
    web.deliver("large", mail(foldedSubject(1 << 20), "ann@example.test", 0));
    String smallPage = web.get("/inbox/small").body().replace("small", "");
    String largePage = web.get("/inbox/large").body().replace("large", "");
    // equal but for the ids' and timestamps' own lengths (an instant drops trailing zeros)
    assertThat(largePage.length()).isCloseTo(smallPage.length(), within(64));
    assertThat(largePage).contains(HeaderCut.ELLIPSIS);
    assertThat(web.get("/api/v1/inboxes/large").body().length())
        .isCloseTo(web.get("/api/v1/inboxes/small").body().length(), within(64));
  }

  @Test
  void aLiveEventCarriesTheCutSubject() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", web.server.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(
          "GET /api/v1/inboxes/carol/events HTTP/1.1\r\nHost: x\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      for (String line = in.readLine(); !line.startsWith(": subscribed"); line = in.readLine()) {
        // the response head, then the stream's first comment: subscribed
      }
      web.deliver("carol", mail(foldedSubject(50_000), "ann@example.test", 0));
      String data = null;
      for (String line = in.readLine(); data == null; line = in.readLine()) {
        if (line.startsWith("data: ")) {
          data = line.substring(6);
        }
      }
      assertThat(data.length()).isLessThan(2_000);
      assertThat(JSON.readTree(data).get("subject").asText()).hasSize(HeaderCut.LISTING + 1);
    }
  }

  @Test
  void theMessagePageCutsLongValuesAndPointsToTheRawSource() throws Exception {
    String subject = foldedSubject(1 << 20);
    MessageId id = web.deliver("dave", mail(subject, "ann@example.test", 0));
    String page = web.get("/message/" + id.value()).body();
    assertThat(page.length()).isLessThan(64 * 1024);
    assertThat(page)
        .contains("<p class=\"cut\">")
        .contains("href=\"/api/v1/messages/" + id.value() + "/raw\"");
    String raw = web.get("/api/v1/messages/" + id.value() + "/raw").body();
    assertThat(raw).contains(subject);
  }

  @Test
  void aShortMessageIsShownWholeWithoutANote() throws Exception {
    MessageId id = web.deliver("erin", mail("Lunch at noon", "ann@example.test", 3));
    String page = web.get("/message/" + id.value()).body();
    assertThat(page)
        .contains("Lunch at noon")
        .contains("X-Extra-2")
        .doesNotContain("class=\"cut\"");
    JsonNode json = JSON.readTree(web.get("/api/v1/messages/" + id.value()).body());
    assertThat(json.get("headersOmitted").asInt()).isZero();
    assertThat(json.get("headers")).hasSize(6);
  }

  @Test
  void theMessageShowsItsFirst200HeaderFieldsAndSaysHowManyMore() throws Exception {
    MessageId id = web.deliver("fred", mail(foldedSubject(10_000), "ann@example.test", 300));
    JsonNode json = JSON.readTree(web.get("/api/v1/messages/" + id.value()).body());
    assertThat(json.get("headers")).hasSize(HeaderCut.MESSAGE_HEADERS);
    assertThat(json.get("headersOmitted").asInt()).isEqualTo(303 - HeaderCut.MESSAGE_HEADERS);
    assertThat(json.get("subject").asText()).hasSize(HeaderCut.MESSAGE + 1);
    for (JsonNode header : json.get("headers")) {
      assertThat(header.get("value").asText().length()).isLessThanOrEqualTo(HeaderCut.MESSAGE + 1);
    }
    String page = web.get("/message/" + id.value()).body();
    assertThat(page)
        .contains("X-Extra-197<")
        .doesNotContain("X-Extra-198<")
        .contains("Only the first 200 of 303 header fields are shown");
  }
}
