package dev.burnbox.server.web;

import org.jsoup.nodes.Entities;

/**
 * Builds this server's HTML pages. Every piece of text that does not come from this code goes
 * through {@link #escape(String)}, which makes it inert in element content and in double-quoted
 * attribute values.
 */
final class Html {
  private Html() {}

  /** {@code text} with {@code & < > " '} replaced by character references; "" for null. */
  static String escape(String text) {
    return text == null ? "" : Entities.escape(text);
  }

  /**
   * A complete page: the icon, the shared stylesheet, a header linking home, {@code body} (already
   * HTML) and the given scripts from {@code /static/}, loaded deferred.
   *
   * @param title plain text, escaped here
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
            .formatted(escape(title)));
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
