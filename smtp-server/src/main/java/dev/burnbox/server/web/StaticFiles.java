package dev.burnbox.server.web;

import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;
import io.javalin.router.JavalinDefaultRoutingApi;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * The front end's files under {@code /static/} (the style sheet; the scripts of the inbox, the
 * pages and the operator monitor, and what the inbox's and the monitor's live rows share; the
 * icon), and at the root {@code /robots.txt} (inbox and message pages are not to be crawled) and
 * {@code /favicon.ico} (the SVG icon, for clients that ask for it without reading a page's {@code
 * <link rel="icon">}): read from the class path once and served from memory with their type, {@code
 * Cache-Control: max-age=0} and a strong {@code ETag} (a matching {@code If-None-Match} answers
 * 304). Any other name is a 404. Javalin's static file handler did the same by mounting the whole
 * jar as a zip file system, which read the directory of its 10,000 entries at each start.
 * Thread-safe.
 */
final class StaticFiles {
  private static final Map<String, String> TYPES =
      Map.of(
          "burnbox.css", "text/css;charset=utf-8",
          "inbox.js", "text/javascript;charset=utf-8",
          "page.js", "text/javascript;charset=utf-8",
          "monitor.js", "text/javascript;charset=utf-8",
          "rows.js", "text/javascript;charset=utf-8",
          "favicon.svg", "image/svg+xml",
          "robots.txt", "text/plain;charset=utf-8");

  private record File(byte[] bytes, String type, String etag) {}

  private final Map<String, File> files;

  /** Reads the files from {@code /web/static/} on the class path. */
  StaticFiles() {
    Map<String, File> read = new HashMap<>();
    TYPES.forEach((name, type) -> read.put(name, read(name, type)));
    this.files = Map.copyOf(read);
  }

  void addRoutes(JavalinDefaultRoutingApi routes) {
    routes.get("/static/{file}", ctx -> serve(ctx, ctx.pathParam("file")));
    routes.get("/robots.txt", ctx -> serve(ctx, "robots.txt"));
    routes.get("/favicon.ico", ctx -> serve(ctx, "favicon.svg"));
  }

  private void serve(Context ctx, String name) {
    File file = files.get(name);
    if (file == null) {
      throw new NotFoundResponse("no such resource: " + ctx.path());
    }
    ctx.header("Cache-Control", "max-age=0").header("ETag", file.etag());
    if (file.etag().equals(ctx.header("If-None-Match"))) {
      ctx.status(304);
      return;
    }
    ctx.contentType(file.type()).result(file.bytes());
  }

  private static File read(String name, String type) {
    byte[] bytes = WebServer.resource("/web/static/" + name);
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      return new File(bytes, type, '"' + HexFormat.of().formatHex(digest, 0, 12) + '"');
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
