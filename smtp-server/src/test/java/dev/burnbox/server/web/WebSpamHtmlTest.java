package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.server.mime.DecodedMail.ScanParts;
import dev.burnbox.server.pipeline.SpamExplanation;
import dev.burnbox.server.pipeline.SpamExplanation.TermHit;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.server.pipeline.SpamScanner.Highlight;
import dev.burnbox.wordlists.SpamModel.Part;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.junit.jupiter.api.Test;

/**
 * {@link SpamHtml}: marks land on the characters the scanner matched, through its normalisation,
 * while everything from the mail stays escaped; the badge and the Why panel.
 */
class WebSpamHtmlTest {
  private final SpamScanner scanner = WebFixture.plainListScanner();

  @Test
  void hostileTextAroundAMatchedTermStaysEscapedWhileTheMarkLandsOnTheTerm() {
    String text = "<script>alert(\"v1agra\")</script> & VIAGRA</pre><b title='x'>";
    String html = SpamHtml.marked(text, scanner.highlight(text, Part.BODY));
    assertThat(html)
        .isEqualTo(
            "&lt;script&gt;alert(&quot;<mark title=\"viagra +1.00\">v1agra</mark>&quot;)"
                + "&lt;/script&gt; &amp; <mark title=\"viagra +1.00\">VIAGRA</mark>"
                + "&lt;/pre&gt;&lt;b title=&apos;x&apos;&gt;");
    // parsed as a browser would: the only elements are the marks, and the text is the mail's
    Document page = Jsoup.parseBodyFragment("<pre>" + html + "</pre>");
    assertThat(page.select("pre *")).extracting(Element::tagName).containsOnly("mark");
    assertThat(page.select("mark")).extracting(Element::text).containsExactly("v1agra", "VIAGRA");
    assertThat(page.selectFirst("pre").wholeText()).isEqualTo(text);
  }

  @Test
  void disguisedTermsAreMarkedExactlyAsWritten() {
    String text = "Try v.i.a.g.r.a, v\u0456agra (Cyrillic) or ＶＩＡＧＲＡ at the CAS1NO!";
    String html = SpamHtml.marked(text, scanner.highlight(text, Part.BODY));
    Document page = Jsoup.parseBodyFragment("<pre>" + html + "</pre>");
    assertThat(page.select("mark"))
        .extracting(Element::text)
        .containsExactly("v.i.a.g.r.a", "v\u0456agra", "ＶＩＡＧＲＡ", "CAS1NO");
    assertThat(page.selectFirst("pre").wholeText()).isEqualTo(text);
  }

  @Test
  void marksReproduceTheTextWhateverRangesTheyAreGiven() {
    String text = "a\uD83D\uDE00b <c> & d";
    List<Highlight> ranges =
        List.of(
            new Highlight(10, 99, -0.5, List.of("tail")), // past the end: clamped
            new Highlight(2, 4, 1.0, List.of("emoji")), // splits the pair: widened to it
            new Highlight(0, 2, 0.25, List.of("a")), // overlaps the one above: merged
            new Highlight(5, 5, 3.0, List.of("empty"))); // empty: dropped
    String html = SpamHtml.marked(text, ranges);
    assertThat(html)
        .isEqualTo(
            "<mark title=\"a, emoji +1.25\">a\uD83D\uDE00b</mark> &lt;c&gt; &amp;"
                + "<mark class=\"ham\" title=\"tail -0.50\"> d</mark>");
    assertThat(Parser.unescapeEntities(html.replaceAll("<[^>]*>", ""), false)).isEqualTo(text);
    assertThat(SpamHtml.marked(text, List.of())).isEqualTo("a\uD83D\uDE00b &lt;c&gt; &amp; d");
  }

  /**
   * Loud for spam, quiet otherwise, terms on hover; a screen reader hears what the number is and
   * the verdict ("not spam, spam probability 12%"), which the eye gets from the badge's look.
   */
  @Test
  void theBadgeShowsTheProbabilityLoudForSpamQuietOtherwiseWithTermsOnHover() {
    assertThat(SpamHtml.badge(SpamVerdict.ofScore(List.of("iagr", "<b>"), 3.5)))
        .isEqualTo(
            " <span class=\"spam\" title=\"iagr, &lt;b&gt; (score +3.50)\">spam<span"
                + " class=\"visually-hidden\">, probability</span> 97%</span>");
    assertThat(SpamHtml.badge(SpamVerdict.ofScore(List.of("unsub"), -2)))
        .isEqualTo(
            " <span class=\"spam quiet\" title=\"unsub (score -2.00)\"><span"
                + " class=\"visually-hidden\">not spam, spam probability </span>12%</span>");
    assertThat(SpamHtml.badge(SpamVerdict.ofScore(List.of(), -6)))
        .isEqualTo(
            " <span class=\"spam quiet\" title=\"no spam terms (score -6.00)\"><span"
                + " class=\"visually-hidden\">not spam, spam probability </span>&lt;1%</span>");
    assertThat(SpamHtml.badge(SpamVerdict.CLEAN)).as("never scanned").isEmpty();
  }

  @Test
  void percentagesNeverRoundToCertainty() {
    assertThat(SpamHtml.percent(0)).isEqualTo("0%");
    assertThat(SpamHtml.percent(0.004)).isEqualTo("<1%");
    assertThat(SpamHtml.percent(0.005)).isEqualTo("1%");
    assertThat(SpamHtml.percent(0.5)).isEqualTo("50%");
    assertThat(SpamHtml.percent(0.994)).isEqualTo("99%");
    assertThat(SpamHtml.percent(0.9999)).isEqualTo(">99%");
    assertThat(SpamHtml.percent(1)).isEqualTo("100%");
  }

