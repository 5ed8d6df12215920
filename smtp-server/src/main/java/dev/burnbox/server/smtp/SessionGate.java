package dev.burnbox.server.smtp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.subethamail.smtp.server.Session;
import org.subethamail.smtp.server.SessionHandler;

/**
 * Admits or refuses each new connection before its greeting: {@code 421 4.7.0} beyond the total or
 * the per-IP limit (trusted clients are exempt from the per-IP one), {@code 421 4.3.2} once the
 * intake is draining. Remembers each admitted session's {@link Client}. Publishes {@code
 * burnbox.smtp.sessions} (connections seen) and {@code burnbox.smtp.sessions.active}. Thread-safe.
 */
final class SessionGate implements SessionHandler {
  /**
   * The error replies a session may get since its last message was taken: the {@value}th closes it
   * with {@code 421 4.7.0} ({@link #erred}), as Postfix's {@code smtpd_hard_error_limit} does.
   */
  static final int MAX_ERRORS = 20;

  /**
   * What the intake knows about the client of one session, and when the session last did something
   * (to tell a command timeout from other ends). Safe to read from any thread.
   */
  static final class Client {
    /** What a session waits for: the client's next command line, its content, or the intake. */
    enum Waiting {
      FOR_COMMAND,
      FOR_CONTENT,
      ON_INTAKE
    }

    private final InetAddress address;
    private final boolean trusted;
    private final ReplyBatchingServerSocket.Connection connection;
    private volatile long lastActivityNanos = System.nanoTime();
    private volatile Waiting waiting = Waiting.FOR_COMMAND;
    private volatile boolean endAccounted;
    private volatile String user;
    private volatile boolean esmtp;
    private volatile boolean verified;
    private int errors; // since the last message taken; the session's thread only

    Client(InetAddress address, boolean trusted, ReplyBatchingServerSocket.Connection connection) {
      this.address = address;
      this.trusted = trusted;
      this.connection = connection;
    }

    InetAddress address() {
      return address;
    }

    boolean trusted() {
      return trusted;
    }

    /**
     * Whether the filters leave this client alone: a trusted address, or a client whose AUTH was
     * verified against the credentials file.
     */
    boolean exempt() {
      return trusted || verified;
    }

    /**
     * Notes a successful AUTH as {@code user}, {@code verified} against the credentials file or
     * only accepted.
     */
    void authenticated(String user, boolean verified) {
      this.user = user;
      this.verified = verified;
    }

    /** Forgets the session's AUTH (STARTTLS starts the protocol over). */
    void signOut() {
      this.user = null;
      this.verified = false;
    }

    /** Notes whether the client introduced itself with EHLO ({@code true}) or HELO. */
    void greeted(boolean extended) {
      this.esmtp = extended;
    }

    /** Whether the client said EHLO rather than HELO. */
    boolean esmtp() {
      return esmtp;
    }

    /** Whether this session has authenticated (and not started TLS since). */
    boolean authenticated() {
      return user != null;
    }

    /** Notes that the client just made progress: a whole command line, or a chunk of content. */
    void touch() {
      lastActivityNanos = System.nanoTime();
    }

    /** Notes what the session waits for from now on, and that the client just made progress. */
    void waiting(Waiting what) {
      waiting = what;
      touch();
    }

    /**
     * Notes that a message was taken: the errors so far are forgiven (Postfix, too, counts the
     * errors a client makes "without delivering mail").
     */
    void delivered() {
      errors = 0;
    }

    /** Notes that the intake itself ended the session and counted why (QUIT, data timeout...). */
    void endAccounted() {
      endAccounted = true;
    }

    /**
     * Whether the intake itself ended the session ({@link #endAccounted}): a socket it closes after
     * noting so (a cut for a stall or a stop, too many errors) was closed on purpose.
     */
    boolean endedByIntake() {
      return endAccounted;
    }
  }

  private final IntakeSettings settings;
  private final Refusals refusals;
  private final Counter sessions;
  private final MeterRegistry registry;
  private final Gauge activeGauge;
  private final AtomicInteger active = new AtomicInteger();
  private final Map<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();
  private final Map<Session, Client> clients = new ConcurrentHashMap<>();
  private volatile boolean draining;

  SessionGate(IntakeSettings settings, Refusals refusals, MeterRegistry registry) {
    this.settings = settings;
    this.refusals = refusals;
    this.sessions =
        Counter.builder("burnbox.smtp.sessions")
            .description("SMTP connections seen, admitted or not")
            .register(registry);
    this.registry = registry;
    this.activeGauge =
        Gauge.builder("burnbox.smtp.sessions.active", active, AtomicInteger::get)
            .description("SMTP sessions open now")
            .strongReference(true)
            .register(registry);
  }

  /**
   * Replies go out as soon as they are written. A pipelining client sends MAIL, RCPT and DATA at
   * once and waits for all three replies; with Nagle's algorithm on, the second reply waits for the
   * ACK of the first, which the client delays (about 40 ms on Linux): measured 46 ms per pipelined
   * transaction instead of under 1 ms.
   */
  private static void noDelay(Session session) {
    try {
      session.getSocket().setTcpNoDelay(true);
    } catch (SocketException e) {
      // the client is already gone; the session ends on its first read
    }
  }

