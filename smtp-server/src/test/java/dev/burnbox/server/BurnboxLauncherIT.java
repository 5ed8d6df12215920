package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code ./burnbox scan} as a user does: the launcher script, the packaged jar, a real JVM.
 */
class BurnboxLauncherIT {
  private static final Path LAUNCHER = Path.of("..", "burnbox").toAbsolutePath().normalize();

  @TempDir Path dir;

  private record Run(int exitCode, String out, String err) {}

  private Run burnbox(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile())
            .start();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("finished").isTrue();
    return new Run(
        process.exitValue(),
        Files.readString(dir.resolve("out")),
        Files.readString(dir.resolve("err")));
  }

  @Test
  void scanPrintsOccurrencesOfATermFile() throws Exception {
    Path terms = Files.writeString(dir.resolve("terms.txt"), "# test\nwire transfer\nlottery\n");
    Path mail =
        Files.writeString(
            dir.resolve("mail.txt"),
            "You won the LOTTERY! Send a Wire Transfer fee today.",
            StandardCharsets.UTF_8);

    Run run = burnbox("scan", "--terms", terms.toString(), "--ignore-case", mail.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .isEqualTo(mail + "\t12\t19\tlottery\n" + mail + "\t28\t41\twire transfer\n");
  }

  @Test
  void exitCodesSayWhatWentWrong() throws Exception {
    Path mail = Files.writeString(dir.resolve("mail.txt"), "hello");

    assertThat(burnbox("scan", mail.toString()).exitCode()).isZero();
    assertThat(burnbox("scan", dir.resolve("absent").toString()).exitCode()).isEqualTo(1);
    Run bad = burnbox("scan", "--algorithm", "nope", mail.toString());
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("Usage:");
  }

  @Test
  void helpListsTheScanCommand() throws Exception {
    Run help = burnbox("--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("scan");
    // every option's help renders as written: picocli warned on standard error about a lone %
    Run serveHelp = burnbox("serve", "--help");
    assertThat(serveHelp.exitCode()).isZero();
    assertThat(serveHelp.err()).isEmpty();
    assertThat(serveHelp.out().replaceAll("\\s+", " ")).contains("(about 5% smaller;");
  }

  @Test
  void serveRecordsTheStartUpCacheOnceAndStartsFromIt() throws Exception {
    Path cache = LAUNCHER.resolveSibling("smtp-server/target/burnbox.aot");
    Assumptions.assumeTrue(
        Runtime.version().feature() >= 25,
        "the ahead-of-time cache needs JDK 25 (the build's JDK is " + Runtime.version() + ")");
    Files.deleteIfExists(cache);

    String first = startAndStop();
    assertThat(first).contains("recording the start-up cache").contains("Opened AOT cache");
    assertThat(cache).exists();

    String second = startAndStop();
    assertThat(second).doesNotContain("recording the start-up cache").contains("Opened AOT cache");
  }

  @Test
  void aCommandLineThatStartsNoServiceRecordsNoStartUpCache() throws Exception {
    Path cache = LAUNCHER.resolveSibling("smtp-server/target/burnbox.aot");
    Assumptions.assumeTrue(
        Runtime.version().feature() >= 25,
        "the ahead-of-time cache needs JDK 25 (the build's JDK is " + Runtime.version() + ")");
    Files.deleteIfExists(cache);
    for (List<String> args :
        List.of(
            List.of("--print-settings"),
            List.of("serve", "--print-settings"),
            List.of("--smtp-port=2600", "--print-settings"),
            List.of("serve", "--version"),
            List.of("--smtp-port=2600", "--version"),
            List.of("scan", "--version"))) {
      Run run = burnbox(args.toArray(String[]::new));
      assertThat(run.exitCode()).as("%s: %s", args, run.err()).isZero();
      assertThat(run.err()).as("%s", args).doesNotContain("recording the start-up cache");
      assertThat(cache).as("%s", args).doesNotExist();
    }
  }

  /**
   * What a compose file's health condition or a CI script relies on: the first 200 from {@code
   * /healthz} means the SMTP port takes mail, so no mail sent right after it is refused.
   */
  @Test
  void healthzAnswers200OnlyOnceTheSmtpPortTakesMail() throws Exception {
    int smtp = freePort();
    int http = freePort();
    ProcessBuilder builder =
        new ProcessBuilder(
                LAUNCHER.toString(),
                "--bind=127.0.0.1",
                "--smtp-port=" + smtp,
                "--http-port=" + http)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("serve.log").toFile());
    builder.environment().put("BURNBOX_AOT", "off");
    Process process = builder.start();
    HttpClient client = HttpClient.newHttpClient();
    HttpRequest healthz =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/healthz")).build();
    List<Integer> statuses = new ArrayList<>();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (statuses.isEmpty() || statuses.getLast() != 200) {
        assertThat(process.isAlive()).as(Files.readString(dir.resolve("serve.log"))).isTrue();
        assertThat(System.nanoTime()).as("healthy within 90 s").isLessThan(deadline);
        try {
          HttpResponse<String> response = client.send(healthz, BodyHandlers.ofString());
          statuses.add(response.statusCode());
          assertThat(response.body())
              .contains(response.statusCode() == 200 ? "\"ok\"" : "\"starting\"");
        } catch (ConnectException notYet) {
          Thread.sleep(5);
        }
      }
      try (Socket socket = new Socket("127.0.0.1", smtp)) {
        socket.setSoTimeout(10_000);
        String greeting =
            new BufferedReader(
                    new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
        assertThat(greeting).startsWith("220 ");
      }
      assertThat(statuses).allMatch(status -> status == 200 || status == 503);
    } finally {
      process.destroy();
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** Starts {@code ./burnbox} with options only (so: serve), waits until it listens, stops it. */
  private String startAndStop() throws Exception {
    Path log = Files.createTempFile(dir, "serve", ".log");
    ProcessBuilder builder =
        new ProcessBuilder(
                LAUNCHER.toString(), "--bind=127.0.0.1", "--smtp-port=0", "--http-port=0")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("BURNBOX_JAVA_OPTS", "-Xlog:aot=info");
    builder.environment().remove("BURNBOX_AOT");
    Process process = builder.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (!Files.readString(log).contains("listening smtp=")) {
        assertThat(process.isAlive()).as(Files.readString(log)).isTrue();
        assertThat(System.nanoTime()).as("listening within 90 s").isLessThan(deadline);
        Thread.sleep(100);
      }
    } finally {
      process.destroy();
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    return Files.readString(log);
  }
}
