package dev.burnbox.server.attack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The whole Burnbox service ({@code burnbox serve}) in its own JVM with a small heap, on free
 * loopback ports, its output in a log file; read over HTTP ({@code /metrics}, {@code
 * /api/v1/stats}) as an operator would. {@link #close()} stops it with SIGTERM (then SIGKILL).
 */
final class AttackedService implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("listening smtp=(\\d+) http=(\\d+)");
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? ([-+0-9.eE]+|NaN)$");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final Path log;
  private final int smtpPort;
  private final int httpPort;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private AttackedService(Process process, Path log, int smtpPort, int httpPort) {
    this.process = process;
    this.log = log;
    this.smtpPort = smtpPort;
    this.httpPort = httpPort;
  }

  /**
   * This JVM's class path without the test classes and resources: the service then logs as in
   * production ({@code BurnboxLogging}), not as {@code logback-test.xml} says.
   */
  private static String serviceClassPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !Path.of(entry).endsWith(Path.of("target", "test-classes")))
        .collect(Collectors.joining(File.pathSeparator));
  }

  /**
   * Starts {@code serve} on 127.0.0.1 with {@code -Xmx<heap>} and {@code options}, from this JVM's
   * class path without the test classes, and waits for its {@code listening} line. The JVM exits on
   * an OutOfMemoryError, so that one cannot go unnoticed.
   */
  static AttackedService start(Path dir, String heap, List<String> options) throws IOException {
    return start(dir, heap, List.of(), options);
  }

  /** As {@link #start(Path, String, List)}, with {@code jvmOptions} (e.g. {@code -Dname=value}). */
  static AttackedService start(Path dir, String heap, List<String> jvmOptions, List<String> options)
      throws IOException {
    Path log = dir.resolve("service.log");
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-Xmx" + heap,
            "-XX:+ExitOnOutOfMemoryError",
            "-Xlog:gc:file=" + dir.resolve("gc.log"),
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            serviceClassPath(),
            "dev.burnbox.server.BurnboxCli",
            "serve",
            "--bind=127.0.0.1",
            "--smtp-port=0",
            "--http-port=0",
            "--hostname=mx.attack.test"));
    command.addAll(options);
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    try {
      while (System.nanoTime() < deadline) {
        Matcher listening = LISTENING.matcher(Files.readString(log));
        if (listening.find()) {
          return new AttackedService(
              process,
              log,
              Integer.parseInt(listening.group(1)),
              Integer.parseInt(listening.group(2)));
        }
        if (!process.isAlive()) {
          throw new IOException("the service exited: " + Files.readString(log));
        }
        Thread.sleep(50);
      }
      throw new IOException("no 'listening' line within 60 s: " + Files.readString(log));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted", e);
    } catch (IOException | RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
  }

  int smtpPort() {
    return smtpPort;
  }

  int httpPort() {
    return httpPort;
  }

  boolean alive() {
    return process.isAlive();
  }

  String log() throws IOException {
    return Files.readString(log);
  }

  /** GET {@code path} on the web port; the body, or an exception for a status other than 200. */
  String get(String path) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("GET " + path + ": " + response.statusCode() + " " + response.body());
    }
    return response.body();
  }

  /** {@code /api/v1/stats}. */
  JsonNode stats() throws IOException, InterruptedException {
    return JSON.readTree(get("/api/v1/stats"));
  }

  /** Every sample of {@code /metrics}, keyed by name and labels as written. */
  Metrics metrics() throws IOException, InterruptedException {
    Map<String, Double> samples = new TreeMap<>();
    for (String line : get("/metrics").split("\n")) {
      Matcher m = SAMPLE.matcher(line.strip());
      if (m.matches()) {
        samples.put(
            m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.valueOf(m.group(3)));
      }
    }
    return new Metrics(samples);
  }

  /** One reading of {@code /metrics}. */
  record Metrics(Map<String, Double> samples) {
    /** The sum of every sample of {@code name} whose labels contain {@code labelFragment}. */
    double sum(String name, String labelFragment) {
      double sum = 0;
      for (var sample : samples.entrySet()) {
        String key = sample.getKey();
        if ((key.equals(name) || key.startsWith(name + "{")) && key.contains(labelFragment)) {
          sum += sample.getValue();
        }
      }
      return sum;
    }

    double heapUsed() {
      return sum("jvm_memory_used_bytes", "area=\"heap\"");
    }

    double sessionsActive() {
      return sum("burnbox_smtp_sessions_active", "");
    }

    double inflightBytes() {
      return sum("burnbox_smtp_inflight_bytes", "");
    }

    double refusals(String reason) {
      return sum("burnbox_refusals_total", "reason=\"" + reason + "\"");
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
