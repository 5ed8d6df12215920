package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class MailLinksTest {
  private static List<MailLinks.Link> links(String raw) {
    return MailLinks.of(MailDecoder.withDefaults().decode(raw.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void htmlLinksComeDecodedResolvedAndInOrderWithTheirText() {
    String raw =
        "Content-Type: text/html; charset=utf-8\r\n"
            + "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
            + "<base href=3D\"https://app.example/\">"
            + "<a href=3D\"verify?t=3Dab&amp;u=3D1\">Confirm your   address</a>"
            + "<a href=3D\"https://track.example/r?u=3Dhttps%3A%2F%2Fapp.example\">Open</a>"
            + "<a href=3D\"javascript:alert(1)\">x</a><a href=3D\"mailto:help@app.example\">Help</a>"
            + "<a href=3D\"verify?t=3Dab&amp;u=3D1\">again</a>\r\n";
    assertThat(links(raw))
        .containsExactly(
            new MailLinks.Link(
                "https://app.example/verify?t=ab&u=1", "Confirm your address", "html"),
            new MailLinks.Link(
                "https://track.example/r?u=https%3A%2F%2Fapp.example", "Open", "html"),
            new MailLinks.Link("mailto:help@app.example", "Help", "html"));
  }

  /**
   * The mail view keeps tel: links, but the links list dropped them. It now lists those whose
   * number the view keeps, spaces written as %20 whether the mail wrote them so or not, each number
   * once.
   */
  @Test
  void phoneLinksAreListedWhereTheMailViewKeepsThem() {
    String raw =
        "Content-Type: text/html; charset=utf-8\r\n\r\n"
            + "<a href=\"tel:+1 (555) 010-0199\">Call us</a>"
            + "<a href=\"TEL:+44%2020%207946%200000\">UK</a>"
            + "<a href=\"tel:+1%20%28555%29%20010-0199\">again</a>"
            + "<a href=\"tel:javascript:alert(1)\">x</a><a href=\"tel:\">empty</a>"
            + "<a href=\"tel:+1%2B555\">escaped plus</a><a href=\"tel:555;ext=1\">ext</a>\r\n";
    assertThat(links(raw))
        .containsExactly(
            new MailLinks.Link("tel:+1%20(555)%20010-0199", "Call us", "html"),
            new MailLinks.Link("tel:+44%2020%207946%200000", "UK", "html"));
  }

  @Test
  void textLinksLoseTheSentencesPunctuationButKeepTheirOwn() {
    String raw =
        "Content-Type: text/plain\r\n\r\n"
            + "Click https://app.example/v?t=1. Or (see https://en.wikipedia.org/wiki/Foo_(bar)).\r\n"
            + "Also www.example.org, and <https://app.example/v?t=1>\r\n";
    assertThat(links(raw).stream().map(MailLinks.Link::url))
        .containsExactly(
            "https://app.example/v?t=1",
            "https://en.wikipedia.org/wiki/Foo_(bar)",
            "http://www.example.org");
  }

  /**
   * Punctuation after a URL is taken off in one pass, however much there is: each char taken off
   * used to copy and count the whole URL again, a million of them hours. The timeout only turns
   * such a regression into a failure rather than a hang, on a thread of its own since a busy loop
   * ignores interrupts.
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aUrlFollowedByAMillionBracketsAndStopsLosesThemInOnePass() {
    String raw =
        "Content-Type: text/plain\r\n\r\n"
            + "Click https://app.example/v?t=1"
            + ")".repeat(500_000)
            + ".".repeat(500_000)
            + "\r\nor https://en.wikipedia.org/wiki/Foo_(bar)"
            + ")".repeat(1_000_000)
            + "\r\n";
    assertThat(links(raw).stream().map(MailLinks.Link::url))
        .containsExactly("https://app.example/v?t=1", "https://en.wikipedia.org/wiki/Foo_(bar)");
  }

  private static List<String> urls(String raw) {
    return links(raw).stream().map(MailLinks.Link::url).toList();
  }

  /** Browsers drop tabs and line breaks inside a URL (WHATWG URL standard); the list dropped it. */
  @Test
  void anHrefWithALineBreakInsideIsListedWithoutIt() {
    String raw =
        "Content-Type: text/html; charset=utf-8\r\n\r\n"
            + "<a href=\"https://app.example/verify?\r\ntoken=abc&amp;user=ann\">Verify</a>"
            + "<a href=\"\thttps://app.example/\tnext \">Next</a>\r\n";
    assertThat(urls(raw))
        .containsExactly(
            "https://app.example/verify?token=abc&user=ann", "https://app.example/next");
  }

  /** A browser percent-encodes a raw space or quote in a URL; the list dropped such a link. */
  @Test
  void anHrefWithARawSpaceIsListedPercentEncodedAsABrowserRequestsIt() {
    String raw =
        "Content-Type: text/html; charset=utf-8\r\n\r\n"
            + "<a href=\"https://app.example/v?t=a b&amp;q=&quot;x&quot;\">Verify</a>"
            + "<a href=\"https://app.example/v?t=a%20b&amp;q=%22x%22\">again</a>\r\n";
    assertThat(links(raw))
        .containsExactly(
            new MailLinks.Link("https://app.example/v?t=a%20b&q=%22x%22", "Verify", "html"));
  }

  /** A Unicode host is listed in the punycode form the browser looks up; it was dropped. */
  @Test
  void aUnicodeHostIsListedInItsPunycodeForm() {
    String raw =
        "Content-Type: text/html; charset=utf-8\r\n\r\n"
            + "<a href=\"https://b\u00fccher.example/v\">Verify</a>\r\n";
    assertThat(urls(raw)).containsExactly("https://xn--bcher-kva.example/v");
  }

  /**
   * A host with {@code _} (allowed by the WHATWG URL standard, followed by browsers) is no host to
   * {@link java.net.URI}: such links were dropped, from HTML, from text and against a base. They
   * are listed now, ports and user names too; a host a browser refuses still is not.
   */
  @Test
  void aHostWithAnUnderscoreIsListedAsABrowserRequestsIt() {
    String raw =
        "Content-Type: multipart/alternative; boundary=b\r\n\r\n"
            + "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            + "Verify: https://my_host.example.com/verify?t=1.\r\n"
            + "--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
            + "<base href=\"http://cdn_1.example.com/a/\">"
            + "<a href=\"http://my_host.example.com/x\">x</a>"
            + "<a href=\"b?c=d\">relative</a>"
            + "<a href=\"https://ann@_dmarc.example.com:8443/r\">port</a>"
            + "<a href=\"http://-edge_.example.com./\">hyphens</a>"
            + "<a href=\"http://my_host.example.com:99999/\">port too large</a>"
            + "<a href=\"http://my_host.123/\">ends in a number</a>"
            + "<a href=\"http://my_host..example/\">empty label</a>"
            + "<a href=\"http:///x\">no host</a>\r\n"
            + "--b--\r\n";
    assertThat(urls(raw))
        .containsExactly(
            "http://my_host.example.com/x",
            "http://cdn_1.example.com/a/b?c=d",
            "https://ann@_dmarc.example.com:8443/r",
            "http://-edge_.example.com./",
            "https://my_host.example.com/verify?t=1");
  }

  /** RFC 3986, Appendix C: a URL in angle brackets may be wrapped; it was cut at the line break. */
  @Test
  void aTextUrlInAngleBracketsWrappedAcrossLinesIsJoined() {
    String raw =
        "Content-Type: text/plain\r\n\r\n"
            + "Verify: <https://app.example/verify?\r\n   token=abc&user=ann>\r\n"
            + "or <URL:https://app.example/\r\nhelp>, not <https://app.example/a and\r\nb>\r\n";
    assertThat(urls(raw))
        .containsExactly(
            "https://app.example/verify?token=abc&user=ann",
            "https://app.example/help",
            "https://app.example/a");
  }

  /** Text and HTML give the same form of a URL with non-ASCII characters: UTF-8 escapes. */
  @Test
  void nonAsciiCharactersAreEncodedAlikeInTextAndHtml() {
    String raw =
        "Content-Type: multipart/alternative; boundary=b\r\n\r\n"
            + "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            + "Verify: https://app.example/v?token=\u00e4\u00f6\u00fc\r\n"
            + "--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
            + "<a href=\"https://app.example/v?token=\u00e4\u00f6\u00fc\">Verify</a>\r\n"
            + "--b--\r\n";
    assertThat(links(raw))
        .containsExactly(
            new MailLinks.Link("https://app.example/v?token=%C3%A4%C3%B6%C3%BC", "Verify", "html"));
  }

  /** HTML-only mail whose URL is only visible text, to paste into the browser: it was missed. */
  @Test
  void urlsInTheVisibleTextOfHtmlComeAfterItsAnchorsEachOnce() {
    String raw =
        "Content-Type: text/html; charset=utf-8\r\n\r\n"
            + "<p><a href=\"https://app.example/verify?token=bare123\">Verify</a></p>"
            + "<p>Or paste this into your browser: https://app.example/verify?token=bare123</p>"
            + "<p>Help: <b>https://app.example/help</b>.</p>\r\n";
    assertThat(links(raw))
        .containsExactly(
            new MailLinks.Link("https://app.example/verify?token=bare123", "Verify", "html"),
            new MailLinks.Link("https://app.example/help", "https://app.example/help", "html"));
  }

  @Test
  void aUrlOnlyInTheVisibleTextOfHtmlIsListed() {
    String raw =
        "Content-Type: text/html; charset=utf-8\r\n\r\n"
            + "<p>Paste this into your browser: https://app.example/verify?token=bare123</p>\r\n";
    assertThat(urls(raw)).containsExactly("https://app.example/verify?token=bare123");
  }

  /**
   * The search for a bracketed URL's end stops at the next {@code <}: a million unclosed brackets
   * are read once, not once per bracket.
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aMillionUnclosedBracketedUrlsAreReadInOnePass() {
    String raw =
        "Content-Type: text/plain\r\n\r\n" + "<https://app.example/v\r\nx".repeat(200_000) + "\r\n";
    assertThat(urls(raw)).hasSize(1);
  }
}
