package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.mime.MailLinks;
import dev.burnbox.server.mime.TelLinks;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link MailHtmlSanitizer} on the hostile corpus and on ordinary mail layout. */
class WebSanitizerTest {
  private static final MailDecoder DECODER = MailDecoder.withDefaults();
  private final MailHtmlSanitizer sanitizer = new MailHtmlSanitizer();

  private String sanitizedHtmlOf(String file) {
    String raw = HostileCorpus.mail(file, "http://beacon.test");
    return sanitizer.sanitize(DECODER.decode(raw.getBytes(StandardCharsets.UTF_8)).html());
  }

  /**
   * The mail view keeps a {@code tel:} link exactly when the links API lists it, and calls the same
   * number: one rule ({@link TelLinks}) decides for both, however the mail writes the number.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "tel:+1 (555) 010-0199",
        "tel:+1%20%28555%29%20010-0199",
        "TEL:+44%2020%207946%200000",
        "Tel:1",
        "tel:1&#40;2",
        "tel:1&#x20;2",
        "tel:1%28",
        "tel:%20",
        "tel:..",
        "tel:+",
        " tel:123",
        "tel:123 ",
        "\u000btel:123",
        "tel:123\u000b",
        "tel:1\t2",
        "tel:1\n2",
        "tel:",
        "tel: ",
        "tel:javascript:alert(1)",
        "tel:+1%2B555",
        "tel:555;ext=1",
        "tel:1%2",
        "tel:1%2520",
        "tel:1%5B",
        "tel:1[2]",
        "tel:+1/2",
        "tel://123",
        "tel:1#2",
        "tel:1?2",
        "tel:1,2",
        "tel:*123#",
        "tel:1&amp;2",
        "tel:1\u00a02",
        "tel:\u0661\u0662",
        "tel:12\u3000",
        "tel:1%0a2",
      })
  void keepsATelLinkExactlyWhenTheLinksApiListsItWithTheSameNumber(String href) {
    String html = "<a href=\"" + href + "\">call</a>";
    Element kept = Jsoup.parseBodyFragment(sanitizer.sanitize(html)).selectFirst("a[href]");
    String mail = "Content-Type: text/html; charset=utf-8\r\n\r\n" + html + "\r\n";
    List<MailLinks.Link> listed =
        MailLinks.of(DECODER.decode(mail.getBytes(StandardCharsets.UTF_8)));

    String keptNumber = kept == null ? null : URI.create(kept.attr("href")).getSchemeSpecificPart();
    String listedNumber =
        listed.isEmpty() ? null : URI.create(listed.getFirst().url()).getSchemeSpecificPart();
    assertThat(keptNumber).as("number the mail view calls").isEqualTo(listedNumber);
  }

  /**
   * A link to a host with {@code _} (which browsers follow) stays in the mail view, and the links
   * API lists it with the same URL: the API dropped it.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://my_host.example.com/x",
        "https://_dmarc.example.com:8443/r?a=1&amp;b=2",
        "HTTPS://Under_Score.Example/",
      })
  void keepsALinkToAHostWithAnUnderscoreAsTheLinksApiListsIt(String href) {
    String html = "<a href=\"" + href + "\">go</a>";
    Element kept = Jsoup.parseBodyFragment(sanitizer.sanitize(html)).selectFirst("a[href]");
    String mail = "Content-Type: text/html; charset=utf-8\r\n\r\n" + html + "\r\n";
    List<MailLinks.Link> listed =
        MailLinks.of(DECODER.decode(mail.getBytes(StandardCharsets.UTF_8)));

    assertThat(kept).as("link kept by the mail view").isNotNull();
    assertThat(listed).extracting(MailLinks.Link::url).containsExactly(kept.attr("href"));
  }

  /** The message page offers "Show images" exactly where a browser would find a remote image. */
  @ParameterizedTest
  @FieldSource("dev.burnbox.server.web.HostileCorpus#FILES")
  void remoteImagesAreFoundWhereABrowserWouldLoadThem(String file) {
    String safe = sanitizedHtmlOf(file);
    boolean remote =
        Jsoup.parseBodyFragment(safe).select("img[src]").stream()
            .anyMatch(img -> img.attr("src").matches("(?i)https?://.*"));
    assertThat(MailHtmlSanitizer.hasRemoteImages(safe)).as(file).isEqualTo(remote);
  }

  @Test
  void remoteImagesAreFoundWhateverTheirAttributesOrder() {
    for (String html :
        List.of(
            "<img src=\"https://x.test/a.png\">",
            "<p>Hi <IMG SRC='HTTP://x.test/a.png' alt=x></p>",
            "<img alt=\"a > b\" width=1 src=\"http://x.test/a.png\">")) {
      assertThat(MailHtmlSanitizer.hasRemoteImages(sanitizer.sanitize(html))).as(html).isTrue();
    }
    for (String html :
        List.of(
            "<p>src=\"https://x.test/a.png\"</p>",
            "<img alt='src=\"https://x.test/a.png\"'>",
            "<a href=\"https://x.test/\">link</a>",
            "<img src=\"cid:logo@x.test\">")) {
      assertThat(MailHtmlSanitizer.hasRemoteImages(sanitizer.sanitize(html))).as(html).isFalse();
    }
  }

