package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/** {@link StyleInliner} alone, and followed by {@link MailHtmlSanitizer} as the mail view does. */
class StyleInlinerTest {
  private static final String NEWSLETTER =
      """
      <html><head><style type="text/css">
      /* brand */
      @import url("https://tracker.test/a.css");
      @media (max-width: 600px) { .title { color: purple } }
      @font-face { font-family: X; src: url("https://tracker.test/x.woff") }
      p.title, h1 { color: green; font-weight: bold }
      .title { color: red; font-size: 20px }
      #main .title { color: blue }
      td a { text-decoration: none }
      a:hover { color: orange }
      .note { background: url("https://tracker.test/bg.png"); color: gray }
      </style></head>
      <body><div id="main"><p class="title" style="font-size: 12px">Hello</p></div>
      <p class="title">Other</p><h1>Head</h1>
      <table><tr><td><a href="https://x.test">link</a></td></tr></table>
      <span class="note">note</span></body></html>
      """;

  private static Element first(String html, String selector) {
    return Jsoup.parse(html).selectFirst(selector);
  }

  @Test
  void rulesApplyBySpecificityThenOrderAndTheElementsOwnStyleWins() {
    String inlined = StyleInliner.inline(NEWSLETTER);
    assertThat(first(inlined, "#main p").attr("style"))
        .isEqualTo("color: blue; font-size: 20px; font-weight: bold; font-size: 12px");
    assertThat(first(inlined, "body > p").attr("style"))
        .isEqualTo("color: green; font-size: 20px; font-weight: bold;");
    assertThat(first(inlined, "h1").attr("style")).isEqualTo("color: green; font-weight: bold;");
    assertThat(first(inlined, "td a").attr("style")).isEqualTo("text-decoration: none;");
    assertThat(inlined).doesNotContain("<style", "purple", "tracker.test/a.css", "orange");
  }

  @Test
  void withoutAStyleBlockTheHtmlIsLeftAsItIs() {
    String html = "<p class=x>as <b>is</b>";
    assertThat(StyleInliner.inline(html)).isSameAs(html);
  }

  @Test
  void theSanitizerStillFiltersInlinedDeclarations() {
    String safe = new MailHtmlSanitizer().sanitize(NEWSLETTER);
    Element note = first(safe, "span");
    assertThat(note.attr("style")).contains("color:gray").doesNotContain("url", "tracker");
    assertThat(first(safe, "h1").attr("style")).contains("color:green", "font-weight:bold");
    assertThat(safe).doesNotContain("tracker.test", "<style", "class=");
  }
}
