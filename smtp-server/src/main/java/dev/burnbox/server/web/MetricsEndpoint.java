package dev.burnbox.server.web;

import java.net.InetAddress;
import java.util.Objects;

/**
 * Where {@code GET /metrics} (the Prometheus text format) is served: on the web port next to the
 * inbox pages (the default), on an address and port of its own (and then not on the web port), or
 * nowhere.
 *
 * @param where which of the three
 * @param bindAddress with {@link Where#OWN_PORT}, the address the metrics port listens on; else
 *     null
 * @param port with {@link Where#OWN_PORT}, the metrics port (0 picks a free one); else 0
 */
public record MetricsEndpoint(Where where, InetAddress bindAddress, int port) {

  /** Where the metrics are served. */
  public enum Where {
    /** On the web port, with the pages and the API. */
    WEB_PORT,
    /** On their own address and port only. */
    OWN_PORT,
    /** Nowhere. */
    OFF
  }

  /**
   * @throws IllegalArgumentException if an own port is out of range or comes without an address, or
   *     another choice has one
   */
  public MetricsEndpoint {
    Objects.requireNonNull(where, "where");
    if (where == Where.OWN_PORT) {
      Objects.requireNonNull(bindAddress, "bindAddress");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("metrics port must be 0 to 65535: " + port);
      }
    } else if (bindAddress != null || port != 0) {
      throw new IllegalArgumentException("only metrics on their own port have an address and port");
    }
  }

  /** On the web port (the default). */
  public static MetricsEndpoint webPort() {
    return new MetricsEndpoint(Where.WEB_PORT, null, 0);
  }

  /** Not served at all. */
  public static MetricsEndpoint off() {
    return new MetricsEndpoint(Where.OFF, null, 0);
  }

  /** On {@code bindAddress}:{@code port} only (0 picks a free port). */
  public static MetricsEndpoint ownPort(InetAddress bindAddress, int port) {
    return new MetricsEndpoint(Where.OWN_PORT, bindAddress, port);
  }
}
