package dev.burnbox.server.web;

import io.javalin.http.Context;

/**
 * The response headers that keep a browser from running or loading anything a mail carries.
 *
 * <p>Every response gets {@link #standard(Context)}: a Content-Security-Policy that allows only
 * this server's own scripts, styles and frames and no inline script, {@code nosniff}, no referrer
 * and no framing by other pages. The sanitized mail HTML gets {@link #mailView(Context, boolean)}
 * instead: nothing but inline styles, images only when the reader asked for them, and a CSP {@code
 * sandbox} so that even opened on its own it has an opaque origin and no scripts.
 */
final class SecurityHeaders {
  /** The policy of every page and API response. */
  static final String PAGE_POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self';"
          + " connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none';"
          + " form-action 'self'; frame-ancestors 'none'";

  private SecurityHeaders() {}

  /** Sets the headers every response carries. */
  static void standard(Context ctx) {
    ctx.header("Content-Security-Policy", PAGE_POLICY);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("Cross-Origin-Opener-Policy", "same-origin");
    ctx.header("Cache-Control", "no-store");
  }

  /**
   * Replaces the policy for the sanitized HTML of a mail, shown in an {@code <iframe sandbox>} of
   * this server's message page.
   *
   * @param images whether remote images ({@code http:}, {@code https:}) may load
   */
  static void mailView(Context ctx, boolean images) {
    ctx.header("Content-Security-Policy", mailViewPolicy(images));
    ctx.header("X-Frame-Options", "SAMEORIGIN");
  }

  /** The mail view's policy: see {@link #mailView(Context, boolean)}. */
  static String mailViewPolicy(boolean images) {
    return "default-src 'none'; style-src 'unsafe-inline'; img-src "
        + (images ? "http: https:" : "'none'")
        + "; base-uri 'none'; form-action 'none'; frame-ancestors 'self';"
        + " sandbox allow-popups allow-popups-to-escape-sandbox";
  }
}
