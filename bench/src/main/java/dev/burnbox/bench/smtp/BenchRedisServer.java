package dev.burnbox.bench.smtp;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} from the {@code PATH}, started by the bench on a free loopback port with
 * the settings the Redis store documents for production: no persistence, {@code maxmemory} 1.5
 * times the store's budget, {@code maxmemory-policy noeviction}. Its output goes to a log file;
 * {@link #probe()} reads its CPU time. {@link #close()} stops it (SIGTERM, then SIGKILL).
 */
final class BenchRedisServer implements AutoCloseable {
  private final Process process;
  private final int port;
  private final String version;

  private BenchRedisServer(Process process, int port, String version) {
    this.process = process;
    this.port = port;
    this.version = version;
  }

  /**
   * Starts one and waits until it answers PING.
   *
   * @param maxMemoryBytes its {@code maxmemory}
   * @throws IOException if there is no {@code redis-server} on the PATH (saying so), or it does not
   *     start
   */
  static BenchRedisServer start(long maxMemoryBytes, Path log) throws IOException {
    Path executable = find();
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Process process =
        new ProcessBuilder(
                List.of(
                    executable.toString(),
                    "--port",
                    Integer.toString(port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--maxmemory",
                    Long.toString(maxMemoryBytes),
                    "--maxmemory-policy",
                    "noeviction",
                    "--daemonize",
                    "no"))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try {
        String version = info(port, "redis_version");
        return new BenchRedisServer(process, port, version);
      } catch (IOException notYet) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          process.destroyForcibly();
          throw new IOException("redis-server did not start on port " + port + "; see " + log);
        }
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          process.destroyForcibly();
          throw new IOException("interrupted while starting redis-server", e);
        }
      }
    }
  }

  private static Path find() throws IOException {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "redis-server");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IOException(
        "no redis-server on the PATH: the Redis store's blast needs one"
            + " (apt-get install -y redis-server)");
  }

  /** One field of {@code INFO}, read over a plain socket (RESP inline command). */
  private static String info(int port, String field) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(2000);
      socket.getOutputStream().write("INFO\r\n".getBytes(StandardCharsets.US_ASCII));
      DataInputStream in = new DataInputStream(socket.getInputStream());
      StringBuilder header = new StringBuilder(); // $LENGTH CRLF
      for (int b; (b = in.read()) != '\n'; ) {
        if (b < 0) {
          throw new IOException("INFO: connection closed");
        }
        header.append((char) b);
      }
      if (header.charAt(0) != '$') {
        throw new IOException("unexpected INFO reply: " + header);
      }
      byte[] body = new byte[Integer.parseInt(header.substring(1).strip())];
      in.readFully(body);
      for (String line : new String(body, StandardCharsets.US_ASCII).split("\r\n")) {
        if (line.startsWith(field + ":")) {
          return line.substring(field.length() + 1).strip();
        }
      }
      throw new IOException("INFO has no " + field);
    }
  }

  /** {@code redis://127.0.0.1:PORT}. */
  URI url() {
    return URI.create("redis://127.0.0.1:" + port);
  }

  /** E.g. {@code 7.0.15}. */
  String version() {
    return version;
  }

  /** {@code used_memory_human} now, or "unknown". */
  String usedMemory() {
    try {
      return info(port, "used_memory_human");
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Its CPU time and RSS. */
  ProcessProbe probe() {
    return new ProcessProbe(process.pid());
  }

  @Override
  public void close() {
    ServerProcess.terminate(process);
  }
}
