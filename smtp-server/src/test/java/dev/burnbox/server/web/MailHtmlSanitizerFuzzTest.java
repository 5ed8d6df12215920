package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.burnbox.server.fuzz.FuzzInputs;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Element;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz target: {@link MailHtmlSanitizer} on arbitrary HTML (the input bytes read as UTF-8). The
 * output, parsed as a browser would (jsoup), must be inert: no element that runs or embeds
 * anything, no event handler, no style with {@code url()} or {@code expression()}, and every {@code
 * href} and {@code src} an absolute {@code http(s)://host} or {@code mailto:} URL, so that nothing
 * resolves against the inbox's own origin. The output sanitized again is inert too.
 *
 * <p>In a normal build the seeds in {@code MailHtmlSanitizerFuzzTestInputs/sanitizedHtmlIsInert/}
 * run through Jazzer's regression mode and {@link #mutationsOfTheSeedsStayInert} runs seeded
 * mutations of them; {@code scripts/fuzz.sh sanitizer 30m} fuzzes for real.
 */
class MailHtmlSanitizerFuzzTest {
  private static final MailHtmlSanitizer SANITIZER = new MailHtmlSanitizer();

  private static final Set<String> ACTIVE_ELEMENTS =
      Set.of(
          "script",
          "style",
          "iframe",
          "frame",
          "frameset",
          "object",
          "embed",
          "applet",
          "form",
          "input",
          "button",
          "textarea",
          "select",
          "svg",
          "math",
          "meta",
          "base",
          "link",
          "portal",
          "template",
          "noscript",
          "video",
          "audio",
          "source",
          "track");

  /**
   * What a browser resolves without the page's origin: {@code http(s):} followed by two slashes or
   * backslashes (the URL standard treats {@code \} as {@code /} in special schemes), or {@code
   * mailto:}. Checked after removing what browsers ignore: ASCII tab and newlines anywhere, C0
   * controls and spaces at the ends.
   */
  private static final Pattern ABSOLUTE = Pattern.compile("(?is)(https?:[/\\\\]{2}|mailto:).*");

  /** A CSS string: single or double quoted, without escapes (the sanitizer emits none). */
  private static final Pattern QUOTED = Pattern.compile("'[^'\\\\]*'|\"[^\"\\\\]*\"");

  private static final List<String> SNIPPETS =
      List.of(
          "<script>alert(1)</script>",
          "<img src=x onerror=alert(1)>",
          "<a href=\"javascript:alert(1)\">",
          "<a href=\"http:evil\">",
          "href=",
          "src=",
          "style=\"background:url(javascript:x)\"",
          "style=\"width:expression(alert(1))\"",
          "<svg><script>",
          "<!--",
          "-->",
          "<![CDATA[",
          "&#x6a;",
          "&Tab;",
          "\u0000",
          "<iframe srcdoc=",
          "<math><mi xlink:href=",
          "</",
          "\"",
          "'",
          "`");

  @FuzzTest(maxDuration = "5m")
  @DictionaryFile(resourcePath = "html.dict")
  void sanitizedHtmlIsInert(byte[] html) {
    checkSanitized(new String(html, StandardCharsets.UTF_8));
  }

  static LongStream seeds() {
    return LongStream.range(0, 8);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void mutationsOfTheSeedsStayInert(long seed) {
    FuzzInputs.checkMutations(
        seed,
        FuzzInputs.seeds(MailHtmlSanitizerFuzzTest.class, "sanitizedHtmlIsInert"),
        250,
        SNIPPETS,
        html -> checkSanitized(new String(html, StandardCharsets.UTF_8)));
  }

  /** The properties every input must have; throws AssertionError if one fails. */
  static void checkSanitized(String html) {
    String safe = SANITIZER.sanitize(html);
    assertInert(safe);
    // not byte-identical: the output may nest what a parser re-nests (a <ul> in a <p>, an <a> in an
    // <a>)
    assertInert(SANITIZER.sanitize(safe));
  }

  private static void assertInert(String safe) {
    for (Element element : Jsoup.parseBodyFragment(safe).body().getAllElements()) {
      assertThat(ACTIVE_ELEMENTS).as("element in %s", safe).doesNotContain(element.normalName());
      for (Attribute attribute : element.attributes()) {
        String name = attribute.getKey().toLowerCase(Locale.ROOT);
        String value = attribute.getValue();
        assertThat(name).as("attribute in %s", safe).doesNotStartWith("on");
        assertThat(name).as("attribute in %s", safe).isNotIn("srcdoc", "formaction", "xlink:href");
        if (name.equals("style")) {
          // quoted strings (font names: the sanitizer quotes 'javascript' there) are inert text
          String unquoted = QUOTED.matcher(value).replaceAll("''");
          assertThat(unquoted.toLowerCase(Locale.ROOT))
              .as("style in %s", safe)
              .doesNotContain("url(", "expression", "behavior", "binding", "javascript", "\\");
        }
        if (name.equals("href") || name.equals("src") || name.equals("background")) {
          String url = value.replaceAll("[\\t\\n\\r]", "").replaceAll("^[\\x00-\\x20]+", "");
          assertThat(url).as("%s in %s", name, safe).matches(ABSOLUTE);
        }
      }
    }
  }
}