  @Override
  public SessionAcceptance accept(Session session) {
    sessions.increment();
    noDelay(session);
    InetAddress address = session.getRemoteAddress().getAddress();
    boolean trusted = settings.trustedNetworks().contains(address);
    if (draining) {
      return refuse(Refusal.SHUTTING_DOWN, address);
    }
    if (active.incrementAndGet() > settings.maxConnections()) {
      active.decrementAndGet();
      return refuse(Refusal.TOO_MANY_CONNECTIONS, address);
    }
    if (!trusted && perAddress.merge(address, 1, Integer::sum) > settings.maxConnectionsPerIp()) {
      release(address);
      active.decrementAndGet();
      return refuse(Refusal.TOO_MANY_CONNECTIONS_PER_IP, address);
    }
    // the plain connection: after STARTTLS the session's socket is TLS over it
    SessionSocket socket = (SessionSocket) session.getSocket();
    var connection = (ReplyBatchingServerSocket.Connection) socket.connection();
    clients.put(session, new Client(address, trusted, connection));
    socket.onSubEthaError(() -> erred(session)); // unknown verbs never reach our commands
    return SessionAcceptance.success();
  }

  private SessionAcceptance refuse(Refusal refusal, InetAddress address) {
    SmtpReply reply = refusals.record(refusal, address, "");
    return SessionAcceptance.failure(reply.code(), reply.enhancedStatus() + " " + reply.text());
  }

  @Override
  public void onSessionEnd(Session session) {
    Client client = clients.remove(session);
    if (client != null) {
      if (!client.trusted()) {
        release(client.address());
      }
      active.decrementAndGet();
    }
  }

  private void release(InetAddress address) {
    perAddress.computeIfPresent(address, (key, count) -> count == 1 ? null : count - 1);
  }

  /** The client of an admitted, still open session. */
  Client client(Session session) {
    Client client = clients.get(session);
    if (client == null) {
      throw new IllegalStateException("session was not admitted: " + session.getSessionId());
    }
    return client;
  }

  /**
   * Counts an error reply to the session's client (a refused command); the {@link #MAX_ERRORS}th
   * since its last message was taken ends the session: {@code 421 4.7.0}, counted as a {@code
   * too_many_errors} refusal, then the connection is closed, not only its input (which would still
   * hand the session the commands a client pipelined after its errors). On the session's thread,
   * after the reply was written; the session then ends on its next read.
   */
  void erred(Session session) {
    Client client = clients.get(session);
    if (client == null || ++client.errors < MAX_ERRORS || client.endAccounted) {
      return;
    }
    client.endAccounted();
    SmtpReply reply = refusals.record(Refusal.TOO_MANY_ERRORS, client.address(), "");
    Socket socket = session.getSocket();
    try {
      socket.getOutputStream().write((reply + "\r\n").getBytes(StandardCharsets.US_ASCII));
      socket.close();
    } catch (IOException e) {
      // the client is gone: the session ends on its next read all the same
    }
  }

  /**
   * Cuts sessions whose client has made no progress for longer than its timeout: no whole command
   * line within the command timeout, or no chunk of content within the data timeout. These are the
   * intake's only timeouts: its sockets have no read timeout (a timed read would cost a virtual
   * thread a timer each time it waits), and a read timeout alone would let a client trickling one
   * byte at a time (slowloris) keep its connection, and its share of {@code maxConnections},
   * forever. Sessions waiting on the intake itself (a message being accepted) are never cut. The
   * cut sends {@code 421 4.4.2} and closes the session's input, so its thread ends the session as
   * if the client had gone; each cut is counted as a {@code command_timeout} or {@code
   * data_timeout} refusal. The time is wall-clock time since the client's last progress, so a
   * server starved of CPU for longer than a timeout could cut a prompt client; with the defaults
   * that takes a minute.
   *
   * <p>A client that does not read its replies (a pipelining client that never reads fills the
   * buffers in a few megabytes) is stalled too: a session whose write to it has been blocked for
   * longer than the timeout is closed at once, whatever it waits on, and counted the same way; no
   * reply could reach that client. The cutter itself never waits on a client: each reply is sent on
   * a thread of its own (see {@link #cut}).
   *
   * @return the number of sessions cut
   */
  int cutStalledSessions() {
    long now = System.nanoTime();
    int cut = 0;
    for (Map.Entry<Session, Client> entry : clients.entrySet()) {
      Client client = entry.getValue();
      Client.Waiting waiting = client.waiting;
      boolean content = waiting == Client.Waiting.FOR_CONTENT;
      long limit = (content ? settings.dataTimeout() : settings.commandTimeout()).toNanos();
      Refusal refusal = content ? Refusal.DATA_TIMEOUT : Refusal.COMMAND_TIMEOUT;
      if (client.connection.writeBlockedNanos(now) > limit) {
        if (!client.endAccounted) {
          client.endAccounted();
          refusals.record(refusal, client.address(), "not reading replies");
          cut++;
        }
        client.connection.closeAtOnce();
      } else if (waitsForClient(client, waiting) && now - client.lastActivityNanos > limit) {
        client.endAccounted();
        cut(entry.getKey(), client, refusals.record(refusal, client.address(), "stalled"));
        cut++;
      }
    }
    return cut;
  }

