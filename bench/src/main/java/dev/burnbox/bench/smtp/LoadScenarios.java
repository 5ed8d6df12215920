package dev.burnbox.bench.smtp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The load bench's three scenarios against one {@link LoadTarget}, each driven by virtual threads
 * on the client side, each bounded in time: when its window closes it closes every connection it
 * opened and returns one {@link LoadResult}. Only transactions that start and end inside the
 * measured window count. Client connections come from {@code 127.0.0.1} to {@code 127.0.0.K}
 * ({@code sourceAddresses} = K) so that many thousands fit in the ephemeral port range.
 */
public final class LoadScenarios {
  /** The envelope sender of every message. */
  public static final String SENDER = "load@bench.test";

  private static final int READ_TIMEOUT_MILLIS = 30_000;
  private static final int RECIPIENTS = 1000;

  /** Slow clients arrive evenly over this first part of the window. */
  public static final Duration RAMP = Duration.ofSeconds(1);

  private final LoadTarget target;
  private final LoadMessages messages;
  private final InetAddress[] sources;
  private volatile boolean pipelining = true;

  /**
   * @param sourceAddresses how many loopback addresses clients bind to, 1 to 254
   */
  public LoadScenarios(LoadTarget target, LoadMessages messages, int sourceAddresses) {
    if (sourceAddresses < 1 || sourceAddresses > 254) {
      throw new IllegalArgumentException("sourceAddresses must be 1 to 254");
    }
    this.target = target;
    this.messages = messages;
    this.sources = new InetAddress[sourceAddresses];
    for (int i = 0; i < sourceAddresses; i++) {
      try {
        sources[i] = InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) (i + 1)});
      } catch (UnknownHostException impossible) {
        throw new IllegalStateException(impossible);
      }
    }
  }

  /** Stops pipelining MAIL/RCPT/DATA on connections opened from now on (to compare). */
  public LoadScenarios withoutPipelining() {
    pipelining = false;
    return this;
  }

  private InetAddress source(int client) {
    return sources[client % sources.length];
  }

  private static String recipient() {
    return "box" + ThreadLocalRandom.current().nextInt(RECIPIENTS) + "@burnbox.test";
  }

  /**
   * {@code connections} persistent connections send back to back; after all are greeted (or none
   * more has been for a second, as with a pool smaller than {@code connections}), {@code warmup}
   * runs unmeasured, then {@code measure} is measured.
   */
  public LoadResult blast(int connections, Duration warmup, Duration measure)
      throws InterruptedException {
    Run run = new Run();
    CountDownLatch ready = new CountDownLatch(connections);
    CountDownLatch go = new CountDownLatch(1);
    long[] window = new long[2]; // from, until; written before go opens
    List<Thread> workers = new ArrayList<>(connections);
    for (int i = 0; i < connections; i++) {
      int client = i;
      workers.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    boolean counted = false;
                    SmtpLoadClient smtp = null;
                    try {
                      smtp = run.open(source(client));
                      if (!run.greetAndEhlo(smtp)) {
                        return;
                      }
                      ready.countDown();
                      counted = true;
                      go.await();
                      while (true) {
                        long start = System.nanoTime();
                        if (start >= window[1]) {
                          break;
                        }
                        int code = smtp.send(SENDER, recipient(), messages.next());
                        long end = System.nanoTime();
                        if (start >= window[0] && end <= window[1]) {
                          run.tally.transaction(code, end - start);
                        }
                        if (code == 421) {
                          break; // the server closes the connection
                        }
                      }
                    } catch (IOException e) {
                      run.failed(e);
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    } finally {
                      run.closeQuietly(smtp);
                      if (!counted) {
                        ready.countDown();
                      }
                    }
                  }));
    }
    awaitReadyOrStalled(ready);
    window[0] = System.nanoTime() + warmup.toNanos();
    window[1] = window[0] + measure.toNanos();
    go.countDown();
    String label = "blast %s C=%d".formatted(target.label(), connections);
    double planned = (warmup.toNanos() + measure.toNanos()) / 1e9;
    double[] cpu = new double[2];
    double rss;
    try (ProgressLine progress = new ProgressLine(label, planned, run.tally::accepted)) {
      parkUntil(window[0]);
      cpu[0] = target.probe().cpuSeconds();
      parkUntil(window[1]);
      cpu[1] = target.probe().cpuSeconds();
      rss = target.probe().rssMebibytes();
    }
    run.finish(workers);
    return LoadResult.of(
        "blast",
        target.label(),
        connections,
        measure.toNanos() / 1e9,
        run.tally,
        cpu[1] - cpu[0],
        rss);
  }

  /**
   * Opens {@code connections} connections (greeting and EHLO each) and holds them; then, every
   * {@code interval} for {@code settle} plus {@code measure}, one connection picked at random sends
   * a message. Only the last {@code measure} counts: latency (from the first byte written) of the
   * messages started in it, and server CPU and RSS read over it. The unmeasured {@code settle} lets
   * the server's JIT and GC settle after the burst of connecting, which otherwise dominates a short
   * window's CPU time.
   */
  public LoadResult idleMany(int connections, Duration settle, Duration measure, Duration interval)
      throws InterruptedException {
    Run run = new Run();
    AtomicReferenceArray<SmtpLoadClient> clients = new AtomicReferenceArray<>(connections);
    Semaphore connecting = new Semaphore(200);
    List<Thread> openers = new ArrayList<>(connections);
    AtomicInteger opened = new AtomicInteger();
    String label = "idle-many %s N=%d".formatted(target.label(), connections);
    try (ProgressLine progress =
        new ProgressLine(label + " connecting", connections / 2000.0, opened::get)) {
      for (int i = 0; i < connections; i++) {
        int client = i;
        connecting.acquire();
        openers.add(
            Thread.ofVirtual()
                .start(
                    () -> {
                      SmtpLoadClient smtp = null;
                      try {
                        smtp = run.open(source(client));
                        if (run.greetAndEhlo(smtp)) {
                          clients.set(client, smtp);
                          opened.incrementAndGet();
                          smtp = null;
                        }
                      } catch (IOException e) {
                        run.failed(e);
                      } finally {
                        run.closeQuietly(smtp);
                        connecting.release();
                      }
                    }));
      }
      awaitOpenedOrStalled(openers, opened);
      run.abandonUngreeted();
      for (Thread opener : openers) {
        opener.join();
      }
    }
    AtomicBoolean[] busy = new AtomicBoolean[connections];
    for (int i = 0; i < connections; i++) {
      busy[i] = new AtomicBoolean(clients.get(i) == null);
    }
    List<Thread> senders = new ArrayList<>();
    long start = System.nanoTime();
    long measureFrom = start + settle.toNanos();
    long until = measureFrom + measure.toNanos();
    double cpuBefore = Double.NaN;
    try (ProgressLine progress =
        new ProgressLine(label, (until - start) / 1e9, run.tally::accepted)) {
      for (long at = start; at < until; at += interval.toNanos()) {
        parkUntil(at);
        boolean measured = at >= measureFrom;
        if (measured && Double.isNaN(cpuBefore)) {
          cpuBefore = target.probe().cpuSeconds();
        }
        int pick = ThreadLocalRandom.current().nextInt(connections);
        if (!busy[pick].compareAndSet(false, true)) {
          if (measured) {
            run.tally.outcome(clients.get(pick) == null ? "no-connection" : "skipped-busy");
          }
          continue;
        }
        SmtpLoadClient smtp = clients.get(pick);
        senders.add(
            Thread.ofVirtual()
                .start(
                    () -> {
                      try {
                        long sent = System.nanoTime();
                        int code = smtp.send(SENDER, recipient(), messages.next());
                        if (measured) {
                          run.tally.transaction(code, System.nanoTime() - sent);
                        }
                      } catch (IOException e) {
                        run.failed(e);
                      } finally {
                        busy[pick].set(false);
                      }
                    }));
      }
    }
    double cpuAfter = target.probe().cpuSeconds();
    double rss = target.probe().rssMebibytes();
    run.finish(senders);
    for (int i = 0; i < connections; i++) {
      run.closeQuietly(clients.get(i));
    }
    return LoadResult.of(
        "idle-many",
        target.label(),
        connections,
        measure.toNanos() / 1e9,
        run.tally,
        cpuAfter - cpuBefore,
        rss);
  }

  /**
   * {@code clients} clients, starting evenly over the first {@link #RAMP} (they arrive at {@code
   * clients} per second), each in a loop until {@code measure} has passed: connect, wait for the
   * greeting (timed from the connect), EHLO, one message whose content is written at {@code
   * bytesPerSecond}, QUIT. Connections still waiting for a greeting at the end count as {@link
   * LoadResult#NOT_GREETED}.
   */
  public LoadResult slowClients(int clients, Duration measure, int bytesPerSecond)
      throws InterruptedException {
    Run run = new Run();
    long start = System.nanoTime();
    long until = start + measure.toNanos();
    List<Thread> workers = new ArrayList<>(clients);
    for (int i = 0; i < clients; i++) {
      int client = i;
      workers.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    parkUntil(start + RAMP.toNanos() * client / clients);
                    while (System.nanoTime() < until && !run.stopping) {
                      long connecting = System.nanoTime();
                      SmtpLoadClient smtp = null;
                      try {
                        smtp = run.open(source(client));
                        if (!run.greetAndEhlo(smtp, connecting)) {
                          return;
                        }
                        long sent = System.nanoTime();
                        int code = smtp.send(SENDER, recipient(), messages.next(), bytesPerSecond);
                        long end = System.nanoTime();
                        if (end <= until) {
                          run.tally.transaction(code, end - sent);
                        }
                        smtp.quit();
                      } catch (IOException e) {
                        run.failed(e);
                      } finally {
                        run.closeQuietly(smtp);
                      }
                    }
                  }));
    }
    double cpuBefore = target.probe().cpuSeconds();
    double rss;
    String label = "slow-clients %s n=%d".formatted(target.label(), clients);
    try (ProgressLine progress =
        new ProgressLine(label, measure.toNanos() / 1e9, run.tally::accepted)) {
      parkUntil(until);
      rss = target.probe().rssMebibytes();
    }
    double cpuAfter = target.probe().cpuSeconds();
    run.finish(workers);
    return LoadResult.of(
        "slow-clients",
        target.label(),
        clients,
        measure.toNanos() / 1e9,
        run.tally,
        cpuAfter - cpuBefore,
        rss);
  }

  /** Waits until every connection is ready, or none more has become ready for a second. */
  private static void awaitReadyOrStalled(CountDownLatch ready) throws InterruptedException {
    long last = ready.getCount();
    long lastChange = System.nanoTime();
    while (!ready.await(100, TimeUnit.MILLISECONDS)) {
      long now = System.nanoTime();
      if (ready.getCount() != last) {
        last = ready.getCount();
        lastChange = now;
      } else if (now - lastChange > TimeUnit.SECONDS.toNanos(1)) {
        return;
      }
    }
  }

  /** Waits until every opener is done, or none has opened a connection for 5 s. */
  private static void awaitOpenedOrStalled(List<Thread> openers, AtomicInteger opened)
      throws InterruptedException {
    int last = opened.get();
    long lastChange = System.nanoTime();
    for (Thread opener : openers) {
      while (!opener.join(Duration.ofMillis(100))) {
        long now = System.nanoTime();
        if (opened.get() != last) {
          last = opened.get();
          lastChange = now;
        } else if (now - lastChange > TimeUnit.SECONDS.toNanos(5)) {
          return;
        }
      }
    }
  }

  private static void parkUntil(long nanoTime) {
    long wait;
    while ((wait = nanoTime - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
    }
  }

  /** The connections and tally of one scenario run, and how it stops. */
  private final class Run {
    final TransactionTally tally = new TransactionTally();
    final Set<SmtpLoadClient> open = ConcurrentHashMap.newKeySet();
    final Map<SmtpLoadClient, Long> awaitingGreeting = new ConcurrentHashMap<>();
    final Set<SmtpLoadClient> abandoned = ConcurrentHashMap.newKeySet();
    volatile boolean stopping;

    SmtpLoadClient open(InetAddress source) throws IOException {
      SmtpLoadClient smtp = SmtpLoadClient.connect(source, target.address(), READ_TIMEOUT_MILLIS);
      open.add(smtp);
      if (!pipelining) {
        smtp.turnPipeliningOff();
      }
      if (stopping) {
        smtp.close();
      }
      return smtp;
    }

    boolean greetAndEhlo(SmtpLoadClient smtp) throws IOException {
      return greetAndEhlo(smtp, System.nanoTime());
    }

    /** Reads the greeting (timed from {@code since}) and says EHLO; false if either failed. */
    boolean greetAndEhlo(SmtpLoadClient smtp, long since) throws IOException {
      awaitingGreeting.put(smtp, since);
      int greeting;
      try {
        greeting = smtp.greeting();
      } catch (IOException e) {
        if (abandoned.contains(smtp)) {
          return false; // counted as not greeted when it was abandoned
        }
        throw e;
      } finally {
        if (!stopping) {
          awaitingGreeting.remove(smtp);
        }
      }
      tally.greeting(System.nanoTime() - since);
      if (greeting != 220) {
        tally.outcome("greeting " + greeting);
        return false;
      }
      int ehlo = smtp.ehlo("load.bench.test");
      if (ehlo != 250) {
        tally.outcome("ehlo " + ehlo);
        return false;
      }
      return true;
    }

    void failed(IOException e) {
      if (stopping) {
        return; // we closed it
      }
      tally.outcome(e instanceof SocketTimeoutException ? "timeout" : "io");
    }

    /**
     * Lets {@code threads} end their current transaction (up to 2 s), then closes every connection
     * still open; those that never got their greeting are counted as {@link
     * LoadResult#NOT_GREETED}, with their wait so far as their time to greeting (a lower bound).
     */
    void finish(List<Thread> threads) throws InterruptedException {
      stopping = true;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      for (Thread thread : threads) {
        long left = deadline - System.nanoTime();
        if (left > 0) {
          thread.join(Duration.ofNanos(left));
        }
      }
      long now = System.nanoTime();
      for (long since : awaitingGreeting.values()) {
        tally.outcome(LoadResult.NOT_GREETED);
        tally.greeting(now - since); // a lower bound of its time to greeting
      }
      for (SmtpLoadClient smtp : open) {
        closeQuietly(smtp);
      }
      for (Thread thread : threads) {
        thread.join(Duration.ofSeconds(5));
      }
    }

    /** Counts every connection still waiting for its greeting as not greeted, and closes it. */
    void abandonUngreeted() {
      long now = System.nanoTime();
      for (Map.Entry<SmtpLoadClient, Long> waiting : awaitingGreeting.entrySet()) {
        if (awaitingGreeting.remove(waiting.getKey()) != null) {
          abandoned.add(waiting.getKey());
          tally.outcome(LoadResult.NOT_GREETED);
          tally.greeting(now - waiting.getValue());
          closeQuietly(waiting.getKey());
        }
      }
    }

    void closeQuietly(SmtpLoadClient smtp) {
      if (smtp == null) {
        return;
      }
      open.remove(smtp);
      try {
        smtp.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }
}
