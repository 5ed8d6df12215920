package dev.burnbox.server.web;

import io.javalin.http.Context;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * How every route reads its optional query parameters: a parameter given empty ({@code ?after=}) is
 * the same as one not given. URL templates write every parameter ({@code
 * next?after=&since=&from=&subject=&timeout=}), and scripts fill them from variables that may be
 * unset ({@code after=${LAST:-}}), so an empty value means "none", never a value to check.
 *
 * <p>The JSON API takes no parameter an endpoint does not know ({@link #requireOnly}): a typo such
 * as {@code subjet=} would otherwise drop a filter silently and answer the wrong mail.
 */
final class QueryParameters {
  private QueryParameters() {}

  /** The parameter every API endpoint takes and ignores: a cache-buster ({@code ?_=1769860800}). */
  static final String CACHE_BUSTER = "_";

  /**
   * Returns if every query parameter of the request is one of {@code taken} or {@value
   * #CACHE_BUSTER}.
   *
   * @throws IllegalArgumentException (a 400) naming the others and the parameters taken
   */
  static void requireOnly(Context ctx, String... taken) {
    List<String> known = List.of(taken);
    List<String> unknown =
        ctx.queryParamMap().keySet().stream()
            .filter(name -> !known.contains(name) && !name.equals(CACHE_BUSTER))
            .toList();
    if (unknown.isEmpty()) {
      return;
    }
    throw new IllegalArgumentException(
        (unknown.size() == 1 ? "unknown query parameter " : "unknown query parameters ")
            + unknown.stream()
                .limit(5)
                .map(QueryParameters::quoted)
                .collect(Collectors.joining(", "))
            + (unknown.size() > 5 ? ", ..." : "")
            + "; this endpoint takes "
            + (known.isEmpty() ? "none" : String.join(", ", known)));
  }

  /** The most characters of a received value that an error message quotes. */
  static final int MAX_ECHOED = 64;

  /** The value of query parameter {@code name}, or null if it is absent or empty. */
  static String optional(Context ctx, String name) {
    String value = ctx.queryParam(name);
    return value == null || value.isEmpty() ? null : value;
  }

  /**
   * The error message for a parameter {@code value} that does not parse: {@code problem}, then the
   * value as received ({@link #quoted}), and, if it has a space and would parse ({@code parses})
   * with a {@code +} for each, the hint that a {@code +} in a URL must be sent as {@code %2B} (a
   * bare one arrives as a space: {@code since=2026-01-31T12:00:00+01:00} in a URL).
   */
  static String badValue(String problem, String value, Predicate<String> parses) {
    boolean plusSentBare = value.indexOf(' ') >= 0 && parses.test(value.replace(' ', '+'));
    return problem
        + "; received "
        + quoted(value)
        + (plusSentBare ? " (a + in a URL must be sent as %2B)" : "");
  }

  /**
   * {@code value} in double quotes, its first {@value #MAX_ECHOED} characters only (then {@code
   * ...}), every character but printable ASCII (and {@code "} and backslash) escaped as a
   * backslash, {@code u} and four hex digits, so that no sender's text breaks the message.
   */
  static String quoted(String value) {
    StringBuilder out = new StringBuilder("\"");
    int n = Math.min(value.length(), MAX_ECHOED);
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
        out.append(c);
      } else {
        out.append(String.format("\\u%04x", (int) c));
      }
    }
    return out.append(value.length() > n ? "\"..." : "\"").toString();
  }
}
