package dev.burnbox.server.web;

import static dev.burnbox.mailstore.SpamVerdict.ofScore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.server.BurnboxService;
import dev.burnbox.server.ServiceSettings;
import dev.burnbox.server.junit.BurnboxExtension;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pages over plain HTTP: escaping, links, redirects and HTML error pages. */
class WebPagesTest {
  private final WebFixture web = new WebFixture();

  @AfterEach
  void stop() {
    web.close();
  }

  @Test
  void theInboxPageEscapesSubjectsAndSenders() throws Exception {
    MessageId id =
        web.deliver("eve", HostileCorpus.mail("11-hostile-headers.eml", "http://b.test"));
    HttpResponse<String> page = web.get("/inbox/eve");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("content-type").orElseThrow()).startsWith("text/html");
    assertThat(page.body())
        .contains("href=\"/message/" + id + "\"")
        .contains("&lt;script&gt;fetch(&quot;http://b.test/ran/subject&quot;)&lt;/script&gt;")
        .contains("&lt;img src=http://b.test/load/from")
        .doesNotContain("<script>fetch")
        .doesNotContain("<img src=http://b.test")
        .contains("<script defer src=\"/static/inbox.js\"></script>")
        .contains("data-events=\"/api/v1/inboxes/eve/events\"");
  }

  @Test
  void theMessagePageEscapesTextAndHeadersAndFramesTheHtmlInASandbox() throws Exception {
    MessageId id =
        web.deliver("eve", HostileCorpus.mail("11-hostile-headers.eml", "http://b.test"));
    String body = web.get("/message/" + id).body();
    assertThat(body)
        .contains("Text view: &lt;script&gt;")
        .contains("&lt;/pre&gt;&lt;script&gt;")
        .contains("<th scope=\"row\"><bdi>X-Evil</bdi></th>")
        .doesNotContain("<script>fetch")
        .doesNotContain("<iframe"); // a text-only mail has no HTML view
    MessageId html = web.deliver("eve", WebApiTest.MULTIPART);
    assertThat(web.get("/message/" + html).body())
        .contains("<iframe class=\"mail-html\"")
        .contains("src=\"/message/" + html + "/html\"")
        .contains("sandbox=\"allow-popups allow-popups-to-escape-sandbox\"")
        .contains("href=\"/api/v1/messages/" + html + "/attachments/0\" download")
        .contains("href=\"/api/v1/messages/" + html + "/raw\" download");
  }

  /**
   * A newsletter (text and HTML) showed a wall of plain text first and the mail as designed below
   * it. Its HTML view now comes first and its text follows, folded, terms still marked; a mail with
   * only text shows its text open.
   */
  @Test
  void aMailWithHtmlShowsItFirstAndItsTextVersionFoldedBelow() throws Exception {
    MessageId both = web.deliverScanned("eve", CASINO_NEWSLETTER);
    Element page = Jsoup.parse(web.get("/message/" + both).body()).body();
    assertThat(page.select("section#html, .text-view").eachAttr("class"))
        .containsExactly("html-view", "text-view");
    Element text = page.selectFirst("details.text-view");
    assertThat(text.hasAttr("open")).isFalse();
    assertThat(text.selectFirst("summary").text()).isEqualTo("Text version");
    assertThat(text.select("pre.text mark").eachText()).containsExactly("casino");

    MessageId textOnly = web.deliverScanned("eve", WebFixture.textMail("Plain", "a casino"));
    Element plain = Jsoup.parse(web.get("/message/" + textOnly).body()).body();
    assertThat(plain.select("details.text-view, section#html")).isEmpty();
    assertThat(plain.select("section.text-view pre.text mark").eachText())
        .containsExactly("casino");
  }

  /** A multipart/alternative mail whose text and HTML both name a spam term. */
  static final String CASINO_NEWSLETTER =
      """
      From: Shop <news@shop.example>\r
      Subject: Tonight\r
      MIME-Version: 1.0\r
      Content-Type: multipart/alternative; boundary="b"\r
      \r
      --b\r
      Content-Type: text/plain; charset=utf-8\r
      \r
      Come to the casino tonight.\r
      --b\r
      Content-Type: text/html; charset=utf-8\r
      \r
      <p>Come to the <b>casino</b> tonight.</p>\r
      --b--\r
      """;

  /**
   * A 5 MB HTML newsletter showed its first rows and just ended: the decoder keeps 4 MiB of text
   * and HTML ({@code --mime-max-decoded-size}). The HTML view now says where it was cut.
   */
  @Test
  void anHtmlMailCutByTheDecoderSaysSoBelowItsHtml() throws Exception {
    StringBuilder rows = new StringBuilder();
    for (int i = 0; rows.length() < 5_000_000; i++) {
      rows.append("<tr><td>Offer number ").append(i).append(" of this week</td></tr>\r\n");
    }
    MessageId id =
        web.deliver(
            "eve",
            "From: news@example.test\r\nSubject: Big news\r\nContent-Type: text/html\r\n\r\n"
                + "<table>\r\n"
                + rows
                + "</table>\r\n");
    assertThat(web.get("/message/" + id).body())
        .contains(
            "</iframe>\n<p class=\"cut\">This message&apos;s text and HTML were cut at 4 MiB;"
                + " the <a href=\"/api/v1/messages/"
                + id
                + "/raw\" download>raw source</a> has the message whole.</p>\n</section>");
    MessageId whole = web.deliver("eve", WebApiTest.MULTIPART);
    assertThat(web.get("/message/" + whole).body()).doesNotContain("class=\"cut\"");
  }

  /** "Remote images are blocked. Show images" showed above HTML that had no remote images. */
  @Test
  void theImagesToggleShowsOnlyAboveHtmlWithRemoteImages() throws Exception {
    MessageId none = web.deliver("eve", WebApiTest.MULTIPART);
    assertThat(web.get("/message/" + none).body())
        .contains("<iframe class=\"mail-html\"")
        .doesNotContain("Remote images", "show-images");
    assertThat(web.get("/message/" + none + "?images=1").body())
        .doesNotContain("Remote images", "Hide images");
    MessageId remote =
        web.deliver(
            "eve", HostileCorpus.mail(HostileCorpus.REMOTE_IMAGE, "https://beacon.test/pixel"));
    assertThat(web.get("/message/" + remote).body())
        .contains(
            "<p class=\"images\">Remote images are blocked. <a id=\"show-images\" href=\"/message/"
                + remote
                + "?images=1#html\">Show images</a></p>");
    assertThat(web.get("/message/" + remote + "?images=1").body())
        .contains("Remote images are shown. <a href=\"/message/" + remote + "#html\">Hide images");
  }

  /**
   * The exact received time in UTC is the text of the message page's time and the title of a list
   * entry's age, and page.js (which both pages load) shows it in the reader's zone.
   */
  @Test
  void timesCarryTheirExactTimeForThePageScript() throws Exception {
    MessageId id = web.deliver("eve", WebApiTest.MULTIPART);
    Instant received = web.store.get(id).orElseThrow().summary().receivedAt();
    String utc =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .format(received.atZone(ZoneOffset.UTC));
    assertThat(web.get("/message/" + id).body())
        .contains(
            "<time class=\"exact\" datetime=\"%s\" title=\"%s\">%s</time>"
                .formatted(received, utc, utc))
        .contains("<script defer src=\"/static/page.js\"></script>");
    assertThat(web.get("/inbox/eve").body())
        .contains("<time datetime=\"%s\" title=\"%s\">just now</time>".formatted(received, utc))
        .contains("<script defer src=\"/static/page.js\"></script>");
  }

  /**
   * A Google Calendar invite: the mail's text and HTML, its calendar as a text/calendar alternative
   * (folded lines, TZID times, escaped commas and line breaks) and again as invite.ics.
   */
  static final String GOOGLE_INVITE =
      """
      From: Ann Example <ann@example.com>\r
      To: qa@burnbox.test\r
      Subject: Invitation: Quarterly review @ Mon 16 Mar 2026 10am - 11am (CET)\r
      MIME-Version: 1.0\r
      Content-Type: multipart/mixed; boundary="m"\r
      \r
      --m\r
      Content-Type: multipart/alternative; boundary="a"\r
      \r
      --a\r
      Content-Type: text/plain; charset="UTF-8"\r
      \r
      You have been invited to the following event.\r
      --a\r
      Content-Type: text/html; charset="UTF-8"\r
      \r
      <p>You have been invited to the following event.</p>\r
      --a\r
      Content-Type: text/calendar; charset="UTF-8"; method=REQUEST\r
      \r
      BEGIN:VCALENDAR\r
      METHOD:REQUEST\r
      BEGIN:VEVENT\r
      DTSTART;TZID=Europe/Berlin:20260316T100000\r
      DTEND;TZID=Europe/Berlin:20260316T110000\r
      ORGANIZER;CN=Ann Example:mailto:ann@example.com\r
      LOCATION:Room 4\\, Building B\\nBerlin\r
      SUMMARY:Quarterly review: numbers\\, plans & next steps for the whole team an\r
       d the board\r
      END:VEVENT\r
      END:VCALENDAR\r
      --a--\r
      --m\r
      Content-Type: application/ics; name="invite.ics"\r
      Content-Disposition: attachment; filename="invite.ics"\r
      \r
      BEGIN:VCALENDAR\r
      END:VCALENDAR\r
      --m--\r
      """;

  /**
   * The calendar of an invite as Exchange Online sends it from Outlook on the web: its times in a
   * Windows zone, {@code Pacific Standard Time}, for which it gives no VTIMEZONE.
   */
  static final String OUTLOOK_CALENDAR =
      """
      BEGIN:VCALENDAR\r
      METHOD:REQUEST\r
      PRODID:Microsoft Exchange Server 2010\r
      VERSION:2.0\r
      BEGIN:VEVENT\r
      ORGANIZER;CN=Ann Example:mailto:ann.example@contoso.com\r
      ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN=qa@burnbox.t\r
       est:mailto:qa@burnbox.test\r
      DESCRIPTION;LANGUAGE=en-US:Let's go over the new checkout design.\\n\r
      UID:040000008200E00074C5B7101A82E0080000000020A1C6E7A15BDB01000000000000000\r
       010000000C2D3E4F5A6B7C8D9E0F1A2B3C4D5E6F7\r
      SUMMARY;LANGUAGE=en-US:Design review\r
      DTSTART;TZID=Pacific Standard Time:20261201T090000\r
      DTEND;TZID=Pacific Standard Time:20261201T100000\r
      CLASS:PUBLIC\r
      PRIORITY:5\r
      DTSTAMP:20261123T160211Z\r
      TRANSP:OPAQUE\r
      STATUS:CONFIRMED\r
      SEQUENCE:0\r
      LOCATION;LANGUAGE=en-US:Conf Room 5 (Redmond)\r
      X-MICROSOFT-CDO-APPT-SEQUENCE:0\r
      X-MICROSOFT-CDO-BUSYSTATUS:TENTATIVE\r
      X-MICROSOFT-CDO-INTENDEDSTATUS:BUSY\r
      X-MICROSOFT-CDO-ALLDAYEVENT:FALSE\r
      X-MICROSOFT-CDO-IMPORTANCE:1\r
      X-MICROSOFT-CDO-INSTTYPE:0\r
      X-MICROSOFT-DONOTFORWARDMEETING:FALSE\r
      X-MICROSOFT-DISALLOW-COUNTER:FALSE\r
      BEGIN:VALARM\r
      DESCRIPTION:REMINDER\r
      TRIGGER;RELATED=START:-PT15M\r
      ACTION:DISPLAY\r
      END:VALARM\r
      END:VEVENT\r
      END:VCALENDAR\r
      """;

  /** An Exchange Online invite: its text, and {@link #OUTLOOK_CALENDAR} in base64. */
  static final String OUTLOOK_INVITE =
      """
      From: Ann Example <ann.example@contoso.com>\r
      To: "qa@burnbox.test" <qa@burnbox.test>\r
      Subject: Design review\r
      Thread-Topic: Design review\r
      Date: Mon, 23 Nov 2026 16:02:11 +0000\r
      Message-ID: <MW4PR11MB5872A1B2C3D4E5F6A7B8C9D0E1F2A@MW4PR11MB5872.namprd11.prod.outlook.com>\r
      Accept-Language: en-US\r
      Content-Language: en-US\r
      X-MS-Has-Attach:\r
      X-MS-TNEF-Correlator:\r
      MIME-Version: 1.0\r
      Content-Type: multipart/alternative;\r
      \tboundary="_000_MW4PR11MB5872A1B2C3D4E5F6A7B8C9D0E1F2AMW4PR11MB5872namp_"\r
      \r
      --_000_MW4PR11MB5872A1B2C3D4E5F6A7B8C9D0E1F2AMW4PR11MB5872namp_\r
      Content-Type: text/plain; charset="us-ascii"\r
      Content-Transfer-Encoding: quoted-printable\r
      \r
      Let's go over the new checkout design.\r
      \r
      --_000_MW4PR11MB5872A1B2C3D4E5F6A7B8C9D0E1F2AMW4PR11MB5872namp_\r
      Content-Type: text/calendar; charset="utf-8"; method=REQUEST\r
      Content-Transfer-Encoding: base64\r
      \r
      %s\r
      \r
      --_000_MW4PR11MB5872A1B2C3D4E5F6A7B8C9D0E1F2AMW4PR11MB5872namp_--\r
      """
          .formatted(
              Base64.getMimeEncoder()
                  .encodeToString(OUTLOOK_CALENDAR.getBytes(StandardCharsets.UTF_8)));

  /**
   * A meeting invite showed only the mail's text and an attachment. Its event now shows in a box
   * above the mail: title, times in UTC marked up as the received time is (page.js shows them in
   * the reader's zone) with the invite's zone beside them, place and organizer; the calendar parts
   * stay downloads.
   */
  @Test
  void anInviteShowsItsEventAboveTheMailWithItsTimesInUtc() throws Exception {
    MessageId id = web.deliver("qa", GOOGLE_INVITE);
    Element page = Jsoup.parse(web.get("/message/" + id).body()).body();

    assertThat(page.select("section#invitation, section#html, .text-view").eachAttr("class"))
        .containsExactly("invitation", "html-view", "text-view");
    Element invitation = page.selectFirst("section#invitation");
    assertThat(invitation.selectFirst("h2").text()).isEqualTo("Invitation");
    assertThat(invitation.select("dt").eachText())
        .containsExactly("Event", "When", "Where", "Organizer");
    assertThat(invitation.selectFirst("dd.summary").text())
        .isEqualTo(
            "Quarterly review: numbers, plans & next steps for the whole team and the board");
    assertThat(invitation.selectFirst("dd.when").html())
        .isEqualTo(
            "<time class=\"exact\" datetime=\"2026-03-16T09:00:00Z\" title=\"2026-03-16 09:00 UTC\">"
                + "2026-03-16 09:00 UTC</time> to <time class=\"exact\" datetime=\"2026-03-16T10:00:00Z\""
                + " title=\"2026-03-16 10:00 UTC\">2026-03-16 10:00 UTC</time> <span class=\"zone\">"
                + "(the invite's time zone: <bdi>Europe/Berlin</bdi>)</span>");
    assertThat(invitation.selectFirst("dd.location").wholeText())
        .isEqualTo("Room 4, Building B\nBerlin");
    assertThat(invitation.selectFirst("dd.organizer").text())
        .isEqualTo("Ann Example <ann@example.com>");
    assertThat(page.select("section.attachments a[download]").eachText())
        .containsExactly("attachment-0.ics", "invite.ics");

    MessageId plain = web.deliver("qa", WebApiTest.MULTIPART);
    assertThat(web.get("/message/" + plain).body()).doesNotContain("invitation");
  }

  /**
   * An Outlook invite in a Windows zone it gives no VTIMEZONE for showed its time "not known here".
   * The page now shows the moment (09:00 PST is 17:00 UTC) with the zone the invite named.
   */
  @Test
  void anOutlookInviteInAWindowsZoneShowsItsTimesInUtc() throws Exception {
    MessageId id = web.deliver("qa", OUTLOOK_INVITE);
    Element invitation =
        Jsoup.parse(web.get("/message/" + id).body()).body().selectFirst("section#invitation");

    assertThat(invitation.selectFirst("dd.summary").text()).isEqualTo("Design review");
    assertThat(invitation.selectFirst("dd.when").html())
        .isEqualTo(
            "<time class=\"exact\" datetime=\"2026-12-01T17:00:00Z\" title=\"2026-12-01 17:00 UTC\">"
                + "2026-12-01 17:00 UTC</time> to <time class=\"exact\" datetime=\"2026-12-01T18:00:00Z\""
                + " title=\"2026-12-01 18:00 UTC\">2026-12-01 18:00 UTC</time> <span class=\"zone\">"
                + "(the invite's time zone: <bdi>Pacific Standard Time</bdi>)</span>");
    assertThat(invitation.selectFirst("dd.location").text()).isEqualTo("Conf Room 5 (Redmond)");
  }

  /**
   * Repeating events of Google Calendar (weekly on two days, 10 times), Outlook (every two weeks
   * until a date, written in UTC: 02:00 UTC on 2 March is 18:00 on 1 March in Redmond) and a rule
   * the reader does not describe (the 15th of each month), and one that does not repeat.
   */
  static final String REPEATING_CALENDAR =
      """
      BEGIN:VCALENDAR\r
      METHOD:REQUEST\r
      BEGIN:VEVENT\r
      SUMMARY:Standup\r
      DTSTART;TZID=Europe/Berlin:20261130T093000\r
      RRULE:FREQ=WEEKLY;WKST=MO;COUNT=10;BYDAY=MO,WE\r
      END:VEVENT\r
      BEGIN:VEVENT\r
      SUMMARY;LANGUAGE=en-US:Design review\r
      DTSTART;TZID=Pacific Standard Time:20261130T180000\r
      RRULE:FREQ=WEEKLY;UNTIL=20270302T020000Z;INTERVAL=2;BYDAY=MO;WKST=SU\r
      END:VEVENT\r
      BEGIN:VEVENT\r
      SUMMARY:Invoices\r
      DTSTART:20261215T080000Z\r
      RRULE:FREQ=MONTHLY;BYMONTHDAY=15\r
      END:VEVENT\r
      BEGIN:VEVENT\r
      SUMMARY:Launch\r
      DTSTART:20261201T080000Z\r
      END:VEVENT\r
      END:VCALENDAR\r
      """;

  /**
   * A repeating event showed its first time only, with no sign that it repeats. The invitation box
   * now says how it repeats, or just "Repeats" where the reader does not understand the rule.
   */
  @Test
  void aRepeatingEventSaysHowItRepeats() throws Exception {
    MessageId id =
        web.deliver(
            "qa",
            "Subject: Series\r\nContent-Type: text/calendar; method=REQUEST\r\n\r\n"
                + REPEATING_CALENDAR);
    Element invitation =
        Jsoup.parse(web.get("/message/" + id).body()).body().selectFirst("section#invitation");

    assertThat(invitation.select("dl.event").get(0).select("dt").eachText())
        .containsExactly("Event", "When", "Repeats");
    assertThat(invitation.select("dl.event").stream().map(e -> e.select("dd.repeats").text()))
        .containsExactly(
            "Weekly on Monday and Wednesday, 10 times",
            "Every 2 weeks on Monday until 2027-03-01",
            "Repeats",
            "");
  }

  /**
   * A cancellation is headed so; an all-day event shows its days (iCalendar's end is the day after
   * the last), a time without a zone or in a zone not known shows as written, saying so.
   */
  @Test
  void aCancellationIsHeadedSoAndTimesWithoutAKnownZoneShowAsWritten() throws Exception {
    String calendar =
        """
        BEGIN:VCALENDAR\r
        METHOD:CANCEL\r
        BEGIN:VEVENT\r
        SUMMARY:Offsite\r
        DTSTART;VALUE=DATE:20260402\r
        DTEND;VALUE=DATE:20260404\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        SUMMARY:Stretch\r
        DTSTART:20260405T090000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        DTSTART;TZID=Mars/Olympus_Mons:20260316T100000\r
        DTEND:garbage\r
        END:VEVENT\r
        END:VCALENDAR\r
        """;
    MessageId id =
        web.deliver(
            "qa",
            "Subject: Canceled: Offsite\r\nContent-Type: text/calendar; method=CANCEL\r\n\r\n"
                + calendar);
    Element invitation =
        Jsoup.parse(web.get("/message/" + id).body()).body().selectFirst("section#invitation");

    assertThat(invitation.selectFirst("h2").text()).isEqualTo("Cancelled event");
    assertThat(invitation.select("dd.summary").eachText())
        .containsExactly("Offsite", "Stretch", "(no title)");
    assertThat(invitation.select("dd.when").eachText())
        .containsExactly(
            "2026-04-02 to 2026-04-03, all day",
            "2026-04-05 09:00 (local time: the invite names no time zone)",
            "2026-03-16 10:00 (time zone Mars/Olympus_Mons, not known here)");
    assertThat(invitation.select("time")).isEmpty(); // no moment for page.js to place
  }

  /** Every value an invite gives is text on the page, never markup, and keeps its direction. */
  @Test
  void everyValueOfAnInviteIsEscaped() throws Exception {
    String calendar =
        """
        BEGIN:VCALENDAR\r
        METHOD:REQUEST\r
        BEGIN:VEVENT\r
        SUMMARY:<script>alert(1)</script>\u202Egpj.exe\r
        LOCATION:<img src=x onerror=alert(2)>\r
        ORGANIZER;CN="<b>Eve</b>":mailto:"><script>alert(3)</script>\r
        DTSTART;TZID="<i>Zone</i>":20260316T100000\r
        END:VEVENT\r
        END:VCALENDAR\r
        """;
    MessageId id =
        web.deliver(
            "qa",
            "Subject: Invite\r\nContent-Type: text/calendar; method=REQUEST\r\n\r\n" + calendar);
    String body = web.get("/message/" + id).body();

    assertThat(body)
        .doesNotContain("<script>alert", "<img src=x", "<b>Eve", "<i>Zone", "\u202E")
        .contains("<bdi>&lt;script&gt;alert(1)&lt;/script&gt;gpj.exe</bdi>")
        .contains("<bdi>&lt;img src=x onerror=alert(2)&gt;</bdi>")
        .contains(
            "<bdi>&lt;b&gt;Eve&lt;/b&gt; &lt;&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;&gt;</bdi>")
        .contains("(time zone <bdi>&lt;i&gt;Zone&lt;/i&gt;</bdi>, not known here)");
  }

  /**
   * The sanitizer removed tel: links and in-mail anchor links with their targets. A phone number
   * now opens like any link; a link to an anchor stays in the view; other hrefs stay dropped.
   */
  @Test
  void theMailViewKeepsPhoneLinksAndLinksToItsOwnAnchors() throws Exception {
    String html =
        """
        <p><a href="#sec2">Jump</a> <a href="tel:+1 (555) 010-0199">Call</a>
        <a href="tel:javascript:alert(1)">bad</a> <a href="#a b">bad</a>
        <a href="/inbox/eve#x">bad</a></p>
        <h2 id="sec2">Section 2</h2><a name="old-style">here</a>
        <p id="a&quot;b">quote</p>
        """;
    MessageId id =
        web.deliver(
            "eve",
            "From: ann@example.test\r\nSubject: Anchors\r\nContent-Type: text/html\r\n\r\n" + html);
    String view = web.get("/message/" + id + "/html").body();
    Element jump = Jsoup.parse(view).selectFirst("a:contains(Jump)");
    assertThat(jump.attr("href")).isEqualTo("#sec2");
    assertThat(jump.hasAttr("target")).isFalse();
    Element call = Jsoup.parse(view).selectFirst("a:contains(Call)");
    assertThat(call.attr("href")).isEqualTo("tel:+1%20%28555%29%20010-0199");
    assertThat(call.attr("target")).isEqualTo("_blank");
    assertThat(call.attr("rel").split(" ")).contains("noopener", "noreferrer", "nofollow");
    assertThat(view)
        .contains("<h2 id=\"sec2\">Section 2</h2>")
        .contains("<a name=\"old-style\">here</a>")
        .contains("<p>quote</p>")
        .doesNotContain("javascript", "#a b", "/inbox/eve");
  }

  @Test
  void theMessagePageMarksSpamTermsInSubjectAndTextAndExplainsTheVerdict() throws Exception {
    String raw =
        WebFixture.textMail(
            "<script>VIAGRA</script>",
            "<script>alert('v1agra')</script> casino </pre><b>casino</b>");
    MessageId id = web.deliverScanned("eve", raw);
    String body = web.get("/message/" + id).body();
    assertThat(body)
        .contains(
            "<h1 class=\"subject\"><bdi>&lt;script&gt;<mark title=\"viagra +1.00\">VIAGRA</mark>"
                + "&lt;/script&gt;</bdi></h1>")
        .contains(
            "<pre class=\"text\" dir=\"auto\">&lt;script&gt;alert(&apos;"
                + "<mark title=\"viagra +1.00\">v1agra"
                + "</mark>&apos;)&lt;/script&gt; <mark title=\"casino +1.00\">casino</mark>"
                + " &lt;/pre&gt;&lt;b&gt;<mark title=\"casino +1.00\">casino</mark>&lt;/b&gt;")
        .doesNotContain("<script>alert", "<b>casino")
        // viagra 2, casino 2: score -5 + 4 = -1, not spam
        .contains("<dt>Spam</dt><dd> <span class=\"spam quiet\" title=\"viagra, casino")
        .contains("<section class=\"why\" id=\"why\"")
        .contains("<strong>Not spam</strong>: probability <span class=\"probability\">27%</span>")
        .contains("spam from <span class=\"threshold\">50%</span>");
    assertThat(web.get("/inbox/eve").body())
        .contains(
            "<span class=\"spam quiet\" title=\"viagra, casino (score -1.00)\"><span"
                + " class=\"visually-hidden\">not spam, spam probability </span>27%</span>");
  }

  /**
   * Why a row was flagged as spam was only in its badge's tooltip, which touch screens and most
   * readers never see. A spam row now shows the verdict's terms (at most five, escaped) beside its
   * badge, read out after it; a row that is not spam shows none.
   */
  @Test
  void aSpamRowShowsItsTermsBesideTheBadge() throws Exception {
    List<String> terms = List.of("<b>prize</b>", "casino", "win", "free", "now", "sixth");
    MessageId spam = web.deliver("eve", WebFixture.textMail("Win", "x"), ofScore(terms, 3));
    MessageId quiet = web.deliver("eve", WebFixture.textMail("Hi", "x"), ofScore(terms, -3));
    String page = web.get("/inbox/eve").body();
    assertThat(page).doesNotContain("<b>prize");
    Element spamRow = Jsoup.parse(page).selectFirst("li[data-id='" + spam + "'] .spam-line");
    assertThat(spamRow.selectFirst(".spam").text()).isEqualTo("spam, probability 95%");
    assertThat(spamRow.selectFirst(".spam-terms").html())
        .isEqualTo(
            "<span class=\"visually-hidden\">for the words </span>"
                + "&lt;b&gt;prize&lt;/b&gt;, casino, win, free, now");
    Element quietRow = Jsoup.parse(page).selectFirst("li[data-id='" + quiet + "'] .spam-line");
    assertThat(quietRow.selectFirst(".spam").text()).isEqualTo("not spam, spam probability 5%");
    assertThat(quietRow.select(".spam-terms")).isEmpty();
  }

  /**
   * A bidirectional override in an attachment's name showed "invoice", U+202E, "fdp.exe" as
   * "invoiceexe.pdf" and reversed the text after the link. The page shows the name the download
   * gets, and no sender text on the pages keeps such a control: each piece is stripped of them and
   * isolated from the text around it.
   */
  @Test
  void senderTextLosesItsBidiControlsAndIsIsolatedFromTheTextAroundIt() throws Exception {
    String raw =
        """
        From: =?UTF-8?Q?Pay_=E2=80=AEmoc.lapyap?= <x@example.test>\r
        To: eve@burnbox.test\r
        Subject: =?UTF-8?Q?Your_order_=E2=80=AEgnp.exe?=\r
        X-Note: left \u202Ethgir\r
        MIME-Version: 1.0\r
        Content-Type: multipart/mixed; boundary="b1"\r
        \r
        --b1\r
        Content-Type: text/plain; charset=utf-8\r
        \r
        See the invoice.\r
        --b1\r
        Content-Type: application/pdf\r
        Content-Disposition: attachment; filename*=UTF-8''invoice%E2%80%AEfdp.exe\r
        Content-Transfer-Encoding: base64\r
        \r
        JVBERi0xLjQK\r
        --b1--\r
        """;
    MessageId id = web.deliver("eve", raw);
    String page = web.get("/message/" + id).body();
    assertThat(page)
        .doesNotContain("\u202E")
        .contains("<title>Your order gnp.exe · Burnbox</title>")
        .contains("<h1 class=\"subject\"><bdi>Your order gnp.exe</bdi></h1>")
        .contains("<dd class=\"from\"><bdi>Pay moc.lapyap &lt;x@example.test&gt;</bdi></dd>")
        .contains("<th scope=\"row\"><bdi>X-Note</bdi></th><td><bdi>left thgir</bdi></td>")
        .contains(
            "download><bdi>invoicefdp.exe</bdi></a>"
                + " <span class=\"type\"><bdi>application/pdf</bdi>, 9 bytes</span>");
    assertThat(web.get("/inbox/eve").body())
        .doesNotContain("\u202E")
        .contains("<span class=\"from\"><bdi>Pay moc.lapyap &lt;x@example.test&gt;</bdi></span>")
        .contains("<span class=\"subject\"><bdi>Your order gnp.exe</bdi></span>");
  }

  /** A bounce has no From and the null envelope sender: its sender is shown as unknown. */
  @Test
  void aMessageWithoutFromOrEnvelopeSenderIsFromAnUnknownSender() throws Exception {
    MessageId id = web.deliver("", "eve", BOUNCE, SpamVerdict.CLEAN);
    assertThat(web.get("/inbox/eve").body())
        .contains("<span class=\"from\"><bdi>(unknown sender)</bdi></span>");
    assertThat(web.get("/message/" + id).body())
        .contains("<dd class=\"from\"><bdi>(unknown sender)</bdi></dd>");
  }

  /** A bounce: no From header, and sent with the null envelope sender. */
  static final String BOUNCE =
      "To: eve@burnbox.test\r\nSubject: Undelivered Mail Returned to Sender\r\n\r\nx\r\n";

  /**
   * The pages say where to write: the home page any name at the first public domain, an inbox page
   * (empty or not) its addresses at the public domains, a private inbox its own address.
   */
  @Test
  void thePagesSayWhichAddressesToWriteTo() throws Exception {
    assertThat(web.get("/").body())
        .contains(
            "Send mail to <strong class=\"address\"><em>any name</em>@burnbox.test</strong>"
                + " (or @mail.test)");
    String firstAddress =
        "Mail to <strong class=\"address\"><bdi>eve@burnbox.test</bdi></strong>"
            + " <button type=\"button\" class=\"copy\" data-copy=\"eve@burnbox.test\"";
    assertThat(web.get("/inbox/eve").body())
        .contains(firstAddress)
        .contains("as does mail to <bdi>eve@mail.test</bdi>.</p>")
        .doesNotContain("eve@team.test");
    web.deliver("eve", WebFixture.textMail("hello", "x"));
    assertThat(web.get("/inbox/eve").body()).contains(firstAddress).contains("hello");
    HttpResponse<String> privateInbox =
        web.send(
            HttpRequest.newBuilder(URI.create(web.url("/inbox/bob@" + WebFixture.PRIVATE_DOMAIN)))
                .header("Authorization", "Bearer " + WebFixture.ADMIN_TOKEN)
                .build());
    assertThat(privateInbox.body())
        .contains("Mail to <strong class=\"address\"><bdi>bob@team.test</bdi></strong>")
        .doesNotContain("bob@burnbox.test");
  }

  /** The service shows the domains of its {@code --domains}, and without any, says so. */
  @Test
  void theServiceShowsTheAddressesOfItsDomainsOrAnyDomainWithoutThem() throws Exception {
    ServiceSettings withDomains =
        BurnboxExtension.testSettings().with("--domains=Mail.Example,other.example").build();
    try (BurnboxService service = BurnboxService.start(withDomains)) {
      String base = "http://127.0.0.1:" + service.httpPort();
      assertThat(web.send(HttpRequest.newBuilder(URI.create(base + "/")).build()).body())
          .contains("<em>any name</em>@mail.example</strong> (or @other.example)");
      assertThat(web.send(HttpRequest.newBuilder(URI.create(base + "/inbox/ann")).build()).body())
          .contains("<bdi>ann@mail.example</bdi></strong>")
          .contains("as does mail to <bdi>ann@other.example</bdi>.");
    }
    try (BurnboxService service = BurnboxService.start(BurnboxExtension.testSettings().build())) {
      String base = "http://127.0.0.1:" + service.httpPort();
      assertThat(web.send(HttpRequest.newBuilder(URI.create(base + "/inbox/ann")).build()).body())
          .contains(
              "Mail to <strong class=\"address\"><bdi>ann</bdi></strong> at any domain this"
                  + " server takes mail for lands here.");
    }
  }

  @Test
  void theHomeFormGoesToTheInboxTypedAsANameOrAnAddress() throws Exception {
    assertThat(web.get("/").body()).contains("<form class=\"open-inbox\" method=\"get\"");
    HttpResponse<String> byName = web.get("/inbox?name=+Alice+");
    assertThat(byName.statusCode()).isEqualTo(303);
    assertThat(byName.headers().firstValue("location")).hasValue("/inbox/alice");
    assertThat(web.get("/inbox?name=Bob%40burnbox.test").headers().firstValue("location"))
        .hasValue("/inbox/bob");
  }

  @Test
  void pageErrorsArePagesWithTheRightStatus() throws Exception {
    HttpResponse<String> badName = web.get("/inbox/a..b");
    assertThat(badName.statusCode()).isEqualTo(400);
    assertThat(badName.headers().firstValue("content-type").orElseThrow()).startsWith("text/html");
    assertThat(badName.body()).contains(MessagePages.NAME_RULE);
    HttpResponse<String> hostileName = web.get("/inbox?name=%3Cb%3Ex");
    assertThat(hostileName.statusCode()).isEqualTo(400);
    assertThat(hostileName.body()).doesNotContain("<b>");
    HttpResponse<String> unknown = web.get("/message/AAAAAAAAAAAAAAAAAAAAAA");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body()).contains("<h1>Not found</h1>");
    assertThat(web.get("/message/AAAAAAAAAAAAAAAAAAAAAA/html").statusCode()).isEqualTo(404);
  }

  /**
   * A name the rules refuse, typed in the form or in the address, gets the form again holding it,
   * with a sentence for people instead of the checker's "not U+0020 (index 1)"; the API keeps the
   * precise message.
   */
  @Test
  void aBadInboxNameGetsTheFormAgainSayingWhatNamesMayHold() throws Exception {
    HttpResponse<String> spaced = web.get("/inbox?name=a+b");
    assertThat(spaced.statusCode()).isEqualTo(400);
    assertThat(spaced.headers().firstValue("content-type").orElseThrow()).startsWith("text/html");
    assertThat(spaced.body())
        .contains("<form class=\"open-inbox\"")
        .contains("value=\"a b\" aria-invalid=\"true\" aria-describedby=\"name-error\"")
        .contains(
            "<p class=\"error\" id=\"name-error\">&ldquo;<bdi>a b</bdi>&rdquo; is not an inbox"
                + " name. "
                + MessagePages.NAME_RULE
                + "</p>")
        .doesNotContain("U+0020");
    HttpResponse<String> emoji = web.get("/inbox?name=emoji%F0%9F%98%80");
    assertThat(emoji.statusCode()).isEqualTo(400);
    assertThat(emoji.body())
        .contains("value=\"emoji\uD83D\uDE00\"")
        .contains(MessagePages.NAME_RULE)
        .doesNotContain("\\ud83d");
    HttpResponse<String> inPath = web.get("/inbox/a..b");
    assertThat(inPath.statusCode()).isEqualTo(400);
    assertThat(inPath.body()).contains("value=\"a..b\"", MessagePages.NAME_RULE);
    assertThat(web.get("/inbox?name=").body()).contains("Type the name of an inbox.");

    HttpResponse<String> api = web.get("/api/v1/inboxes/a%20b");
    assertThat(api.statusCode()).isEqualTo(400);
    assertThat(api.body()).contains("not U+0020 (index 1)");
  }

  @Test
  void theNameFieldTakesAnAddressAndSaysWhatNamesMayHold() throws Exception {
    assertThat(web.get("/").body())
        .contains("maxlength=\"318\"")
        .contains("pattern=\"" + Html.escape(MessagePages.NAME_PATTERN) + "\"")
        .contains("title=\"" + MessagePages.NAME_RULE + "\"");
  }

  /** A path no page has is a plain 404 page with a way home, not the router's message. */
  @Test
  void anUnknownPathIsAPlainNotFoundPageWithALinkHome() throws Exception {
    HttpResponse<String> page = web.get("/nope");
    assertThat(page.statusCode()).isEqualTo(404);
    assertThat(page.headers().firstValue("content-type").orElseThrow()).startsWith("text/html");
    assertThat(page.body())
        .contains("<h1>Not found</h1>")
        .contains("There is no page at /nope.")
        .contains("<a href=\"/\">Open an inbox</a>")
        .doesNotContain("Endpoint");
    HttpResponse<String> api = web.get("/api/v1/nope");
    assertThat(api.statusCode()).isEqualTo(404);
    assertThat(api.body()).startsWith("{\"error\":");
  }

  /** A form or a script that writes {@code cursor=} with nothing after it means the newest page. */
  @Test
  void anInboxPageWithAnEmptyCursorIsTheNewestPage() throws Exception {
    web.deliver("eve", WebFixture.textMail("newest", "x"));
    HttpResponse<String> page = web.get("/inbox/eve?cursor=");
    assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
    assertThat(page.body()).contains("newest").isEqualTo(web.get("/inbox/eve").body());
  }

  /**
   * The inbox page had no search (only the API had {@code ?q=}). Its search box finds what the API
   * finds, says when nothing matches, and links back to the whole inbox; the page is one inbox.js
   * keeps live mail out of, as an older page.
   */
  @Test
  void theInboxPageSearchesItsMailAsTheApiDoesAndSaysWhenNothingMatches() throws Exception {
    MessageId invoice = web.deliver("alice", WebFixture.textMail("Invoice 42", "Due: 10 EUR"));
    web.deliver("alice", WebFixture.textMail("Welcome", "Your code is 604112"));
    Element newest = Jsoup.parse(web.get("/inbox/alice").body()).body();
    assertThat(newest.selectFirst("form.search").attr("action")).isEqualTo("/inbox/alice");
    assertThat(newest.selectFirst("form.search input[name=q]").val()).isEmpty();
    assertThat(newest.selectFirst("section.inbox").hasAttr("data-older")).isFalse();

    Element found = Jsoup.parse(web.get("/inbox/alice?q=+DUE+").body()).body();
    assertThat(found.select("li.message").eachAttr("data-id")).containsExactly(invoice.value());
    assertThat(found.selectFirst("form.search input[name=q]").val()).isEqualTo("DUE");
    assertThat(found.selectFirst(".search-note").text()).isEqualTo("1 message matches “DUE”.");
    Element section = found.selectFirst("section.inbox");
    assertThat(section.attr("data-older")).isEqualTo("true");
    assertThat(section.attr("data-note")).isEqualTo("Search results.");
    assertThat(found.selectFirst("#live").text()).isEqualTo("Search results. Whole inbox");
    assertThat(found.select("#live a, nav.pages a.newest").eachAttr("href"))
        .containsExactly("/inbox/alice", "/inbox/alice");

    String nothing = web.get("/inbox/alice?q=%3Cb%3Enothing").body();
    assertThat(nothing).doesNotContain("<b>nothing").contains("value=\"&lt;b&gt;nothing\"");
    Element none = Jsoup.parse(nothing).body();
    assertThat(none.select("li.message")).isEmpty();
    assertThat(none.selectFirst("#empty").text()).isEqualTo("No mail matches “<b>nothing”.");
    assertThat(none.selectFirst("nav.pages a.newest").text()).isEqualTo("Whole inbox");
    assertThat(web.get("/inbox/alice?q=").body()).isEqualTo(web.get("/inbox/alice").body());
  }

  /**
   * A search page that fills up links to the older matches, as the API's {@code nextCursor}
   * continues a search: its look-ahead for one more match was read and thrown away before.
   */
  @Test
  void aFullSearchPageLinksToTheOlderMatches() throws Exception {
    try (WebFixture roomy = WebFixture.withInboxCap(4 * InboxApi.MAX_LIMIT)) {
      for (int i = 0; i < InboxApi.MAX_LIMIT + 3; i++) {
        roomy.deliver("found", WebFixture.textMail("cap " + i, "x"));
        roomy.deliver("found", WebFixture.textMail("other " + i, "x"));
      }
      Element first = Jsoup.parse(roomy.get("/inbox/found?q=cap").body()).body();
      assertThat(first.select("li.message")).hasSize(InboxApi.MAX_LIMIT);
      assertThat(first.select("nav.pages a").eachText())
          .containsExactly("Whole inbox", "Older matches");
      String older = first.selectFirst("a.older").attr("href");
      assertThat(older).startsWith("/inbox/found?q=cap&cursor=");
      Element rest = Jsoup.parse(roomy.get(older).body()).body();
      assertThat(rest.select("li.message .subject").eachText())
          .containsExactly("cap 2", "cap 1", "cap 0");
      assertThat(rest.select("nav.pages a").eachText()).containsExactly("Whole inbox");
    }
  }

  /**
   * An older page linked to still older mail but back to the newest only in its live note, which
   * inbox.js replaces while the stream is down. Its links at the end of the list now go both ways.
   */
  @Test
  void anOlderPageLinksToTheNewestMailBesideTheOlder() throws Exception {
    for (int i = 0; i < 2 * InboxApi.DEFAULT_LIMIT + 1; i++) {
      web.deliver("many", WebFixture.textMail("mail " + i, "x"));
    }
    Element first = Jsoup.parse(web.get("/inbox/many").body()).body();
    assertThat(first.select("nav.pages a").eachAttr("class")).containsExactly("older");
    Element second = Jsoup.parse(web.get(first.selectFirst("a.older").attr("href")).body()).body();
    assertThat(second.select("nav.pages a").eachText())
        .containsExactly("Newest mail", "Older mail");
    assertThat(second.selectFirst("nav.pages a.newest").attr("href")).isEqualTo("/inbox/many");
    Element last = Jsoup.parse(web.get(second.selectFirst("a.older").attr("href")).body()).body();
    assertThat(last.select("li.message")).hasSize(1);
    assertThat(last.select("nav.pages a").eachText()).containsExactly("Newest mail");
  }

  @Test
  void deletingFromThePageGoesBackToTheInbox() throws Exception {
    MessageId id = web.deliver("eve", WebFixture.textMail("bye", "x"));
    HttpResponse<String> page = web.get("/message/" + id);
    assertThat(page.body())
        .contains(
            "<details class=\"delete\"><summary class=\"button danger\">Delete</summary>\n"
                + "<form method=\"post\" action=\"/message/"
                + id
                + "/delete\">");
    // kept out of the browser's caches, so that Back after a delete does not show it again
    assertThat(page.headers().firstValue("cache-control")).hasValue("no-store");
    HttpResponse<String> response =
        web.send(
            HttpRequest.newBuilder(URI.create(web.url("/message/" + id + "/delete")))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
    assertThat(response.statusCode()).isEqualTo(303);
    assertThat(response.headers().firstValue("location")).hasValue("/inbox/eve");
    assertThat(web.store.get(id)).isEmpty();
  }

  @Test
  void agesAreShort() {
    Instant now = Instant.parse("2026-11-22T12:00:00Z");
    assertThat(MessagePages.age(now.minusSeconds(5), now)).isEqualTo("just now");
    assertThat(MessagePages.age(now.minusSeconds(125), now)).isEqualTo("2 min ago");
    assertThat(MessagePages.age(now.minusSeconds(3 * 3600 + 5), now)).isEqualTo("3 h ago");
    assertThat(MessagePages.age(now.minusSeconds(2 * 86400), now)).isEqualTo("2 d ago");
    assertThat(MessagePages.age(now.plusSeconds(30), now)).isEqualTo("just now");
  }

  @Test
  void staticFilesAreServedWithTheirTypes() throws Exception {
    HttpResponse<String> js = web.get("/static/inbox.js");
    assertThat(js.statusCode()).isEqualTo(200);
    assertThat(js.headers().firstValue("content-type").orElseThrow()).contains("javascript");
    assertThat(js.body()).contains("EventSource").doesNotContain("innerHTML");
    HttpResponse<String> pageJs = web.get("/static/page.js");
    assertThat(pageJs.headers().firstValue("content-type").orElseThrow()).contains("javascript");
    assertThat(pageJs.body()).contains("focus-inside").doesNotContain("innerHTML");
    assertThat(web.get("/static/burnbox.css").headers().firstValue("content-type").orElseThrow())
        .startsWith("text/css");
    assertThat(web.get("/static/../web/openapi.json").statusCode()).isEqualTo(404);
    assertThat(web.get("/static/none.js").statusCode()).isEqualTo(404);
  }

  @Test
  void everyPageLinksTheIconAndTheIconIsServed() throws Exception {
    assertThat(web.get("/").body())
        .contains("<link rel=\"icon\" href=\"/static/favicon.svg\" type=\"image/svg+xml\">");
    for (String path : new String[] {"/static/favicon.svg", "/favicon.ico"}) {
      HttpResponse<String> icon = web.get(path);
      assertThat(icon.statusCode()).as(path).isEqualTo(200);
      assertThat(icon.headers().firstValue("content-type")).as(path).hasValue("image/svg+xml");
      assertThat(icon.body()).as(path).startsWith("<svg");
    }
  }

  @Test
  void inboxesAndMessagesAreKeptOutOfSearchEngines() throws Exception {
    HttpResponse<String> robots = web.get("/robots.txt");
    assertThat(robots.statusCode()).isEqualTo(200);
    assertThat(robots.headers().firstValue("content-type").orElseThrow()).startsWith("text/plain");
    assertThat(robots.body())
        .contains("User-agent: *")
        .contains("Disallow: /inbox\n")
        .contains("Disallow: /message/\n");
    MessageId id = web.deliver("eve", WebApiTest.MULTIPART);
    for (String path : new String[] {"/inbox/eve", "/message/" + id, "/message/" + id + "/html"}) {
      assertThat(web.get(path).headers().firstValue("x-robots-tag"))
          .as(path)
          .hasValue("noindex, nofollow");
    }
    assertThat(web.get("/").headers().firstValue("x-robots-tag")).as("the home page").isEmpty();
  }

  @Test
  void aMethodAPageDoesNotTakeIs405WithAnAllowHeader() throws Exception {
    HttpResponse<String> post =
        web.send(
            HttpRequest.newBuilder(URI.create(web.url("/inbox/bob")))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("allow")).hasValue("GET, HEAD");
    assertThat(post.body()).contains("<h1>Method not allowed</h1>");
    HttpResponse<String> get = web.get("/message/AAAAAAAAAAAAAAAAAAAAAA/delete");
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(get.headers().firstValue("allow")).hasValue("POST");
  }

  @Test
  void staticFilesAreRevalidatedByTheirETag() throws Exception {
    HttpResponse<String> css = web.get("/static/burnbox.css");
    assertThat(css.headers().firstValue("cache-control")).hasValue("max-age=0");
    String etag = css.headers().firstValue("etag").orElseThrow();
    HttpResponse<String> again =
        web.send(
            HttpRequest.newBuilder(URI.create(web.url("/static/burnbox.css")))
                .header("If-None-Match", etag)
                .build());
    assertThat(again.statusCode()).isEqualTo(304);
    assertThat(again.body()).isEmpty();
    assertThat(web.get("/static/inbox.js").headers().firstValue("etag")).isNotEqualTo(etag);
  }
}
