package dev.burnbox.server.web;

import org.jsoup.nodes.Entities;

/**
 * Builds this server's HTML pages. Every piece of text that does not come from this code goes
 * through {@link #escape(String)}, which makes it inert in element content and in double-quoted
 * attribute values; text a sender wrote (header values, names) goes through {@link
 * #isolated(String)}, which also keeps its direction to itself.
 */
final class Html {
  private Html() {}

  /** {@code text} with {@code & < > " '} replaced by character references; "" for null. */
  static String escape(String text) {
    return text == null ? "" : Entities.escape(text);
  }

  /**
   * Sender text as a page shows it: without the explicit bidirectional controls (embeddings,
   * overrides and isolates, U+202A-U+202E and U+2066-U+2069: "invoice", U+202E, "fdp.exe" shows as
   * "invoiceexe.pdf", and an address can be shown backwards), escaped, in a {@code <bdi>} so that
   * its direction, right-to-left or not, does not reorder the text around it. {@code
   * /static/inbox.js} shows the sender text of live mail the same way.
   */
  static String isolated(String text) {
    return "<bdi>" + escape(withoutBidiControls(text)) + "</bdi>";
  }

  /** {@code text} without explicit bidirectional controls (see {@link #isolated}); "" for null. */
  static String withoutBidiControls(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder kept = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!isBidiControl(c)) {
        kept.append(c);
      }
    }
    return kept.length() == text.length() ? text : kept.toString();
  }

  private static boolean isBidiControl(char c) {
    return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
  }

  /**
   * A complete page: the icon, the shared stylesheet, a header linking home, {@code body} (already
   * HTML) and the given scripts from {@code /static/}, loaded deferred.
   *
   * @param title plain text, escaped here (without bidirectional controls: it may be a subject)
   */
  static String page(String title, String body, String... scripts) {
    StringBuilder html = new StringBuilder(1024 + body.length());
    html.append(
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>%s · Burnbox</title>
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/static/burnbox.css">
        """
            .formatted(escape(withoutBidiControls(title))));
    for (String script : scripts) {
      html.append("<script defer src=\"/static/").append(escape(script)).append("\"></script>\n");
    }
    html.append(
        """
        </head>
        <body>
        <header class="top"><a href="/" class="brand">Burnbox</a></header>
        <main>
        """);
    html.append(body);
    html.append("\n</main>\n</body>\n</html>\n");
    return html.toString();
  }
}
