package dev.burnbox.server.smtp;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.burnbox.server.config.BurnboxVersion;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.subethamail.smtp.internal.server.Command;
import org.subethamail.smtp.server.SMTPServer;

/**
 * The SMTP intake: a SubEtha SMTP server speaking ESMTP (SIZE, 8BITMIME, SMTPUTF8, PIPELINING,
 * CHUNKING, ENHANCEDSTATUSCODES, STARTTLS) that hands every fully received message to a {@link
 * MessageAcceptor} and answers with its reply. One thread (virtual or platform) per connection, or
 * a fixed pool ({@link ThreadModel#POOL}).
 *
 * <p>Limits and refusals are described on {@link IntakeSettings}; each refusal, the intake's and
 * the acceptor's ({@link Refused}), is counted on {@code burnbox.refusals{stage, reason}} and
 * logged by one throttle ({@link Refusal}). Other meters: {@code burnbox.smtp.sessions}, {@code
 * burnbox.smtp.sessions.active}, {@code burnbox.smtp.messages{outcome}}, {@code
 * burnbox.smtp.bytes}, {@code burnbox.smtp.inflight.bytes}.
 *
 * <p>Lifecycle: {@link #start()} once, then {@link #stop(Duration)} (or {@link #close()}); it
 * cannot be restarted. The methods are thread-safe. Counters registered by several intakes on one
 * registry are shared; the active-sessions gauge belongs to the running intake and is removed at
 * stop.
 */
