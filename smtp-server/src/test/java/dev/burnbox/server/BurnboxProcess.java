package dev.burnbox.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./burnbox serve} as a separate process, started as a user starts it (launcher script,
 * packaged jar, a real JVM) on free loopback ports, its output in a log file. Not thread-safe: one
 * test drives it. {@link #close()} kills it if a test left it running.
 */
final class BurnboxProcess implements AutoCloseable {
  private static final Path LAUNCHER = Path.of("..", "burnbox").toAbsolutePath().normalize();
  private static final Pattern LISTENING = Pattern.compile("listening smtp=(\\d+) http=(\\d+)");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(180); // may build the jar

  private final Process process;
  private final Path log;
  private int smtpPort = -1;
  private int httpPort = -1;

  private BurnboxProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code burnbox serve --bind 127.0.0.1 --smtp-port 0 --http-port 0} plus {@code options}
   * with {@code javaOptions} in {@code BURNBOX_JAVA_OPTS}; {@link #awaitListening} waits for it.
   * The launcher builds the jar first if {@code src/main} is newer than it, so start a second
   * process while a first one is starting only when the jar is fresh (as in {@code mvn verify}).
   */
  static BurnboxProcess start(Path log, String javaOptions, String... options) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                LAUNCHER.toString(),
                "serve",
                "--bind",
                "127.0.0.1",
                "--smtp-port",
                "0",
                "--http-port",
                "0"));
    command.addAll(List.of(options));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("BURNBOX_JAVA_OPTS", javaOptions);
    // no start-up cache: nodes start at once, and BurnboxLauncherIT tests the cache on its own
    builder.environment().put("BURNBOX_AOT", "off");
    return new BurnboxProcess(builder.start(), log);
  }

  /**
   * Waits for the {@code listening} line and reads the ports from it.
   *
   * @return this
   * @throws AssertionError if the process exits or does not listen in time (with its log)
   */
  BurnboxProcess awaitListening() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher ports = LISTENING.matcher(Files.readString(log));
      if (ports.find()) {
        smtpPort = Integer.parseInt(ports.group(1));
        httpPort = Integer.parseInt(ports.group(2));
        return this;
      }
      if (!process.isAlive()) {
        throw new AssertionError("burnbox exited: " + Files.readString(log));
      }
      Thread.sleep(50);
    }
    process.destroyForcibly();
    throw new AssertionError("no 'listening' line: " + Files.readString(log));
  }

  int smtpPort() {
    return smtpPort;
  }

  int httpPort() {
    return httpPort;
  }

  /** Everything the process printed so far. */
  String log() throws IOException {
    return Files.readString(log);
  }

  /**
   * Sends SIGTERM and waits up to {@code timeout} for the process to exit.
   *
   * @return its exit code
   * @throws AssertionError if it is still running after {@code timeout} (it is then killed)
   */
  int terminate(Duration timeout) throws IOException, InterruptedException {
    process.destroy(); // SIGTERM
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("still running " + timeout + " after SIGTERM: " + log());
    }
    return process.exitValue();
  }

  /** Kills the process if it still runs, and waits for it. */
  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
