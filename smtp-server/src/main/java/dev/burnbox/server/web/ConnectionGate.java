package dev.burnbox.server.web;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web port's connection discipline, as {@code SessionGate} is the SMTP port's: a connection
 * from an untrusted address that already holds {@link WebLimits#maxConnectionsPerIp} is refused:
 * {@link WebGuard} answers its request 429 and closes it, and it has at most {@link
 * #REFUSED_HEAD_TIMEOUT} to send that request (past {@value #ANSWERED_PAST_CAP} refused connections
 * of one address at once, one more is closed as soon as it opens, unanswered); a connection that
 * has not sent a whole request head within {@link WebLimits#headTimeout} of opening (or of the end
 * of its previous response) is closed by a check that runs a few times per timeout. The total cap
 * is Jetty's {@link NetworkConnectionLimit} (see {@link #totalLimit}). Each refusal goes to {@link
 * WebRefusals} ({@link WebRefusal#TOO_MANY_CONNECTIONS_PER_IP}, {@link WebRefusal#HEAD_TIMEOUT},
 * {@link WebRefusal#TOO_MANY_CONNECTIONS}); {@code burnbox.http.connections} is the number open
 * now.
 *
 * <p>Installed as a {@link Connection.Listener} on the web connector; {@link WebGuard} reports when
 * each request head is complete ({@link #requestStarted}) and when its response is done ({@link
 * #requestEnded}). A request in progress, such as an open event stream, is never cut by the head
 * deadline; it still counts against both caps. Thread-safe.
 */
final class ConnectionGate implements Connection.Listener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ConnectionGate.class);

  /**
   * Connections of one address past its cap that wait for their request to be answered 429; one
   * more is closed as it opens, unanswered. They hold no request thread, and a few tell a client
   * why it is refused.
   */
  static final int ANSWERED_PAST_CAP = 8;

  /** The request head deadline of a connection past the cap, if shorter than the port's. */
  static final Duration REFUSED_HEAD_TIMEOUT = Duration.ofSeconds(2);

  /**
   * One open connection: its client, whether it is past the cap (to be answered 429), and since
   * when it waits for a request head.
   */
  private static final class Tracked {
    private final InetAddress address;
    private final boolean trusted;
    private final boolean refused;
    private volatile long awaitingHeadSince;
    private volatile boolean inRequest;

    Tracked(InetAddress address, boolean trusted, boolean refused, long now) {
      this.address = address;
      this.trusted = trusted;
      this.refused = refused;
      this.awaitingHeadSince = now;
    }
  }

  private final WebLimits limits;
  private final WebRefusals refusals;
  private final LongSupplier nanoClock;
  private final Map<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();
  private final Map<InetAddress, Integer> refusedPerAddress = new ConcurrentHashMap<>();
  private final Map<Connection, Tracked> open = new ConcurrentHashMap<>();
  private final MeterRegistry registry;
  private final Gauge openGauge;
  private ScheduledExecutorService deadlineCheck;

  ConnectionGate(
      WebLimits limits, WebRefusals refusals, MeterRegistry registry, LongSupplier nanoClock) {
    this.limits = Objects.requireNonNull(limits, "limits");
    this.refusals = Objects.requireNonNull(refusals, "refusals");
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.registry = registry;
    this.openGauge =
        Gauge.builder("burnbox.http.connections", open, Map::size)
            .description("connections to the web port open now, event streams included")
            .strongReference(true)
            .register(registry);
  }

  /**
   * Jetty's cap on the connections {@code server}'s connectors hold at once: at {@code
   * maxConnections} they stop accepting (new clients wait in the listen queue, none is refused)
   * until one closes. Each time the cap is reached counts one {@code too_many_connections}.
   */
  NetworkConnectionLimit totalLimit(Server server) {
    return new NetworkConnectionLimit(limits.maxConnections(), server) {
      @Override
      protected void limit() {
        super.limit();
        refusals.record(
            WebRefusal.TOO_MANY_CONNECTIONS,
            null,
            "the web port holds " + limits.maxConnections() + " connections: accepting paused");
      }
    };
  }

  @Override
  public void onOpened(Connection connection) {
    InetAddress address = address(connection.getEndPoint().getRemoteSocketAddress());
    boolean trusted = address == null || limits.trustedNetworks().contains(address);
    boolean refused = false;
    if (!trusted && perAddress.merge(address, 1, Integer::sum) > limits.maxConnectionsPerIp()) {
      release(perAddress, address);
      refused = true;
      boolean answered = refusedPerAddress.merge(address, 1, Integer::sum) <= ANSWERED_PAST_CAP;
      refusals.record(
          WebRefusal.TOO_MANY_CONNECTIONS_PER_IP,
          address,
          "holds "
              + limits.maxConnectionsPerIp()
              + " connections: "
              + (answered ? "429" : "closed"));
      if (!answered) {
        release(refusedPerAddress, address);
        connection.getEndPoint().close();
        return;
      }
    }
    open.put(connection, new Tracked(address, trusted, refused, nanoClock.getAsLong()));
  }

  @Override
  public void onClosed(Connection connection) {
    Tracked tracked = open.remove(connection);
    if (tracked != null) {
      forget(tracked);
    }
  }

  /**
   * Whether {@code connection} is past its address's cap: its request is to be answered 429 and the
   * connection closed.
   */
  boolean refused(Connection connection) {
    Tracked tracked = open.get(connection);
    return tracked != null && tracked.refused;
  }

  /** The request head on {@code connection} is complete: no deadline until its response is done. */
  void requestStarted(Connection connection) {
    Tracked tracked = open.get(connection);
    if (tracked != null) {
      tracked.inRequest = true;
    }
  }

  /**
   * The response on {@code connection} is done: the next request head is due within the timeout.
   */
  void requestEnded(Connection connection) {
    Tracked tracked = open.get(connection);
    if (tracked != null) {
      tracked.awaitingHeadSince = nanoClock.getAsLong();
      tracked.inRequest = false;
    }
  }

  /**
   * Closes every connection that has waited longer than the head timeout for a whole request head.
   *
   * @return how many were closed
   */
  int cutLateHeads() {
    long now = nanoClock.getAsLong();
    long timeout = limits.headTimeout().toNanos();
    long refusedTimeout = Math.min(timeout, REFUSED_HEAD_TIMEOUT.toNanos());
    int cut = 0;
    for (Map.Entry<Connection, Tracked> entry : open.entrySet()) {
      Tracked tracked = entry.getValue();
      long deadline = tracked.refused ? refusedTimeout : timeout;
      if (!tracked.inRequest && now - tracked.awaitingHeadSince > deadline) {
        if (open.remove(entry.getKey(), tracked)) {
          forget(tracked);
          if (!tracked.refused) { // (a refused one was counted as it opened)
            refusals.record(
                WebRefusal.HEAD_TIMEOUT,
                tracked.address,
                "no whole request head within " + limits.headTimeout() + ": closed");
          }
          entry.getKey().getEndPoint().close();
          cut++;
        }
      }
    }
    return cut;
  }

  /** Starts the deadline check: a few times per head timeout, at most once a second. */
  void start() {
    long period =
        Math.clamp(limits.headTimeout().toMillis() / 4, 50, Duration.ofSeconds(1).toMillis());
    deadlineCheck =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("burnbox-http-head-deadline").factory());
    deadlineCheck.scheduleWithFixedDelay(
        () -> {
          try {
            cutLateHeads();
          } catch (RuntimeException e) {
            log.warn("checking request head deadlines failed", e); // the next check runs anyway
          }
        },
        period,
        period,
        TimeUnit.MILLISECONDS);
  }

  /** Connections open now (admitted, not yet closed). */
  int openConnections() {
    return open.size();
  }

  /** Stops the deadline check and removes the gauge (a later server may register its own). */
  @Override
  public void close() {
    if (deadlineCheck != null) {
      deadlineCheck.shutdownNow();
    }
    registry.remove(openGauge);
  }

  /** Gives back the place of a connection no longer open. */
  private void forget(Tracked tracked) {
    if (tracked.refused) {
      release(refusedPerAddress, tracked.address);
    } else if (!tracked.trusted) {
      release(perAddress, tracked.address);
    }
  }

  private static void release(Map<InetAddress, Integer> counts, InetAddress address) {
    counts.computeIfPresent(address, (key, count) -> count == 1 ? null : count - 1);
  }

  private static InetAddress address(SocketAddress remote) {
    return remote instanceof InetSocketAddress socket ? socket.getAddress() : null;
  }
}
