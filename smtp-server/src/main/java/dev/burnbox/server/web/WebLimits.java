package dev.burnbox.server.web;

import dev.burnbox.server.smtp.NetworkList;
import java.time.Duration;
import java.util.Objects;

/**
 * The limits that hold the web port as the SMTP port is held: how many connections it keeps open in
 * all and from one address, and how long a client may take to send a whole request head.
 *
 * @param maxConnections connections the web port holds open at once (event streams included); past
 *     it the port stops accepting until one closes, so new clients wait in the listen queue
 * @param maxConnectionsPerIp connections one untrusted address may hold open at once; one more is
 *     answered 429 and closed ({@link ConnectionGate})
 * @param headTimeout time from a connection's opening, or from the end of its previous response, to
 *     the end of the next request head (request line and every header line): a deadline for the
 *     whole head that a trickle of bytes does not extend; a keep-alive connection idle this long is
 *     closed too
 * @param trustedNetworks clients exempt from {@code maxConnectionsPerIp} and from the per-address
 *     half of the read budget (the SMTP side's {@code --trusted-networks}, e.g. a reverse proxy in
 *     front of the web port)
 * @param readBudgetBytes what the web side may hold at once of large messages it reads for requests
 *     (each counted at twice its raw size; one untrusted address at most half of it); by default
 *     {@link WebServer#readBudgetBytes} of the heap
 */
public record WebLimits(
    int maxConnections,
    int maxConnectionsPerIp,
    Duration headTimeout,
    NetworkList trustedNetworks,
    long readBudgetBytes) {

  /**
   * @throws IllegalArgumentException if a connection limit is below 1, the head timeout is not
   *     positive or the read budget is below 1 byte
   * @throws NullPointerException if the head timeout or the trusted networks are null
   */
  public WebLimits {
    if (readBudgetBytes < 1) {
      throw new IllegalArgumentException("the web read budget must be at least 1 byte");
    }
    if (maxConnections < 1) {
      throw new IllegalArgumentException("http max connections must be at least 1");
    }
    if (maxConnectionsPerIp < 1) {
      throw new IllegalArgumentException("http max connections per ip must be at least 1");
    }
    Objects.requireNonNull(headTimeout, "headTimeout");
    if (headTimeout.isNegative() || headTimeout.isZero()) {
      throw new IllegalArgumentException("http head timeout must be positive: " + headTimeout);
    }
    Objects.requireNonNull(trustedNetworks, "trustedNetworks");
  }

  /**
   * These limits with the read budget sized from this JVM's heap ({@link
   * WebServer#readBudgetBytes}).
   */
  public WebLimits(
      int maxConnections,
      int maxConnectionsPerIp,
      Duration headTimeout,
      NetworkList trustedNetworks) {
    this(
        maxConnections,
        maxConnectionsPerIp,
        headTimeout,
        trustedNetworks,
        WebServer.readBudgetBytes(Runtime.getRuntime().maxMemory()));
  }

  /**
   * The defaults ({@link WebSettings}), with {@code trustedNetworks} exempt from the per-address
   * limits.
   */
  public static WebLimits defaults(NetworkList trustedNetworks) {
    return WebSettings.of().limits(trustedNetworks);
  }
}
