package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link BrowserUrls}: the WHATWG rule for tabs and newlines in a URL, and only it. */
class BrowserUrlsTest {
  @Test
  void tabsAndNewlinesGoFromAnywhereInTheUrl() {
    assertThat(BrowserUrls.withoutTabsAndNewlines("\thttps://app.example/verify?\r\ntoken=a\tb\n"))
        .isEqualTo("https://app.example/verify?token=ab");
    assertThat(BrowserUrls.withoutTabsAndNewlines("\t\r\n")).isEmpty();
  }

  /** Spaces and other controls are the callers' to handle: the view encodes, the API trims. */
  @Test
  void everyOtherCharacterStaysEvenAtTheEnds() {
    String url = " \u0000https://app.example/a b\u000b\f\u00a0\u2028 ";
    assertThat(BrowserUrls.withoutTabsAndNewlines(url)).isSameAs(url);
    assertThat(BrowserUrls.withoutTabsAndNewlines(" a\tb\u000b")).isEqualTo(" ab\u000b");
  }
}
