package dev.burnbox.server.web;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which pages of other origins may use the JSON API ({@code /api/...}) from a browser: none (the
 * default), some ({@code --cors-origins https://a.example,http://localhost:3000}) or any ({@code
 * *}). They may read it (GET, HEAD, the event stream); changing it (DELETE) needs {@code writes}
 * too. Pages, {@code /metrics} and {@code /healthz} are never shared.
 *
 * <p>A page reads a private domain's inbox by sending its token itself, as {@code Authorization:
 * Bearer TOKEN}, which the preflight allows. Browser credentials are never shared: no {@code
 * Access-Control-Allow-Credentials}, so the token cookie of Burnbox's own pages (also {@code
 * SameSite=Strict}) does not open anything for another origin, and {@code *} is answered as {@code
 * *}.
 *
 * <p>{@link #onRequest} adds {@code Access-Control-Allow-Origin} to an API response for an allowed
 * origin, and {@code Access-Control-Expose-Headers} naming the response headers the API documents
 * for clients ({@value #EXPOSED_HEADERS}); {@link #onPreflight} answers the browser's OPTIONS
 * preflight: 204 with the allowed methods and request headers ({@value #ALLOWED_HEADERS}, cached 10
 * minutes) when the origin and the method are allowed, a bare 204 otherwise, which the browser
 * takes as a refusal. Immutable and thread-safe.
 *
 * @param origins allowed origins, {@code scheme://host[:port]} in lower case; empty for none
 * @param any whether every origin is allowed ({@code *})
 * @param writes whether allowed origins may also DELETE
 */
public record CorsPolicy(Set<String> origins, boolean any, boolean writes) {
  /** No other origin. */
  public static final CorsPolicy NONE = new CorsPolicy(Set.of(), false, false);

  private static final Set<HandlerType> READS = Set.of(HandlerType.GET, HandlerType.HEAD);

  /** The request headers a page may send: its token and the event stream's resume point. */
  static final String ALLOWED_HEADERS = "Accept, Authorization, Content-Type, Last-Event-ID";

  /**
   * The response headers the API documents for clients that a page could not read otherwise: the
   * URL of the message {@code /next} found, when to try again, a download's name, the challenge of
   * a private inbox and the methods a path takes.
   */
  static final String EXPOSED_HEADERS =
      "Location, Retry-After, Content-Disposition, WWW-Authenticate, Allow";

  /**
   * @throws NullPointerException if {@code origins} is null
   */
  public CorsPolicy {
    origins = Set.copyOf(origins);
  }

  /**
   * The policy of {@code --cors-origins} (comma-separated origins, or {@code *}; blank for none)
   * and {@code --cors-writes}.
   *
   * @throws IllegalArgumentException if an entry is not an origin ({@code http(s)://host[:port]},
   *     nothing after it)
   */
  public static CorsPolicy parse(String list, boolean writes) {
    Set<String> entries =
        list == null
            ? Set.of()
            : Set.of(list.split(",")).stream()
                .map(String::strip)
                .filter(e -> !e.isEmpty())
                .collect(Collectors.toSet());
    if (entries.contains("*")) {
      return new CorsPolicy(Set.of(), true, writes);
    }
    return new CorsPolicy(
        entries.stream().map(CorsPolicy::origin).collect(Collectors.toSet()), false, writes);
  }

  private static String origin(String text) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException("--cors-origins: not an origin: " + text);
    }
    String scheme = Objects.requireNonNullElse(uri.getScheme(), "").toLowerCase(Locale.ROOT);
    boolean bare =
        (uri.getRawPath() == null || uri.getRawPath().isEmpty())
            && uri.getRawQuery() == null
            && uri.getRawFragment() == null
            && uri.getRawUserInfo() == null;
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || !bare) {
      throw new IllegalArgumentException(
          "--cors-origins: not an origin (http(s)://host[:port]): " + text);
    }
    return scheme
        + "://"
        + uri.getHost().toLowerCase(Locale.ROOT)
        + (uri.getPort() >= 0 ? ":" + uri.getPort() : "");
  }

  /** Whether any other origin is allowed at all. */
  public boolean enabled() {
    return any || !origins.isEmpty();
  }

  private boolean allows(String origin, HandlerType method) {
    if (origin == null || !(READS.contains(method) || (writes && method == HandlerType.DELETE))) {
      return false;
    }
    return any || origins.contains(origin.toLowerCase(Locale.ROOT));
  }

  /** Before an API route: marks the response readable by the request's origin if allowed. */
  void onRequest(Context ctx) {
    if (enabled() && allowOrigin(ctx, ctx.method())) {
      ctx.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
  }

  /** An OPTIONS request to the API: the answer to a browser's preflight. */
  void onPreflight(Context ctx) {
    ctx.status(204);
    String requested = ctx.header("Access-Control-Request-Method");
    HandlerType method = requested == null ? null : HandlerType.findOrDefault(requested.strip());
    if (allowOrigin(ctx, method)) {
      ctx.header("Access-Control-Allow-Methods", writes ? "GET, HEAD, DELETE" : "GET, HEAD");
      ctx.header("Access-Control-Allow-Headers", ALLOWED_HEADERS);
      ctx.header("Access-Control-Max-Age", "600");
    }
  }

  /**
   * Marks the response as varying by origin and, if the request's origin may use {@code method}
   * (null: none), as readable by it; returns whether it may.
   */
  private boolean allowOrigin(Context ctx, HandlerType method) {
    if (!any) {
      ctx.header("Vary", "Origin");
    }
    if (method == null || !allows(ctx.header("Origin"), method)) {
      return false;
    }
    ctx.header("Access-Control-Allow-Origin", any ? "*" : ctx.header("Origin"));
    return true;
  }
}
