package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.burnbox.server.fuzz.FuzzInputs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz target: the SMTP command parser and session state machine, through a real {@link SmtpIntake}
 * on loopback. Each input is the byte stream of one client session (the client then half-closes).
 * Checked: every reply line is a well-formed SMTP reply whose code is one the intake is meant to
 * send; the number of {@code 250} replies to message content equals the number of messages the
 * acceptor received (nothing stored without a 250, no 250 without storing); and after the session
 * an honest client still delivers a message that arrives intact.
 *
 * <p>One intake serves the whole class, so a session that leaves state behind (a leaked permit, a
 * stuck thread) shows up in later inputs. In a normal build the seeds in {@code
 * SmtpSessionFuzzTestInputs/sessionKeepsTheProtocol/} run through Jazzer's regression mode and
 * {@link #mutationsOfTheSeedsKeepTheProtocol} runs seeded mutations of them; {@code scripts/fuzz.sh
 * smtp 30m} fuzzes for real.
 */
class SmtpSessionFuzzTest {
  private static final String STORED = "Stored by the fuzz acceptor";

  /** A reply line: code, then a space (last line) or a hyphen (more lines follow). */
  private static final Pattern REPLY_LINE = Pattern.compile("([2-5][0-9][0-9])([ -])(.*)");

  /** A reply text that starts with an enhanced status code (RFC 3463). */
  private static final Pattern ENHANCED = Pattern.compile("[245]\\.[0-9]{1,3}\\.[0-9]{1,3} .*");

  /** The intake's host name: the greeting and the replies to HELO and EHLO start with it. */
  private static final String HOST = "mx.burnbox.test";

  /**
   * Codes the intake sends on purpose (see {@link Refusal} and {@link IntakeCommands}); 451 (local
   * error) is not among them: the acceptor never fails here, so a 451 means the intake failed.
   */
  private static final Set<Integer> EXPECTED_CODES =
      Set.of(
          214, 220, 221, 235, 250, 252, 334, 354, 421, 452, 454, 500, 501, 502, 503, 504, 535, 538,
          550, 552, 553, 554, 555);

  private static final List<String> SNIPPETS =
      List.of(
          "\r\n",
          "\n",
          "\r",
          "\r\n.\r\n",
          "\r\n..",
          "EHLO x\r\n",
          "HELO x\r\n",
          "MAIL FROM:<a@b.test>\r\n",
          "MAIL FROM:<> SIZE=99999999\r\n",
          "RCPT TO:<r@burnbox.test>\r\n",
          "RCPT TO:<r@elsewhere.test>\r\n",
          "DATA\r\n",
          "BDAT 5 LAST\r\n",
          "BDAT 3\r\n",
          "RSET\r\n",
          "NOOP\r\n",
          "QUIT\r\n",
          "STARTTLS\r\n",
          "\u0000",
          "\u00ff");

  private static final CountingAcceptor acceptor = new CountingAcceptor();
  private static SmtpIntake intake;

  /** Counts messages and keeps the last one. Thread-safe. */
  private static final class CountingAcceptor implements MessageAcceptor {
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicReference<RecordingAcceptor.Delivery> last = new AtomicReference<>();

    @Override
    public SmtpReply accept(Envelope envelope, byte[] raw) {
      last.set(new RecordingAcceptor.Delivery(envelope, raw));
      count.incrementAndGet();
      return SmtpReply.ok(STORED);
    }
  }

  @BeforeAll
  static void startIntake() {
    intake =
        TestIntakes.start(
            TestIntakes.settings(
                ThreadModel.VIRTUAL,
                "--max-message-size=" + (16 << 10),
                "--max-recipients=3",
                "--max-line-length=1000",
                "--command-timeout=5s",
                "--data-timeout=5s"),
            acceptor,
            new SimpleMeterRegistry());
  }

  @AfterAll
  static void stopIntake() {
    TestIntakes.stop(intake);
  }

  @FuzzTest(maxDuration = "5m")
  @DictionaryFile(resourcePath = "smtp.dict")
  void sessionKeepsTheProtocol(byte[] session) throws IOException {
    // Jazzer's SSRF detector (on while fuzzing) would report the connections to our own intake
    try (var loopback =
        BugDetectors.allowNetworkConnections((host, port) -> port == intake.port())) {
      checkSession(session);
    }
  }

