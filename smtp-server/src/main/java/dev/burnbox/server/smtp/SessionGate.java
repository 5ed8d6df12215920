package dev.burnbox.server.smtp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
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
    private volatile long lastActivityNanos = System.nanoTime();
    private volatile Waiting waiting = Waiting.FOR_COMMAND;
    private volatile boolean endAccounted;
    private volatile String user;
    private volatile boolean esmtp;
    private volatile boolean verified;
    private int errors; // since the last message taken; the session's thread only

    Client(InetAddress address, boolean trusted) {
      this.address = address;
      this.trusted = trusted;
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
    clients.put(session, new Client(address, trusted));
    if (session.getSocket() instanceof SessionSocket socket) {
      socket.onSubEthaError(() -> erred(session)); // unknown verbs never reach our commands
    }
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
   * @return the number of sessions cut
   */
  int cutStalledSessions() {
    long now = System.nanoTime();
    return cutWaiting(
        "stalled",
        (client, waiting) -> {
          boolean content = waiting == Client.Waiting.FOR_CONTENT;
          long limit = (content ? settings.dataTimeout() : settings.commandTimeout()).toNanos();
          if (now - client.lastActivityNanos <= limit) {
            return null;
          }
          return content ? Refusal.DATA_TIMEOUT : Refusal.COMMAND_TIMEOUT;
        });
  }

  /**
   * Sends {@code 421 4.3.2} to every session waiting for its client (a command or content) and
   * closes its input, as a cut for a stall does: what a stop does before it closes the connections,
   * so that no client is dropped without a reply (RFC 5321 §3.8). Sessions waiting on the intake
   * itself are left to finish or be closed. Each is counted as a {@code shutting_down} refusal.
   *
   * @return the number of sessions cut
   */
  int cutWaitingSessions() {
    return cutWaiting("stopping", (client, waiting) -> Refusal.SHUTTING_DOWN);
  }

  /**
   * Cuts each session waiting for its client (not on the intake, its end not yet accounted for) for
   * which {@code reason} gives a refusal, given the client and what it waits for (read once): sends
   * the refusal's reply, closes the session's input and counts the refusal with {@code detail}.
   * Returns the number cut.
   */
  private int cutWaiting(String detail, BiFunction<Client, Client.Waiting, Refusal> reason) {
    int cut = 0;
    for (Map.Entry<Session, Client> entry : clients.entrySet()) {
      Client client = entry.getValue();
      Client.Waiting waiting = client.waiting;
      if (waiting == Client.Waiting.ON_INTAKE || client.endAccounted) {
        continue;
      }
      Refusal refusal = reason.apply(client, waiting);
      if (refusal != null) {
        client.endAccounted();
        cut(entry.getKey(), refusals.record(refusal, client.address(), detail));
        cut++;
      }
    }
    return cut;
  }

  /**
   * Sends {@code reply} and closes the session's input. The session's thread is blocked reading, so
   * nothing else writes to the socket now; it then ends the session as if the client had gone.
   */
  private static void cut(Session session, SmtpReply reply) {
    Socket socket = session.getSocket();
    try {
      String line = reply.code() + " " + reply.enhancedStatus() + " " + reply.text() + "\r\n";
      socket.getOutputStream().write(line.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
    } catch (IOException e) {
      // the client is gone; close the input all the same
    }
    try {
      // set before the session last noted its activity (a volatile write this thread has read)
      if (session.isTLSStarted()) {
        socket.close(); // TLS sockets cannot half-close
      } else {
        socket.shutdownInput();
      }
    } catch (IOException e) {
      // already closed: the session is ending anyway
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
