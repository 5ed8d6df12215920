package dev.burnbox.server.web;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The error replies Jetty writes itself, for requests it rejects before any route sees them: a bad
 * request line or header (400), a URI or head too long (414, 431), an unknown HTTP version (505), a
 * refused upgrade (426), and any failure outside a route (500). Installed as the Jetty server's
 * error handler.
 *
 * <p>Guarantees: every reply carries the {@link SecurityHeaders} and a generic plain-text body (the
 * status and its standard reason phrase, never the client's text or an exception's message); every
 * 4xx and 505 is counted by {@link WebRefusals} under {@link WebRefusal#ofStatus} and logged at
 * most once per reason per 10 s, with the client's address only. Thread-safe.
 */
final class WebErrorHandler implements Request.Handler {
  private final WebRefusals refusals;

  WebErrorHandler(WebRefusals refusals) {
    this.refusals = Objects.requireNonNull(refusals, "refusals");
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status =
        response.getStatus() <= 0 ? HttpStatus.INTERNAL_SERVER_ERROR_500 : response.getStatus();
    WebRefusal refusal = WebRefusal.ofStatus(status);
    if (refusal != null) {
      refusals.record(refusal, client(request), "answered " + status);
    }
    write(response, callback, status);
    return true;
  }

  /**
   * Answers {@code request} with {@code refusal}'s status and a generic body, closes its connection
   * after the reply, and counts the refusal.
   */
  void refuse(Request request, Response response, Callback callback, WebRefusal refusal) {
    refusals.record(refusal, client(request), "answered " + refusal.status() + ", closed");
    response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    write(response, callback, refusal.status());
  }

  /**
   * Answers {@code request}, on a connection refused as it opened (and counted then), with {@code
   * refusal}'s status, {@code Retry-After: 1} and a generic body, and closes the connection after
   * the reply.
   */
  static void answerRefused(
      Request request, Response response, Callback callback, WebRefusal refusal) {
    response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    write(response, callback, refusal.status());
  }

  private static void write(Response response, Callback callback, int status) {
    response.setStatus(status);
    HttpFields.Mutable headers = response.getHeaders();
    headers.remove(HttpHeader.CONTENT_LENGTH);
    headers.put(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");
    SecurityHeaders.addMissing(headers);
    String body = status + " " + HttpStatus.getMessage(status) + "\n";
    response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
  }

  private static InetAddress client(Request request) {
    SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
    return remote instanceof InetSocketAddress socket ? socket.getAddress() : null;
  }
}
