package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile clients over real sockets: malformed line endings, NULs and control characters, huge
 * lines, pipelined garbage, floods of recipients, dot-stuffing tricks, 8-bit commands and TLS
 * misuse. Each case checks the exact reply, that nothing half-received reaches the acceptor, and
 * that the intake then serves an honest client normally. The basics are in {@link
 * SmtpIntakeProtocolTest}; the whole service under the same abuse is in {@code
 * ServiceProtocolAbuseTest}.
 */
class SmtpIntakeAbuseTest {
  private static final String ATTACKER = "127.0.0.2";
  private static final String HONEST = "127.0.0.3";
  private static final Duration QUIET = Duration.ofMillis(300);

  private final RecordingAcceptor acceptor = new RecordingAcceptor();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private SmtpIntake intake;

  @BeforeEach
  void start() {
    intake =
        TestIntakes.start(
            TestIntakes.settings(
                ThreadModel.VIRTUAL, "--max-message-size=" + (4 << 20), "--max-recipients=3"),
            acceptor,
            registry);
  }

  @AfterEach
  void stop() {
    TestIntakes.stop(intake);
  }

  private SmtpScript attacker() throws IOException {
    return SmtpScript.ehlo(intake.port(), ATTACKER);
  }

  private double refusals(String reason) {
    return TestIntakes.count(registry, "burnbox.refusals", "reason", reason);
  }

  private static String ascii(byte[] raw) {
    return new String(raw, StandardCharsets.ISO_8859_1);
  }

  /** Opens a MAIL transaction with one recipient and reads the 354. */
  private static void openData(SmtpScript smtp) throws IOException {
    smtp.expectAfter("MAIL FROM:<s@example.org>", "250 2.1.0");
    smtp.expectAfter("RCPT TO:<a@burnbox.test>", "250 2.1.5");
    smtp.expectAfter("DATA", "354");
  }

  /**
   * Checks that exactly {@code deliveredBefore} messages were delivered so far (nothing
   * half-received got through), then that a new client delivers a message normally and that it is
   * the one new delivery.
   */
  private void assertServesTheNextClient(int deliveredBefore) throws IOException {
    assertThat(acceptor.deliveries()).hasSize(deliveredBefore);
    try (SmtpScript honest = SmtpScript.ehlo(intake.port(), HONEST)) {
      honest.expectAfter("MAIL FROM:<honest@example.org>", "250 2.1.0");
      honest.expectAfter("RCPT TO:<honest@burnbox.test>", "250 2.1.5");
      honest.expectAfter("DATA", "354");
      assertThat(honest.send("Subject: honest\r\n\r\nhello\r\n.")).isEqualTo("250 2.0.0 Stored");
      assertThat(honest.send("QUIT")).startsWith("221 2.0.0");
    }
    assertThat(acceptor.deliveries()).hasSize(deliveredBefore + 1);
    RecordingAcceptor.Delivery last = acceptor.deliveries().getLast();
    assertThat(last.envelope().recipients()).containsExactly("honest@burnbox.test");
    assertThat(ascii(last.raw())).isEqualTo("Subject: honest\r\n\r\nhello\r\n");
  }

  private void assertServesTheNextClient() throws IOException {
    assertServesTheNextClient(0);
  }

  /** Writes on a side thread, for inputs the server answers (or drops) before reading them all. */
  private static Thread writeAside(OutputStream out, byte[] bytes) {
    return Thread.ofVirtual()
        .start(
            () -> {
              try {
                out.write(bytes);
                out.flush();
              } catch (IOException e) {
                // the server closed the connection before taking everything: expected
              }
            });
  }

  // ---- line endings ----

