package dev.burnbox.bench.soak;

import dev.burnbox.bench.smtp.ServerProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.IntStream;

/**
 * The nothing-lost soak: runs the real service as a child process ({@link ServerProcess}) with
 * short timeouts and a snapshot file, sends {@link SoakSettings#mails} mails over many connections
 * that misbehave at random ({@link Misbehaviour}, DATA or BDAT, one to twenty recipients), restarts
 * the server under load (SIGTERM, then start again on the snapshot), and checks the {@link Ledger}
 * against the store through the HTTP API after every restart, every {@link SoakSettings#pruneEvery}
 * mails, and at the end.
 *
 * <p>Checks run with sending paused: each client holds a read lock for a whole connection, the
 * check takes the write lock. Restarts run under load, so sessions in flight meet the shutdown.
 */
final class LedgerSoak {
  private static final Duration CLIENT_READ_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(60);

  private final SoakSettings settings;
  private final SoakMails mails;
  private final Ledger ledger;
  private final List<String> inboxes;
  private final AtomicLong nextSequence = new AtomicLong();
  private final AtomicLong refusedConnections = new AtomicLong();
  private final ReentrantReadWriteLock sending = new ReentrantReadWriteLock();
  private final List<Integer> exitCodes = new ArrayList<>();
  private volatile InetSocketAddress smtp;
  private volatile Throwable workerFailure;
  private volatile ServerProcess server;
  private int starts;
  private int checks;
  private long entriesRead;
  private long checkingMillis;

  LedgerSoak(SoakSettings settings) {
    this.settings = settings;
    this.mails = new SoakMails(settings.seed());
    this.ledger = new Ledger(mails, settings.mails());
    this.inboxes = IntStream.range(0, settings.inboxes()).mapToObj(i -> "soak-" + i).toList();
  }

  /** Runs the soak; the server is stopped when it returns or throws. */
  SoakReport run() throws IOException, InterruptedException {
    Files.createDirectories(settings.workDir());
    Files.deleteIfExists(settings.workDir().resolve("store.snapshot"));
    long started = System.nanoTime();
    Thread stopServerOnExit =
        new Thread(
            () -> {
              ServerProcess running = server;
              if (running != null) {
                running.close();
              }
            });
    Runtime.getRuntime().addShutdownHook(stopServerOnExit);
    startServer();
    List<Thread> workers = new ArrayList<>();
    long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
    try {
      for (int i = 0; i < settings.connections(); i++) {
        long workerSeed = settings.seed() * 31 + i;
        workers.add(Thread.ofPlatform().name("soak-client-" + i).start(() -> work(workerSeed)));
      }
      int restarts = 0;
      long nextPrune = settings.pruneEvery();
      while (workers.stream().anyMatch(Thread::isAlive)) {
        Thread.sleep(100);
        long sent = Math.min(nextSequence.get(), settings.mails());
        if (System.nanoTime() > nextProgress) {
          nextProgress += PROGRESS_EVERY.toNanos();
          System.err.printf(
              "%,d attempts sent in %.0f s (%,d acknowledged)%n",
              sent, (System.nanoTime() - started) / 1e9, ledger.count(Outcome.ACKNOWLEDGED));
        }
        if (restarts < settings.restarts()
            && sent >= (long) settings.mails() * (restarts + 1) / (settings.restarts() + 1)) {
          restarts++;
          restart();
          check(false);
        } else if (sent >= nextPrune) {
          nextPrune += settings.pruneEvery();
          check(true);
        }
        if (workerFailure != null) {
          throw new IllegalStateException("a soak client failed", workerFailure);
        }
      }
      check(true);
      stopServer();
      return report(Duration.ofNanos(System.nanoTime() - started), restarts);
    } finally {
      nextSequence.set(Long.MAX_VALUE / 2); // stops the clients
      for (Thread worker : workers) {
        worker.join(CLIENT_READ_TIMEOUT.toMillis() * 2);
      }
      if (server != null) {
        server.close();
      }
      Runtime.getRuntime().removeShutdownHook(stopServerOnExit);
    }
  }

  private void startServer() throws IOException {
    starts++;
    server =
        ServerProcess.burnbox(
            "burnbox",
            settings.serveOptions(),
            settings.serverJvmOptions(),
            settings.workDir().resolve("server-" + starts + ".log"));
    smtp = server.target().address();
  }

  /** SIGTERM; anything but a prompt exit 0 may have skipped the snapshot, so it is a violation. */
  private void stopServer() throws InterruptedException {
    int exit = server.stop(Duration.ofSeconds(60));
    server = null;
    exitCodes.add(exit);
    if (exit != 0) {
      ledger.violation("the server exited with " + exit + " on SIGTERM (-1: killed after 60 s)");
    }
  }

