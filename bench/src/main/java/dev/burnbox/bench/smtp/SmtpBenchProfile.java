package dev.burnbox.bench.smtp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One run of the whole SMTP load bench: every server mode started in turn as its own process (a
 * fresh one per scenario, so RSS is not inflated by an earlier scenario's stored mail), each warmed
 * up, then measured with the same generator; Postfix's {@code smtp-source} timed against two of
 * them as a cross-check; then {@link SmtpBenchReport} writes the results. Servers are always
 * stopped, even when a point fails.
 */
public final class SmtpBenchProfile {
  /** The server modes of the issue and the references, in report order. */
  static final List<String> SERVICE_MODES = List.of("platform", "pool-50", "virtual");

  static final String BARE_INTAKE = "bare-intake";

  /** Scenario name of blast at 100 connections with MAIL/RCPT/DATA sent one at a time. */
  static final String BLAST_UNPIPELINED = "blast-unpipelined";

  static final String BARE_SUBETHA = "bare-subetha";
  static final String SMTP_SINK = "smtp-sink";
  static final String DEFAULT_MODE = "virtual";
  static final int MAX_CONNECTIONS = 20_000;
  static final List<String> SERVER_JVM = List.of("-Xmx1g");
  static final int MAIL_BYTES = 2048;

  /** How much to run. */
  public enum Size {
    /** Under 5 minutes on 2 cores: smaller sweeps, short windows. */
    QUICK(
        List.of(1, 10, 100, 1000),
        Duration.ofMillis(1000),
        Duration.ofSeconds(2),
        Duration.ofSeconds(4),
        List.of(100, 1000, 5000),
        Duration.ofSeconds(2),
        Duration.ofSeconds(3),
        List.of(500),
        Duration.ofSeconds(6),
        10_000),
    /** The sweeps: blast up to 5,000 connections, idle-many up to 15,000. */
    FULL(
        List.of(1, 10, 100, 1000, 1700, 5000),
        Duration.ofSeconds(2),
        Duration.ofSeconds(5),
        Duration.ofSeconds(8),
        List.of(100, 1000, 2500, 5000, 10_000, 15_000),
        Duration.ofSeconds(10),
        Duration.ofSeconds(10),
        List.of(500, 1000, 5000),
        Duration.ofSeconds(10),
        30_000);

    final List<Integer> blastConnections;
    final Duration blastWarmup;
    final Duration blastMeasure;
    final List<Integer> idleConnections;
    final Duration serverWarmup;
    final Duration idleSettle;
    final Duration idleMeasure;
    final List<Integer> slowClients;
    final Duration slowMeasure;
    final int smtpSourceMessages;

    Size(
        List<Integer> blastConnections,
        Duration blastWarmup,
        Duration blastMeasure,
        Duration serverWarmup,
        List<Integer> idleConnections,
        Duration idleSettle,
        Duration idleMeasure,
        List<Integer> slowClients,
        Duration slowMeasure,
        int smtpSourceMessages) {
      this.blastConnections = blastConnections;
      this.blastWarmup = blastWarmup;
      this.blastMeasure = blastMeasure;
      this.idleConnections = idleConnections;
      this.serverWarmup = serverWarmup;
      this.idleSettle = idleSettle;
      this.idleMeasure = idleMeasure;
      this.slowClients = slowClients;
      this.slowMeasure = slowMeasure;
      this.smtpSourceMessages = smtpSourceMessages;
    }
  }

  /** Slow clients write DATA at this many bytes per second: a 2 KB mail takes about 2 s. */
  static final int SLOW_RATE = 1000;

  static final Duration IDLE_INTERVAL = Duration.ofMillis(5);
  static final int SOURCE_ADDRESSES = 4;

  /**
   * Postfix's {@code smtp-source -d -s 100 -l 2048} timed against one server.
   *
   * @param server the server's label
   * @param messages how many it sent
   * @param messagesPerSecond messages over wall-clock seconds of the smtp-source process
   * @param generatorMessagesPerSecond our generator's blast at 100 connections on the same process
   */
  record CrossCheck(
      String server, int messages, double messagesPerSecond, double generatorMessagesPerSecond) {}

  private final Size size;
  private final Path postfix;
  private final Path out;
  private final Path docs;
  private final String command;
  private final String note;
  private final LoadMessages messages = LoadMessages.ofSize(MAIL_BYTES);
  private final List<LoadResult> results = new ArrayList<>();
  private final List<CrossCheck> crossChecks = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  SmtpBenchProfile(Size size, Path postfix, Path out, Path docs, String command, String note) {
    this.size = size;
    this.postfix = postfix;
    this.out = out;
    this.docs = docs;
    this.command = command;
    this.note = note;
  }

  /** Runs everything and writes the report; returns when all servers are stopped. */
  void run() throws Exception {
    Files.createDirectories(out);
    Instant started = Instant.now();
    String loadBefore = loadAverage();
    if (note != null && !note.isBlank()) {
      notes.add(note);
    }
    boolean sink = postfix != null && Files.isExecutable(postfix.resolve("usr/sbin/smtp-sink"));
    if (!sink) {
      notes.add("Postfix's smtp-sink was not available: its reference points are missing.");
    }
    List<String> blastServers = new ArrayList<>(SERVICE_MODES);
    blastServers.addAll(List.of(BARE_INTAKE, BARE_SUBETHA));
    if (sink) {
      blastServers.add(SMTP_SINK);
    }
    for (String server : blastServers) {
      try (ServerProcess process = start(server, "blast")) {
        LoadScenarios scenarios = scenarios(process);
        warmUp(scenarios, size.serverWarmup);
        for (int c : size.blastConnections) {
          results.add(scenarios.blast(c, size.blastWarmup, size.blastMeasure));
        }
        if (!server.equals(BARE_SUBETHA)) { // SubEtha does not offer PIPELINING anyway
          LoadResult unpipelined =
              scenarios(process)
                  .withoutPipelining()
                  .blast(100, size.blastWarmup, size.blastMeasure);
          results.add(unpipelined.as(BLAST_UNPIPELINED));
        }
        if (sink && (server.equals(DEFAULT_MODE) || server.equals(SMTP_SINK))) {
          crossCheck(process);
        }
      }
    }
    List<String> idleServers = new ArrayList<>(List.of("platform", "virtual", BARE_INTAKE));
    if (sink) {
      idleServers.add(SMTP_SINK);
    }
    notes.add(
        "idle-many skips pool-50: a pool of 50 threads holds at most 50 sessions, the rest wait"
            + " ungreeted (slow-clients shows it).");
    for (String server : idleServers) {
      try (ServerProcess process = start(server, "idle-many")) {
        LoadScenarios scenarios = scenarios(process);
        warmUp(scenarios, size.serverWarmup);
        for (int n : size.idleConnections) {
          results.add(scenarios.idleMany(n, size.idleSettle, size.idleMeasure, IDLE_INTERVAL));
        }
      }
    }
    for (String server : SERVICE_MODES) {
      try (ServerProcess process = start(server, "slow-clients")) {
        LoadScenarios scenarios = scenarios(process);
        warmUp(scenarios, size.serverWarmup);
        for (int n : size.slowClients) {
          results.add(scenarios.slowClients(n, size.slowMeasure, SLOW_RATE));
        }
      }
    }
    notes.add(
        "Load average (1, 5, 15 min) of the machine, shared with other work: %s at the start, %s at"
                .formatted(loadBefore, loadAverage())
            + " the end.");
    Duration took = Duration.between(started, Instant.now());
    new SmtpBenchReport(
            size, command, started, took, messages.description(), results, crossChecks, notes)
        .write(out, docs);
    System.err.printf("done in %d s; report in %s%n", took.toSeconds(), out.resolve("report.md"));
  }

  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return String.join(" ", fields[0], fields[1], fields[2]);
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private ServerProcess start(String server, String scenario) throws IOException {
    Path log = out.resolve(server + "-" + scenario + ".log");
    System.err.println("starting " + server + " for " + scenario);
    return switch (server) {
      case "platform" ->
          ServerProcess.burnbox(server, "platform", MAX_CONNECTIONS, SERVER_JVM, log);
      case "pool-50" -> ServerProcess.burnbox(server, "pool", MAX_CONNECTIONS, SERVER_JVM, log);
      case "virtual" -> ServerProcess.burnbox(server, "virtual", MAX_CONNECTIONS, SERVER_JVM, log);
      case BARE_INTAKE ->
          ServerProcess.noOp(server, "intake", "virtual", MAX_CONNECTIONS, SERVER_JVM, log);
      case BARE_SUBETHA ->
          ServerProcess.noOp(server, "subetha", "virtual", MAX_CONNECTIONS, SERVER_JVM, log);
      case SMTP_SINK -> ServerProcess.smtpSink(postfix, log);
      default -> throw new IllegalArgumentException("unknown server " + server);
    };
  }

  private LoadScenarios scenarios(ServerProcess process) {
    return new LoadScenarios(process.target(), messages, SOURCE_ADDRESSES);
  }

  /**
   * Lets the server's JIT compile the mail path before anything is measured; discarded. Two seconds
   * were too few: 20 s into idle-many at 200 mails/s, C2 compiling still took 42% of the service's
   * CPU samples (async-profiler, 2026-11-24).
   */
  private static void warmUp(LoadScenarios scenarios, Duration warmup) throws InterruptedException {
    scenarios.blast(8, warmup.minusSeconds(1), Duration.ofSeconds(1));
  }

  /**
   * Times {@code smtp-source -d -s 100 -l 2048 -m M} against the server and pairs it with our
   * generator's 100-connection blast on the same process.
   */
  private void crossCheck(ServerProcess process) throws IOException, InterruptedException {
    String label = process.target().label();
    int count = size.smtpSourceMessages;
    ProcessBuilder builder =
        new ProcessBuilder(
            postfix.resolve("usr/sbin/smtp-source").toString(),
            "-d",
            "-s",
            "100",
            "-l",
            Integer.toString(MAIL_BYTES),
            "-m",
            Integer.toString(count),
            "-f",
            LoadScenarios.SENDER,
            "-t",
            "box1@burnbox.test",
            "127.0.0.1:" + process.target().address().getPort());
    builder.environment().put("LD_LIBRARY_PATH", postfix.resolve("usr/lib/postfix").toString());
    builder
        .redirectErrorStream(true)
        .redirectOutput(out.resolve("smtp-source-" + label + ".log").toFile());
    System.err.println("smtp-source -d -s 100 -l 2048 -m " + count + " against " + label);
    long start = System.nanoTime();
    Process source = builder.start();
    if (!source.waitFor(120, TimeUnit.SECONDS)) {
      source.destroyForcibly();
      notes.add("smtp-source against " + label + " did not finish within 120 s.");
      return;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (source.exitValue() != 0) {
      notes.add("smtp-source against " + label + " exited with " + source.exitValue() + ".");
      return;
    }
    double ours =
        results.stream()
            .filter(r -> r.scenario().equals("blast") && r.server().equals(label))
            .filter(r -> r.load() == 100)
            .mapToDouble(LoadResult::messagesPerSecond)
            .findFirst()
            .orElse(Double.NaN);
    crossChecks.add(new CrossCheck(label, count, count / seconds, ours));
  }
}
