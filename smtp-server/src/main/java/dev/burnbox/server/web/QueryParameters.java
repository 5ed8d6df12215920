package dev.burnbox.server.web;

import io.javalin.http.Context;

/**
 * How every route reads its optional query parameters: a parameter given empty ({@code ?after=}) is
 * the same as one not given. URL templates write every parameter ({@code
 * next?after=&since=&from=&subject=&timeout=}), and scripts fill them from variables that may be
 * unset ({@code after=${LAST:-}}), so an empty value means "none", never a value to check.
 */
final class QueryParameters {
  private QueryParameters() {}

  /** The value of query parameter {@code name}, or null if it is absent or empty. */
  static String optional(Context ctx, String name) {
    String value = ctx.queryParam(name);
    return value == null || value.isEmpty() ? null : value;
  }
}