  @Test
  void refusesABareLineFeedInsideACommandLineAndCloses() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.write("MAIL FROM:<s@example.org>\nRCPT TO:<a@burnbox.test>\r\n");
      assertThat(smtp.reply())
          .isEqualTo(
              "501 5.5.2 Syntax error at character position 25. CR and LF must be CRLF paired. "
                  + " See RFC 2821 #2.7.1.");
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertServesTheNextClient();
  }

  @Test
  void refusesABareCarriageReturnInsideACommandLineAndCloses() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.write("NOOP\rQUIT\r\n");
      assertThat(smtp.reply()).startsWith("501 5.5.2 Syntax error at character position 4.");
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertServesTheNextClient();
  }

  @Test
  void doesNotTakeABareLineFeedAsTheEndOfACommand() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.write("QUIT\n");
      assertThat(smtp.silentFor(QUIET)).isTrue(); // QUIT was not executed
      smtp.write("\r\n");
      assertThat(smtp.reply()).startsWith("501 5.5.2 Syntax error at character position 4.");
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertServesTheNextClient();
  }

  @Test
  void endsDataOnlyAtCrLfDotCrLfSoBareLineEndingsCannotSmuggleCommands() throws IOException {
    // each of these looks like an end of data to a lenient parser; what follows would then run as
    // commands (SMTP smuggling). Here they stay message content.
    String content =
        "Subject: smuggle\r\n\r\nA\n.\nMAIL FROM:<x@evil.test>\n"
            + "B\n.\r\nRCPT TO:<b@burnbox.test>\r\n"
            + "C\r\n.\nDATA\r\n"
            + "D\r.\r\nE\r\n.\r"
            + "F\r\n";
    try (SmtpScript smtp = attacker()) {
      openData(smtp);
      smtp.write(content);
      assertThat(smtp.silentFor(QUIET)).isTrue();
      assertThat(smtp.send(".")).isEqualTo("250 2.0.0 Stored");
      assertThat(smtp.send("NOOP")).startsWith("250 2.0.0");
    }
    RecordingAcceptor.Delivery only = acceptor.only();
    // byte for byte, except that a dot opening a CRLF-delimited line is unstuffed (RFC 5321 4.5.2)
    assertThat(ascii(only.raw()))
        .isEqualTo(content.replace("C\r\n.\n", "C\r\n\n").replace("E\r\n.\r", "E\r\n\r"));
    assertThat(only.envelope().recipients()).containsExactly("a@burnbox.test");
    assertServesTheNextClient(1);
  }

  // ---- NUL and control characters ----

  @Test
  void keepsNulBytesInMessageContentByteExact() throws IOException {
    byte[] content = "Subject: nul\r\n\r\na\0b\r\n\0\r\n".getBytes(StandardCharsets.US_ASCII);
    try (SmtpScript smtp = attacker()) {
      openData(smtp);
      smtp.write(content);
      assertThat(smtp.send(".")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().raw()).isEqualTo(content);
    assertServesTheNextClient(1);
  }

  /** C0 controls (NUL, BEL, ESC), DEL and a C1 control (NEL, sent as UTF-8). */
  @ParameterizedTest
  @ValueSource(strings = {"\u0000", "\u0007", "\u001b", "\u007f", "\u0085"})
  void refusesControlCharactersInAddresses(String control) throws IOException {
    try (SmtpScript smtp = attacker()) {
      assertThat(smtp.send("MAIL FROM:<a" + control + "b@example.org>"))
          .isEqualTo("501 5.1.7 Bad sender address syntax");
      assertThat(smtp.send("MAIL FROM:<ab@exam" + control + "ple.org>"))
          .isEqualTo("501 5.1.7 Bad sender address syntax");
      smtp.expectAfter("MAIL FROM:<ab@example.org>", "250 2.1.0");
      assertThat(smtp.send("RCPT TO:<a" + control + "@burnbox.test>"))
          .isEqualTo("501 5.1.3 Bad recipient address syntax");
      assertThat(smtp.send("RCPT TO:<a@burnbox.test" + control + ">"))
          .isEqualTo("501 5.1.3 Bad recipient address syntax");
      assertThat(smtp.send("RCPT TO:<a@[127.0.0.1" + control + "]>"))
          .isEqualTo("501 5.1.3 Bad recipient address syntax");
      assertThat(smtp.send("DATA")).isEqualTo("554 5.5.1 No valid recipients");
      smtp.expectAfter("MAIL FROM:<ab@example.org>", "250 2.1.0"); // the 554 ended it
      smtp.expectAfter("RCPT TO:<clean@burnbox.test>", "250 2.1.5");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    Envelope envelope = acceptor.only().envelope();
    assertThat(envelope.sender()).isEqualTo("ab@example.org");
    assertThat(envelope.recipients()).containsExactly("clean@burnbox.test");
    assertThat(refusals("bad_sender_address")).isEqualTo(2);
    assertThat(refusals("bad_recipient_address")).isEqualTo(3);
    assertServesTheNextClient(1);
  }

  @Test
  void refusesHeloNamesWithControlCharactersOrWhiteSpace() throws IOException {
    try (SmtpScript smtp = SmtpScript.connect(intake.port(), ATTACKER)) {
      smtp.expect("220");
      assertThat(smtp.send("EHLO evil\0.test")).isEqualTo("501 5.5.4 Syntax: EHLO hostname");
      assertThat(smtp.send("HELO evil\u001b[2J.test")).isEqualTo("501 5.5.4 Syntax: HELO hostname");
      assertThat(smtp.send("EHLO evil\t.test")).isEqualTo("501 5.5.4 Syntax: EHLO hostname");
      assertThat(smtp.send("EHLO evil\u0085.test")).isEqualTo("501 5.5.4 Syntax: EHLO hostname");
      assertThat(smtp.send("MAIL FROM:<s@example.org>")).startsWith("503 5.5.1");
      smtp.expectAfter("EHLO clean.test", "250-");
      openData(smtp);
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().envelope().heloName()).isEqualTo("clean.test");
    assertThat(refusals("syntax")).isEqualTo(4);
    assertServesTheNextClient(1);
  }

  // ---- huge lines ----

  @Test
  void refusesAMegabyteCommandLineAndCloses() throws IOException, InterruptedException {
    try (SmtpScript smtp = attacker()) {
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
      smtp.expectAfter("RCPT TO:<a@burnbox.test>", "250");
      byte[] line =
          ("RCPT TO:<" + "b".repeat(1 << 20) + "@burnbox.test>\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      Thread writer = writeAside(smtpOutput(smtp), line);
      // the server answers at 998 characters and closes without reading the rest; the client may
      // see the reply, or a reset that discards it: either way the connection is over
      Throwable failure =
          catchThrowable(
              () -> assertThat(smtp.reply()).isEqualTo("501 5.5.2 Input line length is too long!"));
      if (failure != null) {
        assertThat(failure).isInstanceOf(IOException.class);
      }
      assertThat(smtp.closedByServer()).isTrue();
      assertThat(writer.join(Duration.ofSeconds(5))).isTrue();
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> activeSessions() == 0);
    assertServesTheNextClient();
  }

  @Test
  void refusesACommandLineOf998CharactersWith501AndCloses() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.write("NOOP " + "x".repeat(993) + "\r\n"); // 998 before the CRLF
      assertThat(smtp.reply()).isEqualTo("501 5.5.2 Input line length is too long!");
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertServesTheNextClient();
  }

  @Test
  void refusesAMessageWithAMegabyteLineWith500AndStaysUsable() throws IOException {
    try (SmtpScript smtp = attacker()) {
      openData(smtp);
      Thread writer =
          writeAside(
              smtpOutput(smtp),
              ("Subject: long\r\n\r\n" + "z".repeat(1 << 20) + "\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      assertThat(smtp.silentFor(QUIET)).isTrue();
      awaitDone(writer);
      assertThat(smtp.send(".")).isEqualTo("500 5.5.2 Line too long");
      openData(smtp);
      assertThat(smtp.send("short\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(ascii(acceptor.only().raw())).isEqualTo("short\r\n");
    assertThat(refusals("line_too_long")).isEqualTo(1);
    assertServesTheNextClient(1);
  }

  // ---- sequence abuse ----

  @Test
  void executesNothingPipelinedAfterQuit() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.write(
          "QUIT\r\nMAIL FROM:<s@example.org>\r\nRCPT TO:<a@burnbox.test>\r\nDATA\r\n"
              + "after quit\r\n.\r\nNOOP\r\n");
      assertThat(smtp.reply()).isEqualTo("221 2.0.0 mx.burnbox.test closing connection");
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertServesTheNextClient();
  }

  @Test
  void answersPipelinedGarbageLineByLineAndStaysInStep() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.write(
          "\u0001\u0002\r\n\r\n   \r\nXYZZY plugh\r\n"
              + "N\u00d6\u00d6P\r\nMAIL\r\nRCPT\r\nDATA\0\r\nRSET now\r\n"
              + "X".repeat(990)
              + "\r\nNOOP\r\n");
      // SubEtha answers unknown and empty verbs itself; CodedReplies adds the enhanced code
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: bad syntax");
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: bad syntax");
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: bad syntax");
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: command not implemented");
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: command not implemented");
      assertThat(smtp.reply()).isEqualTo("501 5.5.4 Syntax: MAIL FROM:<address> [parameters]");
      assertThat(smtp.reply()).isEqualTo("503 5.5.1 Need MAIL command first");
      assertThat(smtp.reply()).isEqualTo("501 5.5.4 Syntax: DATA");
      assertThat(smtp.reply()).isEqualTo("501 5.5.4 Syntax: RSET (no parameters)");
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: command not implemented");
      assertThat(smtp.reply()).isEqualTo("250 2.0.0 Ok");
      openData(smtp);
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    assertServesTheNextClient(1);
  }

  @Test
  void refusesThousandsOfRecipientsPastTheLimitWith452AndKeepsTheFirstOnes() throws IOException {
    int flood = 5000;
    StringBuilder commands = new StringBuilder("MAIL FROM:<s@example.org>\r\n");
    for (int i = 0; i < flood; i++) {
      commands.append("RCPT TO:<r").append(i).append("@burnbox.test>\r\n");
    }
    for (int i = 0; i < 1000; i++) {
      commands.append("RCPT TO:<R0@BURNBOX.TEST>\r\n"); // repeats are taken, and kept once
    }
    try (SmtpScript smtp = attacker()) {
      Thread writer =
          writeAside(smtpOutput(smtp), commands.toString().getBytes(StandardCharsets.US_ASCII));
      assertThat(smtp.reply()).startsWith("250 2.1.0");
      List<String> replies = new ArrayList<>();
      for (int i = 0; i < flood + 1000; i++) {
        replies.add(smtp.reply());
      }
      awaitDone(writer);
      assertThat(replies.subList(0, 3)).containsOnly("250 2.1.5 Recipient ok");
      assertThat(replies.subList(3, flood)).containsOnly("452 4.5.3 Too many recipients");
      assertThat(replies.subList(flood, flood + 1000)).containsOnly("250 2.1.5 Recipient ok");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().envelope().recipients())
        .containsExactly("r0@burnbox.test", "r1@burnbox.test", "r2@burnbox.test");
    assertThat(refusals("too_many_recipients")).isEqualTo(flood - 3);
    assertServesTheNextClient(1);
  }

  // ---- the error limit ----

  private static final String TOO_MANY_ERRORS = "421 4.7.0 Too many errors, closing connection";

  /**
   * Errors of every kind count: SubEtha's own replies to unknown verbs, the intake's refusals of
   * commands out of sequence and its policy's refusals of recipients. The 20th closes the session.
   */
  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        " | FOOBAR | 500 5.5.2 Error: command not implemented",
        " | RCPT TO:<a@burnbox.test> | 503 5.5.1 Need MAIL command first",
        "MAIL FROM:<s@example.org> | RCPT TO:<x@elsewhere.test> | 550 5.7.1",
      })
  void closesTheSessionWith421AtTheTwentiethError(String setup, String command, String refusal)
      throws IOException {
    try (SmtpScript smtp = attacker()) {
      if (setup != null) {
        smtp.expectAfter(setup, "250");
      }
      for (int i = 1; i < SessionGate.MAX_ERRORS; i++) {
        smtp.expectAfter(command, refusal);
      }
      assertThat(smtp.send("NOOP")).as("19 errors are no reason to close").startsWith("250");
      smtp.expectAfter(command, refusal);
      assertThat(smtp.reply()).isEqualTo(TOO_MANY_ERRORS);
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertThat(refusals("too_many_errors")).isEqualTo(1);
    assertServesTheNextClient();
  }

  @Test
  void answersAPipelinedFloodOfUnknownVerbsTwentyTimesThenCloses() throws IOException {
    try (SmtpScript smtp = attacker()) {
      Thread writer =
          writeAside(
              smtpOutput(smtp), "FOOBAR\r\n".repeat(5000).getBytes(StandardCharsets.US_ASCII));
      for (int i = 0; i < SessionGate.MAX_ERRORS; i++) {
        assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: command not implemented");
      }
      assertThat(smtp.reply()).isEqualTo(TOO_MANY_ERRORS);
      assertThat(smtp.closedByServer()).isTrue();
      awaitDone(writer);
    }
    assertThat(refusals("too_many_errors")).isEqualTo(1);
    assertServesTheNextClient();
  }

  @Test
  void countsSubEthasOwnErrorsUnderTlsToo() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.startTls();
      smtp.expectAfter("EHLO client.test", "250-");
      for (int i = 0; i < SessionGate.MAX_ERRORS; i++) {
        smtp.expectAfter("FOOBAR", "500 5.5.2");
      }
      assertThat(smtp.reply()).isEqualTo(TOO_MANY_ERRORS);
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertThat(refusals("too_many_errors")).isEqualTo(1);
  }

  /**
   * A legitimate MTA reusing its connection, each of whose messages has a few recipients refused
   * and more than the server takes (452, sent again later), is not cut: a message taken forgives
   * the errors before it, and the recipient limit's 452 is no error.
   */
  @Test
  void errorsAreCountedSinceTheLastMessageTakenAndTheRecipientLimitIsNoError() throws IOException {
    int messages = 8;
    try (SmtpScript smtp = attacker()) {
      for (int message = 0; message < messages; message++) {
        smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
        for (int i = 0; i < 3; i++) { // 24 refused in all
          smtp.expectAfter("RCPT TO:<x" + i + "@elsewhere.test>", "550 5.7.1");
        }
        for (int i = 0; i < 3 + SessionGate.MAX_ERRORS; i++) { // --max-recipients=3
          smtp.expectAfter("RCPT TO:<r" + i + "@burnbox.test>", i < 3 ? "250" : "452 4.5.3");
        }
        smtp.expectAfter("DATA", "354");
        assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
      }
      assertThat(smtp.send("NOOP")).startsWith("250");
    }
    assertThat(refusals("too_many_errors")).isZero();
    assertServesTheNextClient(messages);
  }

  @Test
  void refusesDataWithoutMailOrRcptWith503() throws IOException {
    try (SmtpScript smtp = attacker()) {
      assertThat(smtp.send("DATA")).isEqualTo("503 5.5.1 Need MAIL command first");
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250 2.1.0");
      assertThat(smtp.send("DATA")).isEqualTo("503 5.5.1 Need RCPT command first");
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250 2.1.0"); // the 503 ended it
      assertThat(smtp.send("RCPT TO:<nobody@elsewhere.test>")).startsWith("550 5.7.1");
      assertThat(smtp.send("DATA")).isEqualTo("554 5.5.1 No valid recipients");
      // content sent blindly after the refused DATA runs as commands, each refused
      smtp.write("Subject: blind\r\n.\r\n");
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: command not implemented");
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: bad syntax");
      smtp.expectAfter("RSET", "250");
      openData(smtp);
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(refusals("bad_sequence")).isEqualTo(2);
    assertThat(refusals("no_valid_recipients")).isEqualTo(1);
    assertServesTheNextClient(1);
  }

  @Test
  void refusesRelayTricksAndDeliversASourceRoutedRecipientOnlyLocally() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250 2.1.0");
      assertThat(smtp.send("RCPT TO:<@burnbox.test:victim@elsewhere.test>"))
          .isEqualTo("550 5.7.1 Relay access denied: domain not served here");
      assertThat(smtp.send("RCPT TO:<victim@burnbox.test.elsewhere.test>"))
          .isEqualTo("550 5.7.1 Relay access denied: domain not served here");
      assertThat(smtp.send("RCPT TO:<victim@[10.0.0.1]>"))
          .isEqualTo("550 5.7.1 Relay access denied: domain not served here");
      assertThat(smtp.send("RCPT TO:<victim@elsewhere.test@burnbox.test>"))
          .isEqualTo("501 5.1.3 Bad recipient address syntax");
      assertThat(smtp.send("RCPT TO:<@elsewhere.test:a@burnbox.test>")).startsWith("250 2.1.5");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().envelope().recipients()).containsExactly("a@burnbox.test");
    assertThat(refusals("unserved_domain")).isEqualTo(3);
    assertServesTheNextClient(1);
  }

  // ---- dot-stuffing ----

  @Test
  void unstuffsOnlyTheFirstDotOfLinesThatAreNotTheTerminator() throws IOException {
    try (SmtpScript smtp = attacker()) {
      openData(smtp);
      smtp.write("..\r\n. \r\n.\t\r\n...\r\n.. .\r\nend.\r\n");
      assertThat(smtp.silentFor(QUIET)).isTrue(); // ". " and ".\t" are not the terminator
      assertThat(smtp.send(".")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(ascii(acceptor.only().raw())).isEqualTo(".\r\n \r\n\t\r\n..\r\n. .\r\nend.\r\n");
    assertServesTheNextClient(1);
  }

  @Test
  void takesALoneDotRightAfter354AsAnEmptyMessage() throws IOException {
    try (SmtpScript smtp = attacker()) {
      openData(smtp);
      assertThat(smtp.send(".")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().raw()).isEmpty();
    assertServesTheNextClient(1);
  }

  @Test
  void waitsWhenTheDotFollowsTheBodyWithoutALineBreak() throws IOException {
    try (SmtpScript smtp = attacker()) {
      openData(smtp);
      smtp.write("Subject: x\r\n\r\nlast line.\r\n"); // "last line" + ".\r\n": not the end
      assertThat(smtp.silentFor(QUIET)).isTrue();
      assertThat(smtp.send(".")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(ascii(acceptor.only().raw())).isEqualTo("Subject: x\r\n\r\nlast line.\r\n");
    assertServesTheNextClient(1);
  }

  @Test
  void findsTheTerminatorAndStuffedDotsSplitAcrossTcpWrites()
      throws IOException, InterruptedException {
    List<String> pieces =
        List.of("Subject: split\r\n\r\nbody\r", "\n.", ".stuffed\r\n", ".", "\r", "\n");
    try (SmtpScript smtp = attacker()) {
      smtp.socket().setTcpNoDelay(true);
      openData(smtp);
      for (String piece : pieces) {
        smtp.write(piece);
        Thread.sleep(30);
      }
      assertThat(smtp.reply()).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(ascii(acceptor.only().raw()))
        .isEqualTo("Subject: split\r\n\r\nbody\r\n.stuffed\r\n");
    assertServesTheNextClient(1);
  }

  // ---- 8-bit commands ----

  @Test
  void refusesCommandsThatAreNotUtf8And501Closes() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.write("MAIL FROM:<j".getBytes(StandardCharsets.US_ASCII));
      smtp.write(new byte[] {(byte) 0xe9}); // ISO-8859-1 "é": not UTF-8
      smtp.write("@example.org>\r\n".getBytes(StandardCharsets.US_ASCII));
      assertThat(smtp.reply()).isEqualTo("501 5.5.2 Syntax error: invalid character encoding.");
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertServesTheNextClient();
  }

  @Test
  void takesUtf8AddressesWithTheSmtputf8ParameterOnly() throws IOException {
    try (SmtpScript smtp = attacker()) {
      assertThat(smtp.send("MAIL FROM:<jürgen@exämple.org>"))
          .isEqualTo("553 5.6.7 Non-ASCII address needs SMTPUTF8 in MAIL");
      smtp.expectAfter("MAIL FROM:<jürgen@exämple.org> SMTPUTF8", "250 2.1.0");
      smtp.expectAfter("RCPT TO:<ä@burnbox.test>", "250 2.1.5");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
      assertThat(smtp.send("MÄIL FROM:<a@example.org>"))
          .isEqualTo("500 5.5.2 Error: command not implemented");
    }
    assertThat(acceptor.only().envelope().sender()).isEqualTo("jürgen@exämple.org");
    assertServesTheNextClient(1);
  }

  // ---- STARTTLS ----

  @Test
  void refusesStartTlsInsideAMailTransactionAndKeepsTheTransaction() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250 2.1.0");
      assertThat(smtp.send("STARTTLS"))
          .isEqualTo("503 5.5.1 Mail transaction in progress, RSET first");
      smtp.expectAfter("RCPT TO:<a@burnbox.test>", "250 2.1.5");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
      smtp.startTls();
      smtp.expectAfter("EHLO client.test", "250-");
      assertThat(smtp.send("STARTTLS")).isEqualTo("503 5.5.1 TLS already active");
    }
    assertThat(acceptor.only().envelope().tls()).isFalse();
    assertServesTheNextClient(1);
  }

  @Test
  void codesSubEthasOwnRepliesUnderTlsAndStillStoresAMessageAfterThem() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.startTls();
      smtp.expectAfter("EHLO client.test", "250-");
      smtp.write("\r\n   \r\nXYZZY plugh\r\n" + "X".repeat(990) + "\r\nNOOP\r\n");
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: bad syntax");
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: bad syntax");
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: command not implemented");
      assertThat(smtp.reply()).isEqualTo("500 5.5.2 Error: command not implemented");
      assertThat(smtp.reply()).isEqualTo("250 2.0.0 Ok");
      openData(smtp);
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().envelope().tls()).isTrue();
    assertServesTheNextClient(1);
  }

  @Test
  void refusesABareLineFeedUnderTlsWith501AndItsCodeAndCloses() throws IOException {
    try (SmtpScript smtp = attacker()) {
      smtp.startTls();
      smtp.expectAfter("EHLO client.test", "250-");
      smtp.write("NOOP\nQUIT\r\n");
      assertThat(smtp.reply())
          .isEqualTo(
              "501 5.5.2 Syntax error at character position 4. CR and LF must be CRLF paired. "
                  + " See RFC 2821 #2.7.1.");
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertServesTheNextClient();
  }

  @Test
  void neverRunsPlaintextCommandsPipelinedBehindStartTls() throws IOException {
    // CVE-2011-0411: commands sent in the clear with STARTTLS must not run inside the TLS session
    try (Socket plain = new Socket()) {
      plain.bind(new InetSocketAddress(InetAddress.getByName(ATTACKER), 0));
      plain.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), intake.port()), 5000);
      plain.setSoTimeout(5000);
      InputStream in = plain.getInputStream();
      OutputStream out = plain.getOutputStream();
      assertThat(readLine(in)).startsWith("220 ");
      out.write(
          "EHLO client.test\r\nSTARTTLS\r\nMAIL FROM:<inj@example.org>\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      String line;
      do {
        line = readLine(in);
      } while (line.startsWith("250-"));
      assertThat(readLine(in)).isEqualTo("220 2.0.0 Ready to start TLS");
      SSLSocket secure =
          (SSLSocket)
              SmtpScript.trustingEveryone()
                  .getSocketFactory()
                  .createSocket(plain, "localhost", plain.getPort(), true);
      secure.setUseClientMode(true);
      // SubEtha drops what it had buffered in the clear; what it had not read breaks the handshake
      Throwable handshake = catchThrowable(secure::startHandshake);
      if (handshake == null) {
        secure.getOutputStream().write("RCPT TO:<a@burnbox.test>\r\n".getBytes());
        assertThat(readLine(secure.getInputStream())).startsWith("503 5.5.1");
      } else {
        assertThat(handshake).isInstanceOf(IOException.class);
      }
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> activeSessions() == 0);
    assertServesTheNextClient();
  }

  // ---- helpers ----

  private static OutputStream smtpOutput(SmtpScript smtp) {
    try {
      return smtp.socket().getOutputStream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void awaitDone(Thread writer) {
    try {
      assertThat(writer.join(Duration.ofSeconds(10))).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != '\n') {
      if (b < 0) {
        throw new IOException("closed after " + line);
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.UTF_8);
  }

  private double activeSessions() {
    return registry.get("burnbox.smtp.sessions.active").gauge().value();
  }
}
