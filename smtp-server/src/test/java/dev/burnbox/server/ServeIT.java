package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code ./burnbox serve} as a user does (launcher script, packaged jar, a real JVM; ports set
 * through environment variables), delivers a message over a raw SMTP socket, reads it back over
 * HTTP and stops the service with SIGTERM.
 */
class ServeIT {
  private static final Path LAUNCHER = Path.of("..", "burnbox").toAbsolutePath().normalize();
  private static final Pattern LISTENING = Pattern.compile("listening smtp=(\\d+) http=(\\d+)");

  @TempDir Path dir;

  @Test
  void servesSmtpAndHttpAndExitsZeroOnSigterm() throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                LAUNCHER.toString(), "serve", "--bind", "127.0.0.1", "--domains", "burnbox.test"));
    Path log = dir.resolve("log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    // ports through the environment, as a container would set them
    builder.environment().put("BURNBOX_SMTP_PORT", "0");
    builder.environment().put("BURNBOX_HTTP_PORT", "0");
    Process process = builder.start();
    try {
      Matcher ports = awaitLine(log, process);
      int smtpPort = Integer.parseInt(ports.group(1));
      int httpPort = Integer.parseInt(ports.group(2));

      try (Socket socket = new Socket("127.0.0.1", smtpPort)) {
        var in =
            new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        OutputStream out = socket.getOutputStream();
        assertThat(in.readLine()).startsWith("220");
        say(out, "EHLO client.test");
        String line;
        do {
          line = in.readLine();
        } while (line.startsWith("250-"));
        say(out, "MAIL FROM:<ann@example.com>");
        assertThat(in.readLine()).startsWith("250");
        say(out, "RCPT TO:<someone@elsewhere.test>");
        assertThat(in.readLine()).startsWith("550");
        say(out, "RCPT TO:<Ivy@burnbox.test>");
        assertThat(in.readLine()).startsWith("250");
        say(out, "DATA");
        assertThat(in.readLine()).startsWith("354");
        // a Cyrillic і in the subject: the shaded jar's ICU data must still see through it
        say(out, "Subject: =?UTF-8?B?Y2hlYXAgdtGWYWdyYQ==?=\r\n\r\nhello from a socket\r\n.");
        assertThat(in.readLine()).startsWith("250");
        say(out, "QUIT");
        assertThat(in.readLine()).startsWith("221");
      }

      HttpResponse<String> stats =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + httpPort + "/api/v1/stats"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(stats.body()).contains("\"messages\":1").contains("\"inboxes\":1");
      HttpResponse<String> inbox =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + httpPort + "/api/v1/inboxes/ivy"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      // the n-grams of "viagra" matched; the verdict names the word as the mail wrote it
      assertThat(inbox.body()).contains("\"v\u0456agra\"");
    } finally {
      process.destroy(); // SIGTERM
    }
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stopped").isTrue();
    assertThat(process.exitValue()).as(Files.readString(log)).isZero();
    assertThat(Files.readString(log)).contains("stopped");
  }

  @Test
  void exitsOneWhenTheSnapshotCannotBeSavedOnSigterm() throws Exception {
    // the snapshot's folder is there at start (which checks it) and a file by the time it is saved
    Path folder = Files.createDirectory(dir.resolve("snapshots"));
    Path snapshot = folder.resolve("store.snapshot");
    Path log = dir.resolve("log");
    Process process =
        new ProcessBuilder(
                LAUNCHER.toString(),
                "serve",
                "--bind",
                "127.0.0.1",
                "--smtp-port",
                "0",
                "--http-port",
                "0",
                "--snapshot",
                snapshot.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      awaitLine(log, process);
      Files.delete(folder);
      Files.writeString(folder, "no longer a folder");
    } finally {
      process.destroy(); // SIGTERM
    }
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stopped").isTrue();
    assertThat(process.exitValue()).as(Files.readString(log)).isEqualTo(1);
    assertThat(Files.readString(log)).contains("the snapshot could not be saved");
  }

  private static void say(OutputStream out, String line) throws Exception {
    out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static Matcher awaitLine(Path log, Process process) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline) {
      Matcher m = LISTENING.matcher(Files.readString(log));
      if (m.find()) {
        return m;
      }
      if (!process.isAlive()) {
        throw new AssertionError("burnbox exited: " + Files.readString(log));
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no 'listening' line: " + Files.readString(log));
  }
}
