package dev.burnbox.mailstore;

import static org.junit.jupiter.api.Assumptions.abort;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A real {@code redis-server} for tests: started on a free loopback port without persistence, and
 * stopped (or stopped and started again on the same port, to test recovery) by the test. Tests that
 * need it are skipped, saying why, when {@code redis-server} is not installed ({@code apt-get
 * install redis-server}; {@code .ci/run} installs it). Not thread-safe: one test class drives it.
 * Shared with smtp-server's tests through this module's test jar.
 */
public final class RedisServerProcess {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(10);

  private final Path executable;
  private final int port;
  private final List<String> extraArgs;
  private Process process;

  private RedisServerProcess(Path executable, int port, List<String> extraArgs) {
    this.executable = executable;
    this.port = port;
    this.extraArgs = List.copyOf(extraArgs);
  }

  /** Starts a server on a free port, or aborts the calling test if there is no redis-server. */
  public static RedisServerProcess start() throws IOException, InterruptedException {
    return start(port -> List.of());
  }

  /**
   * Starts a server on a free port with more options (given the port), or aborts the calling test
   * if there is no redis-server. {@link RedisClusterProcess} starts its nodes so.
   */
  static RedisServerProcess start(IntFunction<List<String>> extraArgs)
      throws IOException, InterruptedException {
    Path executable = find();
    if (executable == null) {
      abort("redis-server is not installed (apt-get install -y redis-server): Redis tests skipped");
    }
    int port = freePort();
    RedisServerProcess server = new RedisServerProcess(executable, port, extraArgs.apply(port));
    server.restart();
    return server;
  }

  /** A loopback port that was free a moment ago. */
  static int freePort() throws IOException {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return probe.getLocalPort();
    }
  }

  private static Path find() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "redis-server");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    Path debian = Path.of("/usr/bin/redis-server");
    return Files.isExecutable(debian) ? debian : null;
  }

  /** {@code redis://127.0.0.1:PORT}. */
  public URI url() {
    return URI.create("redis://127.0.0.1:" + port);
  }

  public int port() {
    return port;
  }

  /** Starts the server (again) on its port and waits until it answers PING. */
  public void restart() throws IOException, InterruptedException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("redis-server is already running on " + port);
    }
    List<String> command =
        new ArrayList<>(
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
                "--daemonize",
                "no",
                "--loglevel",
                "warning"));
    command.addAll(extraArgs);
    process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      try (Jedis jedis = new Jedis(new HostAndPort("127.0.0.1", port), config(200))) {
        jedis.ping();
        return;
      } catch (JedisConnectionException e) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          stop();
          throw new IOException("redis-server did not start on port " + port, e);
        }
        Thread.sleep(20);
      }
    }
  }

  /** Stops the server as a crash would (SIGKILL, which also ends a paused one) and waits. */
  public void stop() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      process.waitFor();
    }
  }

  /**
   * Freezes the server (SIGSTOP): connections are still accepted by the kernel but nothing is
   * answered, as with a Redis stuck on a slow command or a long fork.
   */
  public void pause() throws IOException, InterruptedException {
    signal("-STOP");
  }

  /** Lets a {@linkplain #pause paused} server run again (SIGCONT). */
  public void resume() throws IOException, InterruptedException {
    signal("-CONT");
  }

  private void signal(String signal) throws IOException, InterruptedException {
    int exit = new ProcessBuilder("kill", signal, Long.toString(process.pid())).start().waitFor();
    if (exit != 0) {
      throw new IOException("kill " + signal + " " + process.pid() + " exited " + exit);
    }
  }

  /** A new connection to the server, for tests that look at keys. */
  public Jedis connect() {
    return new Jedis(new HostAndPort("127.0.0.1", port), config(2000));
  }

  private static JedisClientConfig config(int timeoutMillis) {
    return DefaultJedisClientConfig.builder()
        .timeoutMillis(timeoutMillis)
        .protocol(RedisProtocol.RESP2)
        .build();
  }
}
