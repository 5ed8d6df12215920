package dev.burnbox.bench.smtp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server under test running as its own local process, listening on loopback, so that its CPU time
 * and RSS can be read from {@code /proc} apart from the load generator's. Its output goes to a log
 * file. {@link #close()} stops it (SIGTERM, then SIGKILL after 5 s).
 */
public final class ServerProcess implements AutoCloseable {
  private static final Pattern LISTENING =
      Pattern.compile("listening smtp=(\\d+)(?: http=(\\d+))?");

  private final Process process;
  private final LoadTarget target;
  private final int httpPort;

  private ServerProcess(Process process, String label, int port) {
    this(process, label, port, -1);
  }

  private ServerProcess(Process process, String label, int port, int httpPort) {
    this.process = process;
    this.httpPort = httpPort;
    this.target =
        new LoadTarget(
            label,
            new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
            new ProcessProbe(process.pid()));
  }

  /** The store budget the benchmarks give the service: the default before {@code auto}. */
  static final String STORE_BYTES = "256MiB";

  /**
   * The whole Burnbox service ({@code serve}: intake, decode, scan, in-memory store, web) with
   * {@code --threads=threads}, on free ports.
   */
  public static ServerProcess burnbox(
      String label, String threads, int maxConnections, List<String> jvmOptions, Path log)
      throws IOException {
    List<String> command = java(jvmOptions);
    command.addAll(
        List.of(
            "dev.burnbox.server.BurnboxCli",
            "serve",
            "--smtp-port=0",
            "--http-port=0",
            "--bind=127.0.0.1",
            "--hostname=bench.test",
            "--threads=" + threads,
            "--max-connections=" + maxConnections,
            // fixed, as before `auto`: auto leaves the 32 MiB minimum under 20,000 connections in
            // -Xmx1g, and every run would then be one of a store evicting all along
            "--store-max-bytes=" + STORE_BYTES));
    return startJava(label, command, log);
  }

  /**
   * The whole Burnbox service on free loopback ports with {@code serveOptions} added to {@code
   * serve}'s command line.
   */
  public static ServerProcess burnbox(
      String label, List<String> serveOptions, List<String> jvmOptions, Path log)
      throws IOException {
    List<String> command = java(jvmOptions);
    command.addAll(
        List.of(
            "dev.burnbox.server.BurnboxCli",
            "serve",
            "--smtp-port=0",
            "--http-port=0",
            "--bind=127.0.0.1"));
    command.addAll(serveOptions);
    return startJava(label, command, log);
  }

  /** A {@link NoOpSmtpServer} of {@code kind} ({@code intake} or {@code subetha}). */
  public static ServerProcess noOp(
      String label,
      String kind,
      String threads,
      int maxConnections,
      List<String> jvmOptions,
      Path log)
      throws IOException {
    List<String> command = java(jvmOptions);
    command.addAll(
        List.of(NoOpSmtpServer.class.getName(), kind, threads, Integer.toString(maxConnections)));
    return startJava(label, command, log);
  }

  /**
   * Postfix's {@code smtp-sink} from a package unpacked (not installed) into {@code postfixRoot}
   * ({@code dpkg -x postfix_*.deb postfixRoot}): it answers every command and discards the mail.
   */
  public static ServerProcess smtpSink(Path postfixRoot, Path log) throws IOException {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    ProcessBuilder builder =
        new ProcessBuilder(
            postfixRoot.resolve("usr/sbin/smtp-sink").toString(),
            "-u",
            "nobody",
            "-m",
            "20000", // sessions at once; the default 256 leaves the rest queued in the kernel
            "127.0.0.1:" + port,
            "1024");
    builder.environment().put("LD_LIBRARY_PATH", postfixRoot.resolve("usr/lib/postfix").toString());
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    ServerProcess server = new ServerProcess(builder.start(), "smtp-sink", port);
    server.awaitConnectable(log);
    return server;
  }

  private static List<String> java(List<String> jvmOptions) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    return command;
  }

  private static ServerProcess startJava(String label, List<String> command, Path log)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    Process process = builder.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    try {
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          throw new IOException(label + " exited with " + process.exitValue() + "; see " + log);
        }
        Matcher listening = LISTENING.matcher(Files.readString(log));
        if (listening.find()) {
          int http = listening.group(2) == null ? -1 : Integer.parseInt(listening.group(2));
          return new ServerProcess(process, label, Integer.parseInt(listening.group(1)), http);
        }
        Thread.sleep(50);
      }
      throw new IOException(label + " did not start listening within 60 s; see " + log);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting " + label, e);
    } catch (IOException | RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
  }

  private void awaitConnectable(Path log) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try (Socket socket = new Socket()) {
        socket.connect(target.address(), 1000);
        return;
      } catch (IOException notYet) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          process.destroyForcibly();
          throw new IOException(target.label() + " is not listening; see " + log, notYet);
        }
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        }
      }
    }
  }

  /** Where it listens and how to probe it. */
  public LoadTarget target() {
    return target;
  }

  /** The HTTP port from the service's {@code listening} line, or -1 for servers without one. */
  public int httpPort() {
    return httpPort;
  }

  /**
   * Sends SIGTERM and waits up to {@code timeout} for the process to exit; if it has not, kills it.
   *
   * @return its exit code, or -1 if it had to be killed
   */
  public int stop(java.time.Duration timeout) throws InterruptedException {
    process.destroy();
    if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      return process.exitValue();
    }
    process.destroyForcibly();
    process.waitFor(5, TimeUnit.SECONDS);
    return -1;
  }

  @Override
  public void close() {
    terminate(process);
  }

  /** SIGTERM, up to 5 s to exit, then killed; keeps the interrupt flag if interrupted. */
  static void terminate(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
