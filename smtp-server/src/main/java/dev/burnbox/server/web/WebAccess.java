package dev.burnbox.server.web;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.server.pipeline.PrivateDomains;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Objects;

/**
 * Who may read what: which other origins' pages may read the JSON API ({@link CorsPolicy}); the
 * operator token that opens the endpoints crossing every inbox ({@code GET /api/v1/messages}, the
 * {@code /monitor} page) and every private inbox; and which inboxes are private ({@link
 * PrivateDomains}) and the tokens that open them ({@link ApiTokens}).
 *
 * <p>A request carries a token as {@code Authorization: Bearer TOKEN} (API clients; the scheme in
 * any case) or in the {@value #COOKIE} cookie that the token form of a private inbox's page sets
 * ({@code HttpOnly}, {@code SameSite=Strict}, gone with the browser session), never in a URL.
 * Without an operator token the operator endpoints are off. Immutable and thread-safe.
 *
 * @param cors the origins allowed to read the API from a browser
 * @param adminToken the operator token, or null for no operator endpoints
 * @param privateDomains the domains whose inboxes need a token
 * @param tokens the tokens that open private domains' inboxes
 */
public record WebAccess(
    CorsPolicy cors, String adminToken, PrivateDomains privateDomains, ApiTokens tokens) {
  /** Same-origin pages only, no operator endpoints, no private domains. */
  public static final WebAccess SAME_ORIGIN = new WebAccess(CorsPolicy.NONE, null);

  /** The cookie that holds a page reader's token. */
  static final String COOKIE = "burnbox_token";

  /**
   * @throws IllegalArgumentException if the token is shorter than 16 characters (a guessable token
   *     would open every inbox of every domain), or there are private domains but neither an
   *     operator token nor API tokens to read them with
   */
  public WebAccess {
    Objects.requireNonNull(cors, "cors");
    Objects.requireNonNull(privateDomains, "privateDomains");
    Objects.requireNonNull(tokens, "tokens");
    if (adminToken != null && adminToken.strip().length() < ApiTokens.MIN_TOKEN_LENGTH) {
      throw new IllegalArgumentException("--admin-token must be at least 16 characters");
    }
    adminToken = adminToken == null ? null : adminToken.strip();
    if (!privateDomains.isEmpty() && adminToken == null && tokens.file() == null) {
      throw new IllegalArgumentException(
          "--private-domains needs --api-tokens-file or --admin-token: nobody could read them");
    }
  }

  /** No private domains. */
  public WebAccess(CorsPolicy cors, String adminToken) {
    this(cors, adminToken, PrivateDomains.NONE, ApiTokens.none());
  }

  /** Whether the operator endpoints are on. */
  public boolean operatorsEnabled() {
    return adminToken != null;
  }

  /**
   * Whether an {@code Authorization} header value carries the operator token; compared in constant
   * time, so the answer's timing says nothing about how much of a guess was right.
   */
  boolean isOperator(String authorization) {
    return isOperatorToken(bearer(authorization));
  }

  private boolean isOperatorToken(String token) {
    return adminToken != null
        && token != null
        && MessageDigest.isEqual(
            token.getBytes(StandardCharsets.UTF_8), adminToken.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The inbox named by the request's {@code name} path parameter ({@code bob}, or a whole address,
   * which names the inbox its mail goes to), once the request may read it.
   *
   * @throws IllegalArgumentException if the name is not a valid inbox name
   * @throws PrivateInboxException if the inbox is private and the request has no token for it
   */
  InboxName inbox(Context ctx) {
    InboxName inbox = privateDomains.inboxNamed(ctx.pathParam("name"));
    require(ctx, inbox);
    return inbox;
  }

  /**
   * Returns if the request may read {@code inbox}: a public inbox, or a private one with the
   * operator token or an API token that grants its domain.
   *
   * @throws PrivateInboxException otherwise
   */
  void require(Context ctx, InboxName inbox) {
    if (inbox.domain() == null) {
      return;
    }
    String token = token(ctx);
    if (isOperatorToken(token) || tokens.grants(token, inbox.domain())) {
      return;
    }
    throw new PrivateInboxException(inbox, tokens.knows(token));
  }

  /** Whether {@code token} is one this server knows (the token form's check). */
  boolean knows(String token) {
    return isOperatorToken(token) || tokens.knows(token);
  }

  /**
   * A key for {@code purpose} derived from every secret that opens private inboxes: SHA-256 over
   * the purpose, the operator token and the {@link ApiTokens#fingerprint() fingerprint} of the
   * tokens as now read. Needs no setting of its own: every node of a deployment with the same
   * operator token and tokens has the same key, and it changes as soon as one of them does. Null if
   * there is nothing secret to derive it from (no operator token, no tokens).
   */
  byte[] derivedKey(String purpose) {
    String fingerprint = tokens.fingerprint();
    if (adminToken == null && fingerprint.isEmpty()) {
      return null;
    }
    return ApiTokens.sha256(
        purpose + "\n" + Objects.requireNonNullElse(adminToken, "") + "\n" + fingerprint);
  }

  /** The request's token: its bearer token, else its token cookie; null if none. */
  static String token(Context ctx) {
    String bearer = bearer(ctx.header("Authorization"));
    if (bearer != null) {
      return bearer;
    }
    String cookie = ctx.cookie(COOKIE);
    if (cookie == null || cookie.isEmpty()) {
      return null;
    }
    try {
      return new String(Base64.getUrlDecoder().decode(cookie), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The cookie value for {@code token}: URL-safe base64, as a cookie may not hold every char. */
  static String cookieValue(String token) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(token.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The token of an {@code Authorization: Bearer TOKEN} value; null if there is none. The scheme is
   * matched in any case, as RFC 7235 says, and spaces around the token are ignored.
   */
  private static String bearer(String authorization) {
    String scheme = "Bearer";
    if (authorization == null
        || authorization.length() <= scheme.length()
        || !authorization.regionMatches(true, 0, scheme, 0, scheme.length())
        || authorization.charAt(scheme.length()) != ' ') {
      return null;
    }
    String token = authorization.substring(scheme.length()).strip();
    return token.isEmpty() ? null : token;
  }

  @Override
  public String toString() {
    return "WebAccess[cors=%s, operators=%s, privateDomains=%s, %s]"
        .formatted(cors, operatorsEnabled() ? "on" : "off", privateDomains.domains(), tokens);
  }

  /**
   * A request for a private inbox without a token that opens it: 401 with no or an unknown token,
   * 403 with a known token that does not grant the inbox's domain.
   */
  static final class PrivateInboxException extends RuntimeException {
    private final transient InboxName inbox;
    private final boolean knownToken;

    PrivateInboxException(InboxName inbox, boolean knownToken) {
      super(
          knownToken
              ? "this token does not open inboxes of " + inbox.domain()
              : "inbox "
                  + inbox.value()
                  + " is private: send Authorization: Bearer TOKEN with a token for "
                  + inbox.domain());
      this.inbox = inbox;
      this.knownToken = knownToken;
    }

    InboxName inbox() {
      return inbox;
    }

    int status() {
      return knownToken ? 403 : 401;
    }
  }
}