  static LongStream seeds() {
    return LongStream.range(0, 4);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void mutationsOfTheSeedsKeepTheProtocol(long seed) {
    FuzzInputs.checkMutations(
        seed,
        FuzzInputs.seeds(SmtpSessionFuzzTest.class, "sessionKeepsTheProtocol"),
        100,
        SNIPPETS,
        session -> {
          try {
            checkSession(session);
          } catch (IOException e) {
            throw new AssertionError(e);
          }
        });
  }

  /** Plays {@code session} as one client, then checks the replies and an honest client. */
  static void checkSession(byte[] session) throws IOException {
    int storedBefore = acceptor.count.get();
    Transcript transcript = play(session);
    int storedReplies = 0;
    boolean inHello = false;
    for (String line : transcript.lines()) {
      Matcher reply = REPLY_LINE.matcher(line);
      assertThat(reply.matches()).as("well-formed reply line: %s", line).isTrue();
      assertThat(line).as("one reply line holds no CR").doesNotContain("\r");
      int code = Integer.parseInt(reply.group(1));
      assertThat(EXPECTED_CODES).as("expected reply code in: %s", line).contains(code);
      // RFC 2034: an enhanced code on every reply but the greeting and the replies to HELO and
      // EHLO; 334 (RFC 4954) and 354 go without, as Postfix's do
      boolean hello = inHello || reply.group(3).startsWith(HOST);
      inHello = hello && reply.group(2).equals("-");
      if (!hello && code != 334 && code != 354) {
        assertThat(reply.group(3)).as("enhanced status code in: %s", line).matches(ENHANCED);
      }
      if (line.equals("250 2.0.0 " + STORED)) {
        storedReplies++;
      }
    }
    if (!transcript.lines().isEmpty()) {
      assertThat(transcript.lines().getFirst()).startsWith("220 ");
    }
    int stored = acceptor.count.get() - storedBefore;
    if (transcript.complete()) {
      assertThat(stored).as("messages stored = 250 replies to content").isEqualTo(storedReplies);
    } else {
      // the server reset the connection: replies it sent may be lost, but none was invented
      assertThat(stored)
          .as("messages stored >= 250 replies seen")
          .isGreaterThanOrEqualTo(storedReplies);
    }
    assertHonestClientIsServed();
  }

  /** The replies of one session; {@code complete} is false if it ended in a reset. */
  private record Transcript(List<String> lines, boolean complete) {}

  private static Transcript play(byte[] session) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), intake.port()), 5000);
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      Thread writer =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      out.write(session);
                      out.flush();
                      socket.shutdownOutput();
                    } catch (IOException e) {
                      // the server closed the connection before reading everything: allowed
                    }
                  });
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      boolean complete = true;
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      try {
        for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
          received.write(buffer, 0, n);
        }
      } catch (SocketTimeoutException e) {
        throw new AssertionError("the server neither replied nor closed within 10 s", e);
      } catch (IOException e) {
        complete = false; // reset by the server after it dropped the connection
      }
      try {
        writer.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      String text = received.toString(StandardCharsets.UTF_8);
      List<String> lines = new ArrayList<>();
      int start = 0;
      for (int end = text.indexOf("\r\n"); end >= 0; end = text.indexOf("\r\n", start)) {
        lines.add(text.substring(start, end));
        start = end + 2;
        if (lines.size() > 1 && lines.getLast().startsWith("220 ")) {
          return new Transcript(lines, complete); // STARTTLS accepted: TLS records follow
        }
      }
      if (start < text.length()) {
        assertThat(complete).as("the last reply line ends with CRLF: %s", text).isFalse();
      }
      return new Transcript(lines, complete);
    }
  }

  private static void assertHonestClientIsServed() throws IOException {
    int before = acceptor.count.get();
    try (SmtpScript honest = SmtpScript.ehlo(intake.port(), "127.0.0.1")) {
      honest.expectAfter("MAIL FROM:<honest@example.org>", "250 2.1.0");
      honest.expectAfter("RCPT TO:<honest@burnbox.test>", "250 2.1.5");
      honest.expectAfter("DATA", "354");
      assertThat(honest.send("Subject: honest\r\n\r\nhello\r\n.")).isEqualTo("250 2.0.0 " + STORED);
      assertThat(honest.send("QUIT")).startsWith("221 2.0.0");
    }
    assertThat(acceptor.count.get()).isEqualTo(before + 1);
    RecordingAcceptor.Delivery last = acceptor.last.get();
    assertThat(last.envelope().recipients()).containsExactly("honest@burnbox.test");
    assertThat(new String(last.raw(), StandardCharsets.ISO_8859_1))
        .isEqualTo("Subject: honest\r\n\r\nhello\r\n");
  }
}
