package dev.burnbox.server.web;

import dev.burnbox.mailstore.InboxName;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One {@code --webhook}: the URL that mail is posted to and the recipient addresses it is for.
 *
 * <p>Written {@code URL} (every delivery) or {@code SCOPE=URL}, where the scope is a domain ({@code
 * ci.example.test}: every address at it) or an address glob ({@code signup-*@example.test}, {@code
 * *@*.example.test}; {@code *} is any run of characters, {@code ?} any one), matched against the
 * recipient address without regard to case and with both domains in the one form Burnbox compares
 * domains in ({@link InboxName#canonicalDomain}: an internationalised domain as its {@code xn--}
 * form), so {@code bücher.test} covers mail to {@code xn--bcher-kva.test} and the other way round.
 * A wildcard cannot stand inside a domain label that has non-ASCII letters (that label's {@code
 * xn--} form depends on all of it). The URL is {@code http} or {@code https} with a host. Immutable
 * and thread-safe; {@link #covers} is one regular-expression match.
 */
public final class WebhookTarget {
  private final URI url;
  private final String scope;
  private final Pattern pattern;

  /**
   * @param url where the JSON is posted
   * @param scope an address glob ({@code *} for every address)
   * @throws IllegalArgumentException if the URL is not absolute http(s) with a host, or the scope
   *     is blank or has a wildcard inside a non-ASCII domain label
   */
  public WebhookTarget(URI url, String scope) {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(scope, "scope");
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null) {
      throw new IllegalArgumentException("a webhook URL is http(s)://host/...: " + url);
    }
    if (scope.isBlank()) {
      throw new IllegalArgumentException("a webhook scope is blank");
    }
    for (String label : scope.substring(scope.lastIndexOf('@') + 1).split("\\.")) {
      if (label.matches(".*[*?].*") && !label.chars().allMatch(c -> c < 0x80)) {
        throw new IllegalArgumentException(
            "a webhook scope's wildcard cannot be inside an internationalised domain label: "
                + label);
      }
    }
    this.url = url;
    this.scope = canonical(scope);
    this.pattern = globPattern(this.scope);
  }

  /**
   * Parses {@code URL} or {@code SCOPE=URL}.
   *
   * @throws IllegalArgumentException with the value and what is wrong with it
   */
  public static WebhookTarget parse(String value) {
    String text = value.strip();
    String scope = "*";
    String url = text;
    if (!text.matches("(?i)https?://.*")) {
      int equals = text.indexOf('=');
      if (equals < 0) {
        throw new IllegalArgumentException(
            "--webhook " + value + ": expected URL or SCOPE=URL (http:// or https://)");
      }
      scope = text.substring(0, equals).strip();
      if (scope.isEmpty()) {
        throw new IllegalArgumentException("--webhook " + value + ": the scope before = is empty");
      }
      if (!scope.contains("@")) {
        scope = "*@" + scope;
      }
      url = text.substring(equals + 1).strip();
    }
    try {
      return new WebhookTarget(new URI(url), scope);
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new IllegalArgumentException("--webhook " + value + ": " + e.getMessage(), e);
    }
  }

  /** Where the JSON is posted. */
  public URI url() {
    return url;
  }

  /**
   * The address glob, lower-cased, its domain in ASCII ({@code *@domain} for a bare domain, {@code
   * *} for all).
   */
  public String scope() {
    return scope;
  }

  /** Whether mail to {@code address} is posted here. */
  public boolean covers(String address) {
    return pattern.matcher(canonical(address)).matches();
  }

  /** An address or a glob of them, lower-cased, with its domain in canonical form. */
  private static String canonical(String address) {
    String lower = address.strip().toLowerCase(Locale.ROOT);
    int at = lower.lastIndexOf('@');
    return at < 0
        ? lower
        : lower.substring(0, at + 1) + InboxName.canonicalDomain(lower.substring(at + 1));
  }

  private static Pattern globPattern(String scope) {
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < scope.length(); i++) {
      char c = scope.charAt(i);
      switch (c) {
        case '*' -> regex.append(".*");
        case '?' -> regex.append('.');
        default -> regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }

  @Override
  public String toString() {
    return scope.equals("*") ? url.toString() : scope + "=" + url;
  }
}
