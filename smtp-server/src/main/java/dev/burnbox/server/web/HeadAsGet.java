package dev.burnbox.server.web;

import io.javalin.http.Context;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A handler ahead of Javalin that answers a {@code HEAD} request exactly as the {@code GET} of the
 * same URL (status and headers, {@code Content-Type} and {@code Content-Length} included) without
 * its body: the routes see a {@code GET} and write their answer, and Jetty, which still knows that
 * the request on the connection was a {@code HEAD}, sends its head only. A route whose answer never
 * ends (an event stream) asks {@link #isHead} and sends its headers only.
 *
 * <p>Why: Javalin answers {@code HEAD} on any URL with a {@code GET} route 200, empty {@code
 * text/plain}, without running the route, so a stopping node's health check, an unknown message, a
 * bad id or a private inbox all looked fine to a {@code HEAD}. A {@code HEAD} costs what its {@code
 * GET} costs. Thread-safe.
 */
final class HeadAsGet extends Handler.Wrapper {
  /** The request attribute that marks a {@code HEAD} request, which the routes see as a GET. */
  private static final String HEAD = HeadAsGet.class.getName();

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (!HttpMethod.HEAD.is(request.getMethod())) {
      return super.handle(request, response, callback);
    }
    request.setAttribute(HEAD, Boolean.TRUE);
    Request asGet =
        new Request.Wrapper(request) {
          @Override
          public String getMethod() {
            return HttpMethod.GET.asString();
          }
        };
    return super.handle(asGet, response, callback);
  }

  /** Whether the request of {@code ctx}, which its route sees as a {@code GET}, is a HEAD. */
  static boolean isHead(Context ctx) {
    return ctx.req().getAttribute(HEAD) != null;
  }
}