  /**
   * Sends {@code 421 4.3.2} to every session waiting for its client (a command or content) and
   * closes its input, as a cut for a stall does: what a stop does before it closes the connections,
   * so that no client is dropped without a reply (RFC 5321 §3.8). Each is counted as a {@code
   * shutting_down} refusal. Sessions waiting on the intake itself are left to finish or be closed;
   * one in the middle of a write to its client (the reply to its message, say) gets the time to
   * finish it. Returns once the replies are out, within about {@link
   * ReplyBatchingServerSocket#PARTING_WRITE_TIME}: a session whose client does not read is closed
   * without one.
   *
   * @return the number of sessions cut
   */
  int cutWaitingSessions() {
    long now = System.nanoTime();
    int cut = 0;
    List<Thread> parting = new ArrayList<>();
    for (Map.Entry<Session, Client> entry : clients.entrySet()) {
      Client client = entry.getValue();
      if (waitsForClient(client, client.waiting)) {
        client.endAccounted();
        SmtpReply reply = refusals.record(Refusal.SHUTTING_DOWN, client.address(), "stopping");
        parting.add(cut(entry.getKey(), client, reply));
        cut++;
      } else if (client.connection.writeBlockedNanos(now) > 0) {
        parting.add(
            Thread.ofVirtual()
                .name("smtp-parting-write")
                .start(
                    () -> {
                      try {
                        client.connection.sendHeldOrClose();
                      } catch (IOException e) {
                        // the client is gone; the stop closes the session
                      }
                    }));
      }
    }
    awaitParting(parting);
    return cut;
  }

  /** Whether the session waits for its client and its end is not yet accounted for. */
  private static boolean waitsForClient(Client client, Client.Waiting waiting) {
    return waiting != Client.Waiting.ON_INTAKE && !client.endAccounted;
  }

  /**
   * Ends a session waiting for its client: sends {@code reply} and closes the session's input, so
   * that its thread ends the session as if the client had gone. Never waits: the reply goes out on
   * the thread returned, within {@link ReplyBatchingServerSocket#PARTING_WRITE_TIME}, or the
   * connection is closed without it: a client that does not read cannot hold the cutter, and a
   * session blocked writing to such a client (its reply would wait behind that write) is closed.
   */
  private static Thread cut(Session session, Client client, SmtpReply reply) {
    String line = reply.code() + " " + reply.enhancedStatus() + " " + reply.text() + "\r\n";
    return Thread.ofVirtual()
        .name("smtp-cut")
        .start(
            () -> {
              try {
                client.connection.writeOrClose(() -> sendAndEnd(session, line));
              } catch (IOException e) {
                client.connection.closeAtOnce(); // the session ends all the same
              }
            });
  }

  /**
   * Writes {@code line} to the session's socket, then closes its input. The session's thread is
   * blocked reading (or writing to a client that does not read, when the write waits for it).
   */
  private static void sendAndEnd(Session session, String line) throws IOException {
    Socket socket = session.getSocket();
    try {
      socket.getOutputStream().write(line.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
    } catch (IOException e) {
      // the client is gone; close the input all the same
    }
    // set before the session last noted its activity (a volatile write the cutter read before it
    // started this thread)
    if (session.isTLSStarted()) {
      socket.close(); // TLS sockets cannot half-close
    } else {
      socket.shutdownInput();
    }
  }

  /**
   * Waits for the threads writing on the way out: each is bounded by {@link
   * ReplyBatchingServerSocket#PARTING_WRITE_TIME}, all together by twice that.
   */
  private static void awaitParting(List<Thread> parting) {
    long end = System.nanoTime() + 2 * ReplyBatchingServerSocket.PARTING_WRITE_TIME.toNanos();
    try {
      for (Thread writing : parting) {
        long left = end - System.nanoTime();
        if (left <= 0 || !writing.join(Duration.ofNanos(left))) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The reply for a connection the intake closes before anything was written to it: {@code 421
   * 4.3.2} while draining, counted as a {@code shutting_down} refusal; null otherwise. Only a stop
   * closes a connection that early (see {@link ReplyBatchingServerSocket}): SubEtha's stop closes
   * connections whose session has not yet sent its greeting or this gate's refusal.
   */
  SmtpReply closedUnanswered(InetAddress address) {
    return draining ? refusals.record(Refusal.SHUTTING_DOWN, address, "closed unanswered") : null;
  }

  /** Refuses every connection from now on. */
  void drain() {
    draining = true;
  }

  boolean draining() {
    return draining;
  }

  /**
   * Removes the active-sessions gauge from the registry, so that a later intake on the same
   * registry can publish its own (a registry keeps the first gauge of a name).
   */
  void unregister() {
    registry.remove(activeGauge);
  }

  /** Sessions open now. */
  int active() {
    return active.get();
  }
}