  /**
   * SIGTERM under load, wait for the exit (the snapshot is written on the way out), start again.
   */
  private void restart() throws IOException, InterruptedException {
    stopServer();
    System.err.printf("restart %d: the server exited with %d%n", starts, exitCodes.getLast());
    startServer();
  }

  private void check(boolean prune) throws IOException {
    long begun = System.nanoTime();
    sending.writeLock().lock();
    try {
      InboxApiClient api = new InboxApiClient(server.httpPort());
      awaitNoSession(api);
      Ledger.CheckResult result = ledger.check(api, inboxes, prune);
      checks++;
      entriesRead += result.storedEntries();
      System.err.printf(
          "check %d%s: %,d attempts sent, %,d open checked against %,d stored entries"
              + " in %.1f s, %d new violations%n",
          checks,
          prune ? " (then deleted)" : "",
          Math.min(nextSequence.get(), settings.mails()),
          result.attempts(),
          result.storedEntries(),
          (System.nanoTime() - begun) / 1e9,
          result.newViolations());
    } finally {
      sending.writeLock().unlock();
      checkingMillis += (System.nanoTime() - begun) / 1_000_000;
    }
  }

  /**
   * Waits until the server has finished every session: a client that hung up right after the final
   * dot has ended its attempt, but the server may still be storing that mail.
   */
  private static void awaitNoSession(InboxApiClient api) throws IOException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (api.activeSmtpSessions() > 0) {
      if (System.nanoTime() > deadline) {
        throw new IOException("SMTP sessions still open 30 s after the clients stopped");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
  }

  /** One client thread: connection after connection until every mail has been attempted. */
  private void work(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    try {
      while (nextSequence.get() < settings.mails()) {
        sending.readLock().lock();
        try {
          session(random);
        } finally {
          sending.readLock().unlock();
        }
      }
    } catch (RuntimeException | Error e) {
      workerFailure = e;
    }
  }

  /** One connection carrying one to eight mails, unless a misbehaviour ends it sooner. */
  private void session(SplittableRandom random) {
    SoakConnection connection = SoakConnection.open(smtp, CLIENT_READ_TIMEOUT);
    if (connection == null) { // the server is restarting
      refusedConnections.incrementAndGet();
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
    try {
      int mailsHere = 1 + random.nextInt(8);
      for (int i = 0; i < mailsHere && connection.isOpen(); i++) {
        long sequence = nextSequence.getAndIncrement();
        if (sequence >= settings.mails()) {
          return;
        }
        // what happens to a mail depends on the seed and its number, not on thread timing
        SplittableRandom plan =
            new SplittableRandom(settings.seed() * 0x9E3779B97F4A7C15L ^ sequence);
        List<String> to = recipients(plan);
        List<String> addresses = to.stream().map(inbox -> inbox + "@soak.test").toList();
        boolean bdat = plan.nextInt(5) == 0;
        byte[] raw = bdat ? mails.binaryMail(sequence, addresses) : mails.mail(sequence, addresses);
        Misbehaviour behaviour = Misbehaviour.pick(plan, settings.stalls());
        Duration stall = settings.timeout().plusSeconds(1);
        ledger.record(
            connection.send(
                sequence, mails.token(sequence), to, raw, bdat, behaviour, stall, plan));
      }
    } finally {
      connection.quit();
    }
  }

  /** Mostly one inbox, sometimes a few, now and then many; always distinct. */
  private List<String> recipients(SplittableRandom random) {
    int draw = random.nextInt(100);
    int count = draw < 75 ? 1 : draw < 95 ? 2 + random.nextInt(4) : 10 + random.nextInt(11);
    return random.ints(0, inboxes.size()).distinct().limit(count).mapToObj(inboxes::get).toList();
  }

  private SoakReport report(Duration elapsed, int restarts) {
    Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
    for (Outcome o : Outcome.values()) {
      outcomes.put(o, ledger.count(o));
    }
    Map<Misbehaviour, Long> behaviours = new EnumMap<>(Misbehaviour.class);
    for (Misbehaviour m : Misbehaviour.values()) {
      behaviours.put(m, ledger.count(m));
    }
    return new SoakReport(
        settings,
        elapsed,
        Duration.ofMillis(checkingMillis),
        ledger.attempts(),
        outcomes,
        behaviours,
        ledger.refusals(),
        ledger.wellBehavedNotAcknowledged(),
        ledger.stallReplies(),
        ledger.bdatAttempts(),
        ledger.recipients(),
        ledger.unknownStored(),
        ledger.unknownNotStored(),
        restarts,
        List.copyOf(exitCodes),
        checks,
        entriesRead,
        refusedConnections.get(),
        ledger.violationCount(),
        ledger.violations());
  }
}
