package dev.burnbox.server.web;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a request that waits (an event stream, a {@code /next} wait) as soon as its client has
 * gone: closed its side of the connection or reset it. A client that goes ends its wait within
 * moments, where it used to hold the wait's place, thread and store subscription (and, for a
 * stream, its connection) until the wait's timeout or a failed heartbeat.
 *
 * <p>Why this is needed: while Jetty 12 handles an HTTP/1.1 request whose body has been read, it
 * reads nothing more from the connection (the next bytes would be the next request), so it learns
 * that a client went only when a write fails. Neither {@code Request.addFailureListener}, nor
 * {@code EndPoint.isOpen()}, nor a servlet {@code AsyncListener} hears of it (tried on Jetty
 * 12.1.12: a client closed during a wait left all three silent until the wait answered).
 *
 * <p>How: one platform thread watches the sockets of the waiting requests with a selector of its
 * own, beside Jetty's (a socket may be registered with several selectors), and reads nothing from
 * them. A socket that becomes readable with no byte to read has reached its end or failed: its
 * client is gone. One with bytes to read holds a request the client sent ahead (pipelining): the
 * client is there, and the socket is no longer watched. Connections that are not plain sockets are
 * not watched. Thread-safe.
 */
final class ClientHangups implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ClientHangups.class);

  /**
   * The longest the watching thread sleeps: sockets Jetty closed are let go of at least this often.
   */
  private static final long MAX_SELECT_MILLIS = 1_000;

  /** One request being watched: stop watching with {@link #close()}. */
  interface Watch extends AutoCloseable {
    /** Stops watching; {@code onGone} is not called after this returns. Idempotent. */
    @Override
    void close();
  }

  private static final Watch NOT_WATCHED = () -> {};

  /** A socket being watched, and what to do once when its client goes. */
  private final class Watched implements Watch {
    private final SocketChannel channel;
    private final Runnable onGone;
    private final AtomicBoolean ended = new AtomicBoolean();
    private SelectionKey key; // the watching thread's only

    Watched(SocketChannel channel, Runnable onGone) {
      this.channel = channel;
      this.onGone = onGone;
    }

    @Override
    public void close() {
      if (ended.compareAndSet(false, true)) {
        stopping.add(this);
        selector.wakeup();
      }
    }

    /** The client went: tells the request, once, unless it stopped watching first. */
    void gone() {
      if (ended.compareAndSet(false, true)) {
        onGone.run();
      }
    }
  }

  private final Selector selector;
  private final Thread thread;
  private final Queue<Watched> starting = new ConcurrentLinkedQueue<>();
  private final Queue<Watched> stopping = new ConcurrentLinkedQueue<>();
  private volatile boolean closed;

  /** Starts the watching thread, named {@code name}. */
  ClientHangups(String name) {
    try {
      this.selector = Selector.open();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open a selector to watch waiting clients", e);
    }
    this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this::watchLoop);
    thread.start();
  }

  /**
   * Watches the connection of {@code ctx}'s request until the returned watch is closed, and calls
   * {@code onGone} (on the watching thread: it must only signal the waiting request) once if the
   * client goes meanwhile. Close the watch before the request's response is complete.
   */
  Watch watch(Context ctx, Runnable onGone) {
    Objects.requireNonNull(onGone, "onGone");
    SocketChannel channel = channel(ctx);
    if (channel == null || closed) {
      return NOT_WATCHED;
    }
    Watched watched = new Watched(channel, onGone);
    starting.add(watched);
    selector.wakeup();
    return watched;
  }

  private static SocketChannel channel(Context ctx) {
    Request request = ServletContextRequest.getServletContextRequest(ctx.req());
    if (request == null) {
      return null;
    }
    EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
    return endPoint instanceof SocketChannelEndPoint socket ? socket.getChannel() : null;
  }

  private void watchLoop() {
    try {
      while (!closed) {
        stopAndStartWatching();
        selector.select(MAX_SELECT_MILLIS);
        for (SelectionKey key : selector.selectedKeys()) {
          Watched watched = (Watched) key.attachment();
          key.cancel(); // either way, this socket has told what it had to tell
          try {
            if (nothingToRead(watched.channel)) {
              watched.gone();
            }
          } catch (RuntimeException e) { // one socket's trouble stops no other's watch
            log.debug("a waiting client's socket could not be read for its end", e);
          }
        }
        selector.selectedKeys().clear();
      }
    } catch (IOException | RuntimeException e) { // ClosedSelectorException on close()
      if (!closed) {
        log.warn("watching waiting clients failed; a client that goes is noticed late", e);
      }
    } finally {
      closed = true; // watch() then watches nothing more, rather than queueing for nobody
    }
  }

  /**
   * Lets go of the sockets whose requests stopped waiting and registers the new ones. A socket
   * Jetty closed is dropped by the selector at its next select; one registered again on a
   * keep-alive connection needs its earlier, cancelled key dropped first, which {@code selectNow}
   * does.
   */
  private void stopAndStartWatching() throws IOException {
    for (Watched watched; (watched = stopping.poll()) != null; ) {
      if (watched.key != null) {
        watched.key.cancel();
      }
    }
    selector.selectNow(); // drops cancelled keys; what it selects is handled after the next select
    for (Watched watched; (watched = starting.poll()) != null; ) {
      if (watched.ended.get()) {
        continue;
      }
      try {
        watched.key = watched.channel.register(selector, SelectionKey.OP_READ, watched);
      } catch (ClosedChannelException e) {
        watched.gone();
      } catch (IllegalBlockingModeException e) {
        watched.key = null; // a blocking socket cannot be watched: its client is noticed late
      } catch (CancelledKeyException e) {
        starting.add(watched); // its earlier key is dropped at the next select; try again then
        selector.wakeup();
        return;
      }
    }
  }

  /** Whether {@code channel}, reported readable, has no byte to read: its end, or an error. */
  private static boolean nothingToRead(SocketChannel channel) {
    try {
      return channel.socket().getInputStream().available() == 0;
    } catch (IOException e) {
      return true;
    }
  }

  /** Stops the watching thread; requests watched now are not told of their clients any more. */
  @Override
  public void close() {
    closed = true;
    selector.wakeup();
    try {
      thread.join(MAX_SELECT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      selector.close();
    } catch (IOException e) {
      log.debug("closing the selector of waiting clients failed", e);
    }
  }
}
