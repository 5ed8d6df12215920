package dev.burnbox.server.web;

import dev.burnbox.server.smtp.ByteBudget;
import dev.burnbox.server.smtp.NetworkList;
import io.javalin.http.Context;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.server.Request;

/**
 * The bytes of large stored messages the web side holds at once while it answers: a request that
 * reads a message of {@value #LARGE_MESSAGE} bytes or more holds twice its raw size (its bytes and
 * what is made of them: decoded text, sanitized HTML, a page) until its response is complete, so a
 * client that stops reading a large response keeps its share held and no more. A request that does
 * not fit is refused with {@link Busy} (the server answers 503 with {@code Retry-After}), holding
 * nothing; one request always fits when nothing else is held, so any stored message can be read.
 * One client address holds at most half the capacity (unless nothing else is held), so a client
 * that reads large messages slowly, or many at once, leaves the other half to everyone else.
 * Smaller messages are not counted: what they hold is bounded by the connection caps (under 128 KiB
 * per connection), and they stay readable while large ones wait.
 *
 * <p>Without it, 400 connections asking for a 4 MiB message's raw source and reading nothing ran a
 * 1 GiB heap out of memory (docs/security.md, "The web port"). With it, clients on several
 * addresses that stall large downloads can make other large reads wait (503) until Jetty's idle
 * timeout ends their connections, and nothing else. Publishes {@code burnbox.web.read.bytes}.
 * Thread-safe.
 */
final class WebReadBudget {
  /** The least capacity, whatever the heap: 16 MiB. */
  static final long MIN_CAPACITY = 16L << 20;

  /**
   * The capacity for a heap of {@code heapBytes}: 1/64 of it, at least {@link #MIN_CAPACITY} (16
   * MiB in {@code -Xmx1g}, 32 MiB in {@code -Xmx2g}); the memory plan sets it aside besides the
   * store ({@code MemoryPlan}).
   */
  static long capacityFor(long heapBytes) {
    return Math.max(MIN_CAPACITY, heapBytes / 64);
  }

  /** The raw size from which a message read counts against the budget. */
  static final int LARGE_MESSAGE = 64 << 10;

  private final ByteBudget held;
  private final long perAddress;
  // bytes held for each client address (its text as the request gives it), while it holds any
  private final Map<String, Long> heldByAddress = new ConcurrentHashMap<>();
  private final NetworkList trusted; // exempt from the per-address half (e.g. a reverse proxy)
  private final WebRefusals refusals;

  WebReadBudget(long capacity, NetworkList trusted, MeterRegistry registry, WebRefusals refusals) {
    this.perAddress = capacity / 2;
    this.trusted = Objects.requireNonNull(trusted, "trusted");
    this.held =
        new ByteBudget(
            capacity,
            "burnbox.web.read.bytes",
            "bytes of stored messages the web side holds now for requests",
            registry);
    this.refusals = refusals;
  }

  /** A request refused because the messages held leave no room for its message. */
  static final class Busy extends RuntimeException {
    Busy(long bytes) {
      super(
          "the server is sending other large messages; try again shortly ("
              + bytes
              + " bytes needed)",
          null,
          false,
          false);
    }
  }

  /**
   * Holds what reading a message of {@code rawLength} bytes costs (nothing for a small one) until
   * {@code ctx}'s response is complete.
   *
   * @throws Busy if it does not fit (nothing is then held)
   */
  void holdUntilAnswered(Context ctx, long rawLength) {
    if (rawLength < LARGE_MESSAGE) {
      return;
    }
    long bytes = cost(rawLength);
    Request request =
        Objects.requireNonNull(
            ServletContextRequest.getServletContextRequest(ctx.req()), "not a Jetty request");
    String address = reserve(ctx, bytes);
    Request.addCompletionListener(request, failure -> release(address, bytes));
  }

  /**
   * Runs {@code work}, which reads a message of {@code rawLength} bytes and lets it go, holding its
   * cost (nothing for a small one) meanwhile.
   *
   * @throws Busy if it does not fit (then {@code work} does not run)
   */
  <T> T whileReading(Context ctx, long rawLength, Supplier<T> work) {
    if (rawLength < LARGE_MESSAGE) {
      return work.get();
    }
    long bytes = cost(rawLength);
    String address = reserve(ctx, bytes);
    try {
      return work.get();
    } finally {
      release(address, bytes);
    }
  }

  /** Removes the gauge, so that a later server on the same registry can publish its own. */
  void unregister() {
    held.unregister();
  }

  private static long cost(long rawLength) {
    return 2 * rawLength;
  }

  /**
   * Reserves {@code bytes} for the request's client address, which it returns (null for a trusted
   * one, which only the whole budget bounds).
   */
  private String reserve(Context ctx, long bytes) {
    String address = Objects.requireNonNullElse(ctx.req().getRemoteAddr(), "");
    InetAddress client = InboxWaits.address(address);
    if (client != null && trusted.contains(client)) {
      if (!held.tryReserveOrAlone(bytes)) {
        refused(client, bytes);
      }
      return null;
    }
    boolean[] reserved = {false};
    heldByAddress.compute(
        address,
        (a, before) -> {
          long mine = before == null ? 0 : before;
          // past its half only when nothing at all is held: then it fits alone, as anyone does
          if (mine + bytes > perAddress && held.reserved() > 0 || !held.tryReserveOrAlone(bytes)) {
            return before;
          }
          reserved[0] = true;
          return mine + bytes;
        });
    if (!reserved[0]) {
      refused(client, bytes);
    }
    return address;
  }

  private void refused(InetAddress client, long bytes) {
    refusals.record(WebRefusal.READ_BUDGET_FULL, client, bytes + " bytes needed");
    throw new Busy(bytes);
  }

  private void release(String address, long bytes) {
    if (address != null) {
      heldByAddress.computeIfPresent(address, (a, mine) -> mine == bytes ? null : mine - bytes);
    }
    held.release(bytes);
  }
}