public final class SmtpIntake implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SmtpIntake.class);

  /** How long {@link #close()} lets in-flight messages finish. */
  public static final Duration DEFAULT_STOP_DEADLINE = Duration.ofSeconds(10);

  /** The listen backlog: SubEtha's 50 stalls bursts of connects. */
  private static final int BACKLOG = 1024;

  private final IntakeSettings settings;
  private final InetAddress bindAddress;
  private final MessageAcceptor acceptor;
  private final MeterRegistry registry;
  private volatile SMTPServer server;
  private ExecutorService sessions;
  private volatile SessionGate gate;
  private MessageTransactions transactions;
  private ByteBudget inflight;
  private ScheduledExecutorService stallCutter;
  private boolean started;
  private boolean stopped;

  /**
   * @param settings the port to listen on and which limits to apply
   * @param bindAddress the address to listen on; null for every interface
   * @param acceptor receives each message; must be thread-safe
   * @param registry where the meters go
   */
  public SmtpIntake(
      IntakeSettings settings,
      InetAddress bindAddress,
      MessageAcceptor acceptor,
      MeterRegistry registry) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.bindAddress = bindAddress;
    this.acceptor = Objects.requireNonNull(acceptor, "acceptor");
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /**
   * Reads the TLS key store, if any, and starts listening; returns when the socket is bound. A
   * self-signed key is made at the first STARTTLS.
   *
   * @throws IOException if the port cannot be bound; the message begins with {@code --smtp-port
   *     PORT: }
   * @throws IllegalArgumentException if the TLS key store or the {@code --smtp-auth} file cannot be
   *     read: a setting it cannot use, the message beginning with the option's name
   * @throws IllegalStateException if called twice
   */
  public synchronized void start() throws IOException {
    if (started) {
      throw new IllegalStateException("an SmtpIntake starts only once");
    }
    started = true;
    Inputs inputs = Inputs.read(settings, registry);
    Refusals refusals = new Refusals(registry, System::nanoTime);
    SessionGate admission = new SessionGate(settings, refusals, registry);
    gate = admission;
    inflight =
        new ByteBudget(
            settings.maxInflightBytes(),
            "burnbox.smtp.inflight.bytes",
            "message content bytes held in memory by SMTP sessions now",
            registry);
    transactions =
        new MessageTransactions(
            settings,
            acceptor,
            refusals,
            gate,
            new MessageRateFilter(settings.perIpMessageRate(), Ticker.systemTicker()),
            Clock.systemUTC(),
            inflight,
            registry);
    sessions = sessionThreads();
    // SubEtha's own limit blocks its accept loop; keep it above ours so that the gate, which
    // answers 421 4.7.0 and counts, is the one clients meet
    int subethaConnectionLimit =
        settings.maxConnections() + Math.max(16, settings.maxConnections() / 10);
    SMTPServer built =
        SMTPServer.port(settings.port())
            .bindAddress(Optional.ofNullable(bindAddress))
            .hostName(settings.hostName())
            .softwareName("Burnbox " + BurnboxVersion.current())
            .backlog(BACKLOG)
            // one write per pipelined group; a connection a stop closes unanswered hears 421
            .serverSocketFactory(() -> new ReplyBatchingServerSocket(admission::closedUnanswered))
            .messageHandlerFactory(transactions)
            .executorService(sessions)
            .sessionHandler(gate)
            .maxConnections(subethaConnectionLimit)
            .maxRecipients(-1) // MessageTransaction enforces the limit, with 452 4.5.3
            .maxMessageSize(settings.maxMessageSize())
            // no read timeout: SessionGate's stall cutter enforces the command and data
            // timeouts, and a timed read costs a virtual thread a timer each time it parks
            .connectionTimeoutMs(0)
            .insertReceivedHeaders(false) // the acceptor gets the bytes exactly as sent
            .serverThreadName("smtp-accept")
            .build();
    for (Command command :
        IntakeCommands.all(settings, refusals, gate, inputs.tls(), inputs.authenticator())) {
      built.getCommandHandler().addCommand(command);
    }
    try {
      built.start();
    } catch (RuntimeException e) {
      sessions.shutdownNow();
      if (e.getCause() instanceof IOException io) {
        throw new IOException("--smtp-port " + settings.port() + ": " + io.getMessage(), io);
      }
      throw e;
    }
    server = built;
    stallCutter =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("smtp-stall-cutter").factory());
    stallCutter.scheduleWithFixedDelay(this::cutStalledSessions, 1, 1, TimeUnit.SECONDS);
    log.info("SMTP intake listening on port {} with {}", port(), settings);
  }

  /**
   * Reads what {@link #start()} reads before it listens, as it reads them, and does nothing else
   * (binds no port, starts no thread): the TLS key store and the {@code --smtp-auth} credentials
   * file, if the settings name them. For a check of a configuration ({@code serve
   * --print-settings}).
   *
   * @throws IllegalArgumentException if the key store or the credentials file cannot be read, or
   *     the key store holds no usable key; the message begins with the option's name
   */
  public static void check(IntakeSettings settings) {
    Inputs.read(settings, new SimpleMeterRegistry());
  }

  /** The files {@link #start()} reads, read; {@link #check} reads them the same way. */
  private record Inputs(Supplier<SSLContext> tls, SmtpAuthenticator authenticator) {
    static Inputs read(IntakeSettings settings, MeterRegistry registry) {
      return new Inputs(
          ServerTls.onDemand(settings), new SmtpAuthenticator(settings.auth(), registry));
    }
  }

  private ExecutorService sessionThreads() {
    return switch (settings.threads()) {
      case VIRTUAL ->
          Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("smtp-session-", 0).factory());
      case PLATFORM -> {
        ThreadFactory daemons = Thread.ofPlatform().name("smtp-session-", 0).daemon().factory();
        // SubEtha's accept loop bounds the number of sessions, and with it this pool
        yield Executors.newCachedThreadPool(daemons);
      }
      case POOL ->
          Executors.newFixedThreadPool(
              settings.poolThreads(),
              Thread.ofPlatform().name("smtp-session-", 0).daemon().factory());
    };
  }

  /**
   * The port listened on: the one asked for, or the one picked for port 0.
   *
   * @throws IllegalStateException before {@link #start()}
   */
  public int port() {
    SMTPServer listening = server;
    if (listening == null) {
      throw new IllegalStateException("not started");
    }
    return listening.getPortAllocated();
  }

  /**
   * Whether {@link #stop} has begun: from then on new connections and new MAIL commands get {@code
   * 421 4.3.2}.
   */
  boolean stopping() {
    SessionGate admission = gate;
    return admission != null && admission.draining();
  }

  /**
   * Stops gracefully: new connections and new MAIL commands get {@code 421 4.3.2} at once, messages
   * already under way get until {@code deadline} to finish, then every session waiting for its
   * client gets {@code 421 4.3.2} too, every connection is closed (one accepted but not yet
   * answered gets {@code 421 4.3.2} as it closes) and session threads still running are
   * interrupted. No client holds the stop: one that does not read its replies loses them and is
   * closed a second later at most. Returns within about {@code deadline} plus two seconds (three at
   * worst); does nothing if not started or already stopped.
   */
  public synchronized void stop(Duration deadline) {
    if (server == null || stopped) {
      return;
    }
    stopped = true;
    long end = System.nanoTime() + deadline.toNanos();
    gate.drain();
    stallCutter.shutdownNow();
    while (transactions.inProgress() > 0 && System.nanoTime() < end && pause()) {
      // messages under way may finish
    }
    gate.cutWaitingSessions(); // idle or stalled clients hear why before their connection closes
    // SubEtha's stop() closes the listener and every connection, then waits on the executor
    // without a time limit: run it aside and bound the wait
    Thread stopper = Thread.ofPlatform().daemon().name("smtp-stop").start(server::stop);
    try {
      long left = Math.max(TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()), 200);
      if (!stopper.join(Duration.ofMillis(left))) {
        log.warn("SMTP sessions still running after the stop deadline; interrupting them");
        sessions.shutdownNow();
        stopper.join(Duration.ofSeconds(1));
      }
    } catch (InterruptedException e) {
      sessions.shutdownNow();
      Thread.currentThread().interrupt();
    }
    gate.unregister();
    inflight.unregister();
    log.info("SMTP intake on port {} stopped", server.getPortAllocated());
  }

  private void cutStalledSessions() {
    try {
      gate.cutStalledSessions();
    } catch (RuntimeException e) { // keep the schedule going
      log.warn("cutting stalled SMTP sessions failed", e);
    }
  }

  /** {@link #stop(Duration)} with {@link #DEFAULT_STOP_DEADLINE}. */
  @Override
  public void close() {
    stop(DEFAULT_STOP_DEADLINE);
  }

  /** Sleeps a little; false if interrupted (the interrupt flag is kept). */
  private static boolean pause() {
    try {
      Thread.sleep(10);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
