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
}
