package dev.burnbox.server.web;

import java.util.Objects;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The outermost handler of the web server, ahead of Javalin: it sees every request whose head Jetty
 * has parsed, before any route.
 *
 * <p>Guarantees: every response to such a request carries the {@link SecurityHeaders} that it does
 * not set itself, whoever writes it (a route, Javalin, or Jetty's servlet layer after a failure:
 * they are added when the response is committed); an HTTP/1.0 request with a {@code
 * Transfer-Encoding} header is answered 400 and its connection closed (RFC 9112 section 6.1: such
 * framing is faulty, and a front proxy may frame the body differently, the shape of request
 * smuggling), counted as {@link WebRefusal#BAD_FRAMING}; a request on a connection that the {@link
 * ConnectionGate} refused (past its address's cap) is answered 429 and its connection closed; the
 * gate learns when each request head is complete and when its response is done, for the head
 * deadline. Requests Jetty cannot parse never get here: {@link WebErrorHandler} answers them.
 * Thread-safe.
 */
final class WebGuard extends Handler.Wrapper {
  private final ConnectionGate gate;
  private final WebErrorHandler errors;

  WebGuard(ConnectionGate gate, WebErrorHandler errors) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.errors = Objects.requireNonNull(errors, "errors");
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    Connection connection = request.getConnectionMetaData().getConnection();
    gate.requestStarted(connection);
    request.addHttpStreamWrapper(stream -> new GuardedStream(stream, connection));
    if (gate.refused(connection)) {
      WebErrorHandler.answerRefused(
          request, response, callback, WebRefusal.TOO_MANY_CONNECTIONS_PER_IP);
      return true;
    }
    if (request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_1_0
        && request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING)) {
      errors.refuse(request, response, callback, WebRefusal.BAD_FRAMING);
      return true;
    }
    return super.handle(request, response, callback);
  }

  /** The request's stream: adds the headers at commit, tells the gate when the exchange ends. */
  private final class GuardedStream extends HttpStream.Wrapper {
    private final Connection connection;

    GuardedStream(HttpStream wrapped, Connection connection) {
      super(wrapped);
      this.connection = connection;
    }

    @Override
    public void prepareResponse(HttpFields.Mutable headers) {
      SecurityHeaders.addMissing(headers);
      super.prepareResponse(headers);
    }

    // the gate hears of the end first: the next request on this connection may start at once
    @Override
    public void succeeded() {
      gate.requestEnded(connection);
      super.succeeded();
    }

    @Override
    public void failed(Throwable x) {
      gate.requestEnded(connection);
      super.failed(x);
    }
  }
}
