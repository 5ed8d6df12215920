package dev.burnbox.server.web;

import java.util.Locale;
import org.eclipse.jetty.http.HttpStatus;

/**
 * Every reason the web port refuses a connection or a request, before any route sees it or (the
 * read budget, the waits) when a route would read a message or wait for one: what the client gets
 * (an HTTP status, or the connection closed or left waiting) and its {@code reason} tag on the
 * refusal counter, {@code burnbox.refusals{stage="web", reason}} ({@code burnbox_refusals_total} in
 * Prometheus, next to the SMTP intake's and the pipeline's refusals). The connection reasons use
 * the SMTP side's tags. Errors that routes answer themselves (a bad inbox name, an unknown message)
 * are answers, not refusals, and are not counted. Tags are unique snake_case; docs/security.md
 * lists every constant, checked by {@code WebRefusalTableTest}.
 */
enum WebRefusal {
  TOO_MANY_CONNECTIONS(
      0,
      "accepting paused",
      "the web port holds `--http-max-connections`: new clients wait in the listen queue until one"
          + " closes (counted once each time it fills)"),
  TOO_MANY_CONNECTIONS_PER_IP(
      HttpStatus.TOO_MANY_REQUESTS_429,
      "429 Too Many Requests, `Retry-After: 1`, connection closed (one without a request head"
          + " within "
          + ConnectionGate.REFUSED_HEAD_TIMEOUT.toSeconds()
          + " s, or past "
          + ConnectionGate.ANSWERED_PAST_CAP
          + " such connections of the address at once: closed unanswered)",
      "a connection from an untrusted address that has `--http-max-connections-per-ip` open"),
  HEAD_TIMEOUT(
      0,
      "connection closed",
      "no whole request head within `--http-head-timeout` of the connection's opening or of its"
          + " previous response"),
  BAD_REQUEST(
      HttpStatus.BAD_REQUEST_400,
      "400 Bad Request",
      "a request line or header Jetty cannot parse or accept (control characters, a bad `Host`,"
          + " bad or conflicting framing headers)"),
  BAD_FRAMING(
      HttpStatus.BAD_REQUEST_400,
      "400 Bad Request, connection closed",
      "an HTTP/1.0 request with `Transfer-Encoding` (RFC 9112 section 6.1)"),
  URI_TOO_LONG(HttpStatus.URI_TOO_LONG_414, "414 URI Too Long", "a request target over 8 KiB"),
  HEADERS_TOO_LARGE(
      HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431,
      "431 Request Header Fields Too Large",
      "a request head over 8 KiB"),
  UPGRADE_REQUIRED(
      HttpStatus.UPGRADE_REQUIRED_426,
      "426 Upgrade Required",
      "an HTTP/2 preface (only HTTP/1.x is served)"),
  HTTP_VERSION_NOT_SUPPORTED(
      HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505,
      "505 HTTP Version Not Supported",
      "an unknown HTTP version"),
  OTHER_CLIENT_ERROR(0, "its 4xx status", "any other client error that Jetty answers itself"),
  READ_BUDGET_FULL(
      HttpStatus.SERVICE_UNAVAILABLE_503,
      "503 Service Unavailable, `Retry-After: 1`",
      "a request that reads a message of 64 KiB or more while such messages held for other"
          + " requests leave no room for it (1/64 of the heap, at least 16 MiB, each counted at"
          + " twice its raw size; one untrusted address at most half of it; one request always"
          + " fits alone)"),
  TOO_MANY_WAITS(
      HttpStatus.TOO_MANY_REQUESTS_429,
      "429 Too Many Requests, `Retry-After: 1`",
      "a wait for the next message (`/api/v1/inboxes/{name}/next`) from an untrusted address that"
          + " already has "
          + InboxWaits.MAX_WAITS_PER_ADDRESS
          + " open");

  /** The value of the {@code stage} tag of every web refusal. */
  static final String STAGE = "web";

  private final int status;
  private final String answer;
  private final String situation;

  WebRefusal(int status, String answer, String situation) {
    this.status = status;
    this.answer = answer;
    this.situation = situation;
  }

  /** The status answered, or 0 if the connection is closed or waits instead. */
  int status() {
    return status;
  }

  /** The metric tag, e.g. {@code head_timeout}. */
  String tag() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** What the client gets, in a few words, for the documentation. */
  String answer() {
    return answer;
  }

  /** When it is given, in a few words (markdown), for the documentation. */
  String situation() {
    return situation;
  }

  /** The refusal of an error status that Jetty answers itself, or null if it is no refusal. */
  static WebRefusal ofStatus(int status) {
    return switch (status) {
      case HttpStatus.BAD_REQUEST_400 -> BAD_REQUEST;
      case HttpStatus.URI_TOO_LONG_414 -> URI_TOO_LONG;
      case HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431 -> HEADERS_TOO_LARGE;
      case HttpStatus.UPGRADE_REQUIRED_426 -> UPGRADE_REQUIRED;
      case HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505 -> HTTP_VERSION_NOT_SUPPORTED;
      default -> HttpStatus.isClientError(status) ? OTHER_CLIENT_ERROR : null;
    };
  }
}
