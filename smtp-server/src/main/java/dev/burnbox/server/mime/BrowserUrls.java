package dev.burnbox.server.mime;

/**
 * What a browser does to a URL a mail writes before it reads it, by the WHATWG URL standard: it
 * removes every ASCII tab and newline (U+0009, U+000A, U+000D) from it, wherever they are, so that
 * {@code https://app.example/verify?\r\ntoken=abc} goes to {@code
 * https://app.example/verify?token=abc}. The one home of that rule for the mail view ({@code
 * MailHtmlSanitizer}, on every {@code href} and {@code src}) and {@link MailLinks}, so that the two
 * read a URL alike. Stateless and thread-safe.
 */
public final class BrowserUrls {
  private BrowserUrls() {}

  /**
   * {@code url} without its ASCII tabs and newlines; {@code url} itself if it has none. Every other
   * character stays, other control characters and spaces at its ends too. O(length of url).
   */
  public static String withoutTabsAndNewlines(String url) {
    int first = firstTabOrNewline(url);
    if (first < 0) {
      return url;
    }
    StringBuilder kept = new StringBuilder(url.length()).append(url, 0, first);
    for (int i = first + 1; i < url.length(); i++) {
      char c = url.charAt(i);
      if (!isTabOrNewline(c)) {
        kept.append(c);
      }
    }
    return kept.toString();
  }

  private static int firstTabOrNewline(String url) {
    for (int i = 0; i < url.length(); i++) {
      if (isTabOrNewline(url.charAt(i))) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isTabOrNewline(char c) {
    return c == '\t' || c == '\n' || c == '\r';
  }
}
