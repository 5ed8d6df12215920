package dev.burnbox.bench.startup;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The floor of {@code bench/run-footprint.sh}: the JDK's own HTTP server answering {@code GET
 * /healthz} with 200 on the loopback port given as the only argument, no framework, no settings,
 * nothing else. Launch to its first 200 is what a JVM on this machine needs before any of Burnbox's
 * own start; the script reports Burnbox's start as a ratio to it, measured in the same run. Runs
 * until killed.
 */
public final class BareHealthz {
  private BareHealthz() {}

  /** Serves {@code /healthz} on {@code args[0]} until the process is killed. */
  public static void main(String[] args) throws IOException {
    InetSocketAddress address =
        new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0]));
    HttpServer server = HttpServer.create(address, 0);
    byte[] body = "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8);
    server.createContext(
        "/healthz",
        exchange -> {
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }
}
