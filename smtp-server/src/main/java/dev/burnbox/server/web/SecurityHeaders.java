package dev.burnbox.server.web;

import io.javalin.http.Context;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpFields;

/**
 * The response headers that keep a browser from running or loading anything a mail carries.
 *
 * <p>Every response gets {@link #standard(Context)}: a Content-Security-Policy that allows only
 * this server's own scripts, styles and frames and no inline script, {@code nosniff}, no referrer
 * and no framing by other pages. Replies that the HTTP framework writes itself (errors before or
 * outside a route) get the same headers through {@link #addMissing(HttpFields.Mutable)}, which
 * {@link WebGuard} and {@link WebErrorHandler} call just before a response is committed. The
 * sanitized mail HTML gets {@link #mailView(Context, boolean)} instead: nothing but inline styles,
 * images only when the reader asked for them, and a CSP {@code sandbox} so that even opened on its
 * own it has an opaque origin and no scripts.
 */
final class SecurityHeaders {
  /** The policy of every page and API response. */
  static final String PAGE_POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self';"
          + " connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none';"
          + " form-action 'self'; frame-ancestors 'none'";

  /** The headers every response carries. */
  static final Map<String, String> STANDARD =
      Map.of(
          "Content-Security-Policy", PAGE_POLICY,
          "X-Content-Type-Options", "nosniff",
          "Referrer-Policy", "no-referrer",
          "X-Frame-Options", "DENY",
          "Cross-Origin-Opener-Policy", "same-origin",
          "Cache-Control", "no-store");

  private SecurityHeaders() {}

  /** Sets the headers every response carries. */
  static void standard(Context ctx) {
    STANDARD.forEach(ctx::header);
  }

  /**
   * Adds each of the {@link #STANDARD} headers that {@code headers} lacks, keeping those already
   * set (the mail view's own policy, a route's own cache control).
   */
  static void addMissing(HttpFields.Mutable headers) {
    STANDARD.forEach(
        (name, value) -> {
          if (!headers.contains(name)) {
            headers.put(name, value);
          }
        });
  }

  /**
   * Replaces the policy for the sanitized HTML of a mail, shown in an {@code <iframe sandbox>} of
   * this server's message page.
   *
   * @param images whether remote images ({@code http:}, {@code https:}) may load
   * @param inlineImages the path prefix of the mail's own inline images on this server ({@link
   *     InlineImages#pathPrefix}), which load without asking; "" if it has none
   */
  static void mailView(Context ctx, boolean images, String inlineImages) {
    String inline = inlineImages.isEmpty() ? "" : inlineSource(ctx, inlineImages);
    ctx.header("Content-Security-Policy", mailViewPolicy(images, inline));
    ctx.header("X-Frame-Options", "SAMEORIGIN");
  }

  /** What a Host header may hold to be written into a policy: a name or address and a port. */
  private static final Pattern HOST =
      Pattern.compile("[A-Za-z0-9.\\-]+(:[0-9]{1,5})?|\\[[0-9A-Fa-f:.]+\\](:[0-9]{1,5})?");

  /**
   * The CSP source that allows {@code path} of this server and nothing else of it: the origin the
   * request named (a reverse proxy must pass the Host header on, as docs/deploy.md's does) and the
   * path. Not {@code 'self'}, which Chromium does match against this server in the sandboxed view
   * but which would let the mail load any URL of this server without asking.
   */
  static String inlineSource(Context ctx, String path) {
    String host = ctx.host();
    if (host == null || !HOST.matcher(host).matches()) {
      return ""; // no origin to name: the inline images stay blocked
    }
    return ctx.scheme() + "://" + host + path;
  }

  /**
   * The mail view's policy: see {@link #mailView}.
   *
   * @param inlineSource the CSP source of the mail's inline images, or ""
   */
  static String mailViewPolicy(boolean images, String inlineSource) {
    String imageSources =
        images ? "http: https:" : inlineSource.isEmpty() ? "'none'" : inlineSource;
    return "default-src 'none'; style-src 'unsafe-inline'; img-src "
        + imageSources
        + "; base-uri 'none'; form-action 'none'; frame-ancestors 'self';"
        + " sandbox allow-popups allow-popups-to-escape-sandbox";
  }
}
