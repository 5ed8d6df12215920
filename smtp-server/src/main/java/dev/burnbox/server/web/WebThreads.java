package dev.burnbox.server.web;

import io.javalin.http.Context;
import io.javalin.util.function.ThrowingRunnable;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The web port's threads: requests run on platform threads, one per connection at most, and only
 * the requests that wait (event streams, {@code /next}) move to a virtual thread each.
 *
 * <p>Why not a virtual thread per request: the SMTP intake runs its sessions on virtual threads
 * too, and the JDK has one scheduler for all of them, a carrier per core. Under an SMTP blast its
 * queues are never empty, and a web request's virtual thread waited behind them: {@code /healthz}
 * and inbox pages took 0.6 s (median) to 3.6 s with 100 connections blasting on 2 cores, against
 * 0.05 s with the intake on platform threads ({@code docs/benchmarks.md}, "The web under an SMTP
 * blast"). Platform threads are scheduled by the operating system alongside the carriers, so a page
 * gets its share of the CPU at once. A wait holds no platform thread: it is handed to a virtual
 * thread with the servlet's asynchronous mode ({@link #waiting}), where being scheduled a little
 * late costs nothing.
 *
 * <p>Thread-safe. {@link #close()} interrupts the waits still running and lets them answer.
 */
final class WebThreads implements AutoCloseable {
  /** Threads Jetty keeps for itself beside the requests': its acceptor, selectors, a reserve. */
  static final int JETTY_OWN_THREADS = 16;

  private final ExecutorService waits;

  /** Waits on virtual threads named {@code name-wait-N}. */
  WebThreads(String name) {
    this.waits =
        Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(name + "-wait-", 0).factory());
  }

  /**
   * A new pool of platform threads named {@code name-N} for a Jetty server's requests on at most
   * {@code maxConnections} connections: one thread per connection at most, plus Jetty's acceptor
   * and selectors, so no request ever waits for a thread that another holds. A client that reads
   * its response slowly (a large raw message, a stalled download) holds its own connection's thread
   * until Jetty's idle timeout, and nobody else's. Threads are made when needed; an idle one ends
   * after a minute, so a quiet server holds a few.
   */
  static QueuedThreadPool requestPool(String name, int maxConnections) {
    QueuedThreadPool pool =
        new QueuedThreadPool(Math.addExact(maxConnections, JETTY_OWN_THREADS), 4, 60_000);
    pool.setName(name);
    return pool;
  }

  /**
   * Runs {@code task}, a request that may wait long for mail, on a virtual thread of its own, the
   * response kept open (no timeout) until it returns; its exceptions go to the server's exception
   * handlers as a request's would.
   */
  void waiting(Context ctx, ThrowingRunnable<Exception> task) {
    ctx.async(
        config -> {
          config.executor = waits;
          config.timeout = 0;
        },
        task);
  }

  /**
   * Interrupts the waits still running and gives them up to {@link #CLOSE_GRACE} to answer (an
   * interrupted wait answers at once); call it before the server stops, so that no wait completes
   * on a request Jetty has recycled.
   */
  @Override
  public void close() {
    waits.shutdownNow();
    try {
      waits.awaitTermination(CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether every wait has ended. */
  boolean waitsEnded() {
    return waits.isTerminated();
  }

  /** How long {@link #close()} waits for the waits to answer. */
  static final Duration CLOSE_GRACE = Duration.ofSeconds(2);
}
