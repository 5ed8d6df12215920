package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Searching an inbox ({@code ?q=}) and emptying it ({@code DELETE}), through real HTTP. */
class InboxSearchTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final WebFixture web = new WebFixture();

  @AfterEach
  void stop() {
    web.close();
  }

  private List<String> subjects(String query) throws Exception {
    JsonNode page = JSON.readTree(web.get("/api/v1/inboxes/alice?q=" + query).body());
    List<String> subjects = new ArrayList<>();
    page.get("messages").forEach(m -> subjects.add(m.get("subject").asText()));
    assertThat(page.get("nextCursor").isNull()).isTrue();
    return subjects;
  }

  @Test
  void findsMessagesBySubjectSenderAndTextNewestFirst() throws Exception {
    web.deliver("alice", WebFixture.textMail("Invoice 42", "Amount due: 10 EUR"));
    web.deliver("alice", WebFixture.textMail("Welcome aboard", "Your verification code is 604112"));
    web.deliver(
        "alice",
        "From: Shop <news@shop.example>\r\nSubject: Deals\r\nContent-Type: text/html\r\n\r\n"
            + "<p>Free <b>shipping</b> this week</p>\r\n");
    web.deliver("bob", WebFixture.textMail("Invoice 43", "not alice's"));

    assertThat(subjects("invoice")).containsExactly("Invoice 42");
    assertThat(subjects("VERIFICATION")).containsExactly("Welcome aboard");
    assertThat(subjects("free%20shipping")).as("the HTML's visible text").containsExactly("Deals");
    assertThat(subjects("shop.example")).as("the sender").containsExactly("Deals");
    assertThat(subjects("ann@example.test")).containsExactly("Welcome aboard", "Invoice 42");
    assertThat(subjects("nothing-like-this")).isEmpty();
  }

  /**
   * A search cut at {@code limit} gives a {@code nextCursor} when more of the searched messages
   * match, and following it with the same {@code q} returns each match once, newest first; a search
   * whose matches all fit gives none.
   */
  @Test
  void aSearchCutAtItsLimitGivesACursorThatContinuesIt() throws Exception {
    try (WebFixture roomy = WebFixture.withInboxCap(100)) {
      List<String> matching = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        String subject = i % 6 == 5 ? "other " + i : "cap " + i;
        if (i % 6 != 5) {
          matching.add(0, subject); // newest first
        }
        roomy.deliver("alice", WebFixture.textMail(subject, i < 5 ? "lonely" : "text"));
      }
      assertThat(matching).hasSize(50);

      List<String> found = new ArrayList<>();
      String cursor = null;
      int pages = 0;
      do {
        String path =
            "/api/v1/inboxes/alice?q=cap&limit=5" + (cursor == null ? "" : "&cursor=" + cursor);
        JsonNode page = JSON.readTree(roomy.get(path).body());
        page.get("messages").forEach(m -> found.add(m.get("subject").asText()));
        assertThat(page.get("messages").size()).as("page %d", pages).isEqualTo(5);
        cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
        pages++;
      } while (cursor != null && pages < 20);
      assertThat(pages).isEqualTo(10);
      assertThat(found).isEqualTo(matching);

      JsonNode exact = JSON.readTree(roomy.get("/api/v1/inboxes/alice?q=lonely&limit=4").body());
      assertThat(exact.get("nextCursor").isNull()).as("a fifth match is left").isFalse();
      JsonNode all = JSON.readTree(roomy.get("/api/v1/inboxes/alice?q=lonely&limit=5").body());
      assertThat(all.get("messages")).hasSize(5);
      assertThat(all.get("nextCursor").isNull()).as("every match returned").isTrue();
    }
  }

  @Test
  void deleteEmptiesOneInboxAndSaysHowMany() throws Exception {
    web.deliver("alice", WebFixture.textMail("one", "1"));
    web.deliver("alice", WebFixture.textMail("two", "2"));
    web.deliver("bob", WebFixture.textMail("kept", "3"));
    JsonNode answer =
        JSON.readTree(
            web.send(
                    HttpRequest.newBuilder(URI.create(web.url("/api/v1/inboxes/alice")))
                        .DELETE()
                        .build())
                .body());
    assertThat(answer.get("deleted").asInt()).isEqualTo(2);
    assertThat(JSON.readTree(web.get("/api/v1/inboxes/alice").body()).get("messages")).isEmpty();
    assertThat(JSON.readTree(web.get("/api/v1/inboxes/bob").body()).get("messages")).hasSize(1);
  }

  /**
   * A query that repeats what the text repeats is searched for in one pass: {@link String#contains}
   * compares up to the whole query at each char, here about 10^12 compares. The timeout only turns
   * such a regression into a failure rather than a hang, on a thread of its own since a busy loop
   * ignores interrupts.
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aQueryThatRepeatsTheTextIsSearchedForInOnePass() {
    String text = "a".repeat(2_000_000);
    String query = "a".repeat(1_000_000) + "b";
    assertThat(MailReader.containsLinear(text, query)).isFalse();
    assertThat(MailReader.containsLinear(text + "b", query)).isTrue();
    assertThat(MailReader.containsLinear("b" + text, "b" + text)).isTrue();
  }

  @Test
  void theSearchFindsWhatStringContainsFindsOnSeededRandomTexts() {
    Random random = new Random(8);
    for (int round = 0; round < 20_000; round++) {
      String text = randomText(random, random.nextInt(40));
      String query = randomText(random, random.nextInt(6));
      assertThat(MailReader.containsLinear(text, query))
          .as("'%s' in '%s'", query, text)
          .isEqualTo(text.contains(query));
    }
  }

  private static String randomText(Random random, int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(random.nextInt(4) == 0 ? 'b' : 'a');
    }
    return text.toString();
  }
}
