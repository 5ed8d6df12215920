package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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

  /**
   * A sender's worst case: elements nested thousands deep and many descendant rules took 5.4 s a
   * view (5,000 deep, 100 rules). Past the bound the descendant rules are left out and the simple
   * ones still apply; on the old code this runs for minutes, so the guard turns a hang into a
   * failure (it asserts no speed).
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void deeplyNestedMailWithManyDescendantRulesGetsOnlyItsSimpleRules() {
    StringBuilder html = new StringBuilder("<html><head><style>");
    for (int i = 0; i < StyleInliner.MAX_RULES - 1; i++) {
      html.append(".x").append(i).append(" .y").append(i).append(" .z { color: red }\n");
    }
    html.append(".z { font-weight: bold }</style></head><body>");
    int depth = StyleInliner.MAX_ELEMENTS - 10;
    html.append("<div class=z>".repeat(depth)).append("</div>".repeat(depth));
    String inlined = StyleInliner.inline(html.append("</body></html>").toString());
    Element innermost = Jsoup.parse(inlined).select("div.z").last();
    assertThat(innermost.attr("style")).isEqualTo("font-weight: bold;");
  }

  /** Style text read in one pass however it is written: no semicolons, unclosed comments. */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void styleTextThatRepeatsItselfIsReadInOnePass() {
    String css =
        "@a{}".repeat(StyleInliner.MAX_STYLE_CHARS / 4) + "/*".repeat(50_000) + " p { color: red }";
    String inlined = StyleInliner.inline("<style>" + css + "</style><p>x</p>");
    assertThat(first(inlined, "p").attr("style")).isEmpty(); // past the chars read, in a comment
    String later = StyleInliner.inline("<style>/* a */ p { color: red } /* b</style><p>x</p>");
    assertThat(first(later, "p").attr("style")).isEqualTo("color: red;");
  }

  /**
   * A newsletter's background and font set on {@code body} (or {@code html}) outlive the body,
   * which the sanitizer drops: they style a block wrapping the mail's content, html's first, then
   * body's, the body's own {@code style} last, and still filtered.
   */
  @Test
  void bodyAndHtmlRulesStyleABlockWrappingTheMail() {
    String mail =
        """
        <html><head><style>
        html { color: #333333 }
        body { background-color: #f4f4f4; font-family: Georgia; color: #111111;
               background-image: url("https://tracker.test/bg.png") }
        p { margin: 0 }
        </style></head>
        <body style="font-family: Arial"><p>Hello</p><table><tr><td>cell</td></tr></table></body>
        </html>
        """;
    Element wrapper = Jsoup.parse(StyleInliner.inline(mail)).body().child(0);
    assertThat(wrapper.tagName()).isEqualTo("div");
    assertThat(wrapper.attr("style"))
        .isEqualTo(
            "color: #333333; background-color: #f4f4f4; font-family: Georgia; color: #111111;"
                + " background-image: url(\"https://tracker.test/bg.png\"); font-family: Arial");
    assertThat(wrapper.select("> p, > table")).hasSize(2);

    Element safe = Jsoup.parse(new MailHtmlSanitizer().sanitize(mail)).body().child(0);
    assertThat(safe.tagName()).isEqualTo("div");
    assertThat(safe.attr("style"))
        .contains("background-color:#f4f4f4", "color:#111111", "font-family:'arial'")
        .doesNotContain("url", "tracker");
    assertThat(safe.selectFirst("p").attr("style")).isEqualTo("margin:0");
  }

  /**
   * A dark newsletter that sets its colours on {@code body} itself lost the background and kept its
   * white text: white on the view's white page. The body's colours and style now style the wrapper
   * too, filtered as any style is, and its link colour its links.
   */
  @Test
  void theBodysOwnColoursAndStyleStyleTheWrapperToo() {
    String legacy =
        "<html><body bgcolor=\"#000000\" text=\"#ffffff\" link=\"ffcc00\">"
            + "<font color=\"#ffffff\">Dark</font> <a href=\"https://x.test/\">read</a>"
            + " <a href=\"https://x.test/\" style=\"color: red\">own</a></body></html>";
    Element safe = Jsoup.parse(new MailHtmlSanitizer().sanitize(legacy)).body().child(0);
    assertThat(safe.tagName()).isEqualTo("div");
    assertThat(safe.attr("style")).isEqualTo("background-color:#000000;color:#ffffff");
    // a link's own colour comes after the body's: it wins
    assertThat(safe.select("a").eachAttr("style"))
        .containsExactly("color:#ffcc00", "color:#ffcc00;color:red");
    assertThat(safe.selectFirst("font").text()).isEqualTo("Dark");

    String styled = "<body style=\"background: #000; color: #eeeeee\"><p>Dark</p></body>";
    Element wrapper = Jsoup.parse(new MailHtmlSanitizer().sanitize(styled)).body().child(0);
    assertThat(wrapper.attr("style")).isEqualTo("background:#000;color:#eeeeee");

    String hostile =
        "<body bgcolor=\"red;position:fixed\" text=\"expression(alert(1))\""
            + " style=\"background-image: url(https://tracker.test/bg.png); color: white\">x</body>";
    String cleaned = new MailHtmlSanitizer().sanitize(hostile);
    assertThat(Jsoup.parse(cleaned).body().child(0).attr("style")).isEqualTo("color:white");
    assertThat(cleaned).doesNotContain("tracker", "position", "expression");
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