  @ParameterizedTest
  @FieldSource("dev.burnbox.server.web.HostileCorpus#FILES")
  void hostileMailKeepsNoActiveContent(String file) {
    String safe = sanitizedHtmlOf(file);
    String lower = safe.toLowerCase(Locale.ROOT);
    assertThat(lower)
        .doesNotContain(
            "<script",
            "javascript:",
            "vbscript:",
            "data:",
            "<iframe",
            "<frame",
            "<object",
            "<embed",
            "<svg",
            "<math",
            "<style",
            "<link",
            "<meta",
            "<base",
            "<form",
            "<portal",
            "srcdoc");
    for (Element element : Jsoup.parseBodyFragment(safe).getAllElements()) {
      for (Attribute attribute : element.attributes()) {
        assertThat(attribute.getKey()).as(file).doesNotStartWith("on");
        if (attribute.getKey().equals("style")) {
          assertThat(attribute.getValue().toLowerCase(Locale.ROOT))
              .as(file)
              .doesNotContain("url", "expression", "behavior", "binding", "position", "\\");
        }
        if (attribute.getKey().equals("href") || attribute.getKey().equals("src")) {
          assertThat(attribute.getValue()).as(file).matches("(?i)(https?|mailto):.*");
        }
      }
    }
    // nothing that would call the beacon remains except ordinary images and links
    for (Element element : Jsoup.parseBodyFragment(safe).select("[src*=beacon.test]")) {
      assertThat(element.tagName()).as(file).isEqualTo("img");
    }
  }

  @Test
  void aCidImageBecomesTheUrlOfTheInlinePartItNamesAndOthersAreDropped() {
    String safe =
        sanitizer.sanitize(
            "<img alt=a src=\"cid:logo@x\"><img alt=b src=\"CID:%3Clogo@x\">"
                + "<img alt=c src=\"cid:chart%40x\"><img alt=d src=\"cid:nothing@x\">"
                + "<img alt=e src=\"/message/m/inline/0\"><img alt=f src=\"https://x.test/i.png\">",
            Map.of("logo@x", "/message/m/inline/0", "chart@x", "/message/m/inline/3"));
    Element body = Jsoup.parseBodyFragment(safe).body();
    assertThat(body.select("img").eachAttr("src"))
        .containsExactly("/message/m/inline/0", "/message/m/inline/3", "https://x.test/i.png");
    assertThat(body.selectFirst("img[src$=inline/0]").attr("alt")).isEqualTo("a");
  }

  @Test
  void withoutInlinePartsEveryCidImageIsDropped() {
    assertThat(sanitizer.sanitize("<img src=\"cid:logo@x\" alt=\"logo\">")).doesNotContain("src");
  }

  @Test
  void scriptsAndHandlersAreDroppedButTheTextStays() {
    String safe = sanitizedHtmlOf("02-event-handlers.eml");
    assertThat(safe).contains("hover me").contains("click");
    assertThat(safe).doesNotContain("alert").doesNotContain("fetch");
  }

  /** A browser drops tabs and line breaks inside a URL; the view turned them into %0a. */
  @Test
  void linksAndImagesLoseTheTabsAndLineBreaksInsideTheirUrls() {
    String safe =
        sanitizer.sanitize(
            "<a href=\"https://app.example/verify?\r\ntoken=abc&amp;user=ann\">go</a>"
                + "<img src=\"https://app.example/\tlogo.png\">");
    Element body = Jsoup.parseBodyFragment(safe).body();
    assertThat(body.selectFirst("a").attr("href"))
        .isEqualTo("https://app.example/verify?token=abc&user=ann");
    assertThat(body.selectFirst("img").attr("src")).isEqualTo("https://app.example/logo.png");
  }

  @Test
  void linksOpenInANewWindowWithoutReferrerOrOpener() {
    String safe = sanitizer.sanitize("<a href=\"https://example.test/x?a=1&b=2\">go</a>");
    Element link = Jsoup.parseBodyFragment(safe).selectFirst("a");
    assertThat(link.attr("href")).isEqualTo("https://example.test/x?a=1&b=2");
    assertThat(link.attr("target")).isEqualTo("_blank");
    assertThat(link.attr("rel")).contains("noopener", "noreferrer", "nofollow");
  }

  // found by MailHtmlSanitizerFuzzTest: these resolve against the inbox page's own URL
  @ParameterizedTest
  @ValueSource(strings = {"http:evil", "https:/inbox/other", "HTTPS:x", "https:<b>//x.test"})
  void httpUrlsWithoutAHostAreDropped(String url) {
    String safe =
        sanitizer.sanitize("<a href=\"" + url + "\">go</a><img src=\"" + url + "\" alt=\"i\">");
    Element body = Jsoup.parseBodyFragment(safe).body();
    assertThat(body.select("[href], [src]")).as(safe).isEmpty();
    assertThat(body.text()).isEqualTo("go");
  }

  @Test
  void mailLayoutSurvives() {
    String safe =
        sanitizer.sanitize(
            "<table width=\"600\" cellpadding=\"4\" bgcolor=\"#eeeeee\"><tr><td align=\"center\""
                + " style=\"color: #333; font-weight: bold; padding: 4px\"><font color=\"red\">"
                + "Sale</font> <img src=\"https://img.example.test/a.png\" alt=\"logo\""
                + " width=\"20\"></td></tr></table>");
    assertThat(safe)
        .contains("<table width=\"600\" cellpadding=\"4\" bgcolor=\"#eeeeee\">")
        .contains("align=\"center\"")
        .contains("color:#333")
        .contains("font-weight:bold")
        .contains("<font color=\"red\">Sale</font>")
        .contains("src=\"https://img.example.test/a.png\"");
  }

  @Test
  void emptyStaysEmpty() {
    assertThat(sanitizer.sanitize("")).isEmpty();
  }
}