  @Test
  void theWhyPanelListsTheTopFiveEachWayEscaped() {
    List<TermHit> hits = new ArrayList<>();
    for (int i = 7; i >= 1; i--) {
      hits.add(new TermHit("spam" + i, "body", 1, i, i));
    }
    for (int i = 6; i >= 1; i--) {
      hits.add(new TermHit("<ham" + i + ">", "subject", 2, -i / 2.0, -i));
    }
    hits.sort((a, b) -> Double.compare(Math.abs(b.contribution()), Math.abs(a.contribution())));
    SpamExplanation now = new SpamExplanation(3.2, 0.96, 0.9, true, -4, hits);
    Document panel =
        Jsoup.parseBodyFragment(SpamHtml.why(SpamVerdict.ofScore(List.of("spam7"), 3.2), now));

    assertThat(panel.selectFirst(".verdict").text())
        .isEqualTo("Spam: probability 96%, spam from 90%.");
    assertThat(panel.select("table.for tbody tr"))
        .extracting(Element::text)
        .containsExactly(
            "spam7 body \u00D71 +7.00",
            "spam6 body \u00D71 +6.00",
            "spam5 body \u00D71 +5.00",
            "spam4 body \u00D71 +4.00",
            "spam3 body \u00D71 +3.00");
    assertThat(panel.select("table.against tbody tr"))
        .extracting(Element::text)
        .containsExactly(
            "<ham6> subject \u00D72 -6.00",
            "<ham5> subject \u00D72 -5.00",
            "<ham4> subject \u00D72 -4.00",
            "<ham3> subject \u00D72 -3.00",
            "<ham2> subject \u00D72 -2.00");
    assertThat(panel.select("ham6")).isEmpty();
  }

  @Test
  void theWhyPanelSumsAnNgramModelsTermsByTheWordTheyStandFor() {
    List<TermHit> hits =
        List.of(
            new TermHit("clic", "body", 1, 7, 0.26, "click"),
            new TermHit("lick", "body", 1, 7, 0.25, "click"),
            new TermHit("you", "subject", 1, 6, 0.27, "your"),
            new TermHit("unsub", "body", 2, -4, -0.20, "unsubscribe"),
            new TermHit("cli", "body", 1, 6, 0.21, "click"),
            new TermHit("you", "body", 3, 6, 0.10, "your"),
            new TermHit("ick", "body", 1, -1, -0.01, "click"));
    SpamExplanation now = new SpamExplanation(0.88, 0.71, 0.7, true, 0, hits);
    Document panel =
        Jsoup.parseBodyFragment(SpamHtml.why(SpamVerdict.ofScore(List.of("click"), 0.88), now));

    // a word's terms in one part add up; one in another part is a row of its own
    assertThat(panel.select("table.for tbody tr"))
        .extracting(Element::text)
        .containsExactly(
            "click body clic \u00D71, lick \u00D71, cli \u00D71, ick \u00D71 +0.71",
            "your subject you \u00D71 +0.27",
            "your body you \u00D73 +0.10");
    assertThat(panel.select("table.against tbody tr"))
        .extracting(Element::text)
        .containsExactly("unsubscribe body unsub \u00D72 -0.20");
    assertThat(panel.selectFirst(".note").text())
        .isEqualTo(
            "Words as the model in use now weighs them: each word's share is the sum of its"
                + " terms' (a character n-gram counts for the first word that holds it).");
    // a term and its count stay on one line
    assertThat(panel.selectFirst("table.for td.terms").wholeText())
        .startsWith("clic\u00A0\u00D71, ");
  }

  /**
   * The shipped model reads {@code word345} as {@code wordeas} (leetspeak); the panel and the badge
   * name the word as the mail writes it.
   */
  @Test
  void theWhyPanelAndTheBadgeListTheWordsAsTheMailWritesThem() {
    SpamScanner ngrams = SpamScanner.withDefaultModel(null, null);
    ScanParts mail = new ScanParts("", "word345 click", "");
    SpamVerdict verdict = ngrams.scan(mail);
    Document panel = Jsoup.parseBodyFragment(SpamHtml.why(verdict, ngrams.explain(mail)));

    assertThat(panel.select("td.term"))
        .extracting(Element::text)
        .contains("word345", "click")
        .allSatisfy(word -> assertThat(word).isIn("word345", "click"));
    assertThat(verdict.terms())
        .isNotEmpty()
        .allSatisfy(w -> assertThat(w).isIn("word345", "click"));
  }

  @Test
  void theWhyPanelSaysWhenTheModelInUseNowDisagreesAndWhenNothingCountsOneWay() {
    SpamExplanation now =
        new SpamExplanation(
            -3, 0.047, 0.5, false, -5, List.of(new TermHit("casino", "any", 2, 1, 2)));
    Document panel =
        Jsoup.parseBodyFragment(SpamHtml.why(SpamVerdict.ofScore(List.of("casino"), 2), now));
    assertThat(panel.selectFirst(".verdict").text())
        .isEqualTo("Spam: probability 88%, spam from 50%. With the model in use now: 5%.");
    assertThat(panel.select("table.against tbody tr"))
        .extracting(Element::text)
        .containsExactly("none");
    // a plain list's terms are their own words: no n-grams to explain
    assertThat(panel.selectFirst(".note").text())
        .isEqualTo(
            "Words as the model in use now weighs them: each word's share is the sum of its"
                + " terms'.");
  }
}
