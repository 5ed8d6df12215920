package dev.burnbox.server.web;

import dev.burnbox.server.smtp.ByteBudget;
import io.javalin.http.Context;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
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
 * Smaller messages are not counted: what they hold is bounded by the connection caps (under 128 KiB
 * per connection), and they stay readable while large ones wait.
 *
 * <p>Without it, 400 connections asking for a 4 MiB message's raw source and reading nothing ran a
 * 1 GiB heap out of memory (docs/security.md, "The web port"). With it, clients that stall large
 * downloads can make other large reads wait (503) until Jetty's idle timeout ends their
 * connections, and nothing else. Publishes {@code burnbox.web.read.bytes}. Thread-safe.
 */
final class WebReadBudget {
  /**
   * The default capacity: part of what the memory plan sets aside for the service besides the
   * store, the SMTP in-flight bytes and the sessions ({@code MemoryPlan.BASE_BYTES}).
   */
  static final long DEFAULT_CAPACITY = 16L << 20;

  /** The raw size from which a message read counts against the budget. */
  static final int LARGE_MESSAGE = 64 << 10;

  private final ByteBudget held;
  private final WebRefusals refusals;

  WebReadBudget(long capacity, MeterRegistry registry, WebRefusals refusals) {
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
    reserve(ctx, bytes);
    Request.addCompletionListener(request, failure -> release(bytes));
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
    reserve(ctx, bytes);
    try {
      return work.get();
    } finally {
      release(bytes);
    }
  }

  /** Removes the gauge, so that a later server on the same registry can publish its own. */
  void unregister() {
    held.unregister();
  }

  private static long cost(long rawLength) {
    return 2 * rawLength;
  }

  private void reserve(Context ctx, long bytes) {
    if (!held.tryReserveOrAlone(bytes)) {
      refusals.record(
          WebRefusal.READ_BUDGET_FULL,
          InboxWaits.address(ctx.req().getRemoteAddr()),
          bytes + " bytes needed");
      throw new Busy(bytes);
    }
  }

  private void release(long bytes) {
    held.release(bytes);
  }
}
