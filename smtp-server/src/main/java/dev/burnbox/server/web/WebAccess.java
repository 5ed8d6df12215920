package dev.burnbox.server.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * Who may use what beyond a single inbox: which other origins' pages may read the JSON API ({@link
 * CorsPolicy}), and the operator token that opens the endpoints crossing every inbox ({@code GET
 * /api/v1/messages}, the {@code /monitor} page), sent as {@code Authorization: Bearer TOKEN}.
 * Without a token those endpoints are off. Immutable and thread-safe.
 *
 * @param cors the origins allowed to read the API from a browser
 * @param adminToken the operator token, or null for no operator endpoints
 */
public record WebAccess(CorsPolicy cors, String adminToken) {
  /** Same-origin pages only, no operator endpoints. */
  public static final WebAccess SAME_ORIGIN = new WebAccess(CorsPolicy.NONE, null);

  /**
   * @throws IllegalArgumentException if the token is shorter than 16 characters (a guessable token
   *     would open every inbox of every domain)
   */
  public WebAccess {
    Objects.requireNonNull(cors, "cors");
    if (adminToken != null && adminToken.strip().length() < 16) {
      throw new IllegalArgumentException("--admin-token must be at least 16 characters");
    }
    adminToken = adminToken == null ? null : adminToken.strip();
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
    if (adminToken == null || authorization == null || !authorization.startsWith("Bearer ")) {
      return false;
    }
    byte[] given =
        authorization.substring("Bearer ".length()).strip().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(given, adminToken.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "WebAccess[cors=" + cors + ", operators=" + (operatorsEnabled() ? "on" : "off") + "]";
  }
}
