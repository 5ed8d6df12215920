package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Reply codes and message hand-over of the intake, over raw sockets, for both thread models. */
@ParameterizedClass
@EnumSource(ThreadModel.class)
class SmtpIntakeProtocolTest {
  @Parameter ThreadModel threads;

  private final RecordingAcceptor acceptor = new RecordingAcceptor();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private SmtpIntake intake;

  @BeforeEach
  void start() {
    intake =
        TestIntakes.start(
            TestIntakes.settings(threads, "--max-message-size=1000", "--max-recipients=3"),
            acceptor,
            registry);
  }

  @AfterEach
  void stop() {
    TestIntakes.stop(intake);
  }

  private SmtpScript session() throws IOException {
    return SmtpScript.ehlo(intake.port(), "127.0.0.1");
  }

  private double refusals(String reason) {
    return TestIntakes.count(registry, "burnbox.refusals", "reason", reason);
  }

  @Test
  void greetsAndAdvertisesTheExtensionsThatWork() throws IOException {
    try (SmtpScript smtp = SmtpScript.connect(intake.port())) {
      assertThat(smtp.expect("220 ")).contains("mx.burnbox.test");
      String ehlo = smtp.send("EHLO client.test");
      assertThat(ehlo.lines()).first().asString().startsWith("250-mx.burnbox.test");
      assertThat(ehlo.lines().map(line -> line.substring(4)))
          .contains(
              "SIZE 1000",
              "8BITMIME",
              "SMTPUTF8",
              "PIPELINING",
              "CHUNKING",
              "ENHANCEDSTATUSCODES",
              "STARTTLS");
      assertThat(ehlo.lines().toList().getLast()).startsWith("250 ");
    }
  }

  @Test
  void deliversOneMessageWithAllDistinctRecipients() throws IOException {
    try (SmtpScript smtp = session()) {
      assertThat(smtp.send("MAIL FROM:<sender@example.org>")).isEqualTo("250 2.1.0 Sender ok");
      assertThat(smtp.send("RCPT TO:<a@burnbox.test>")).isEqualTo("250 2.1.5 Recipient ok");
      assertThat(smtp.send("RCPT TO:<b@other.test>")).startsWith("250 2.1.5");
      assertThat(smtp.send("RCPT TO:<A@BURNBOX.TEST>")).startsWith("250 2.1.5");
      assertThat(smtp.send("RCPT TO:<c@burnbox.test>")).startsWith("250 2.1.5");
      assertThat(smtp.send("DATA")).startsWith("354");
      assertThat(smtp.send("Subject: hi\r\n\r\nbody\r\n.")).isEqualTo("250 2.0.0 Stored");
      assertThat(smtp.send("QUIT")).startsWith("221 2.0.0");
    }
    Envelope envelope = acceptor.only().envelope();
    assertThat(envelope.recipients())
        .containsExactly("a@burnbox.test", "b@other.test", "c@burnbox.test");
    assertThat(envelope.sender()).isEqualTo("sender@example.org");
    assertThat(envelope.heloName()).isEqualTo("client.test");
    assertThat(envelope.trustedClient()).isTrue();
    assertThat(envelope.tls()).isFalse();
    assertThat(new String(acceptor.only().raw(), StandardCharsets.US_ASCII))
        .isEqualTo("Subject: hi\r\n\r\nbody\r\n");
    assertThat(TestIntakes.count(registry, "burnbox.smtp.messages", "outcome", "accepted"))
        .isEqualTo(1);
  }

  @Test
  void unstuffsDotsOnEveryLineIncludingTheFirst() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("..first\r\nmiddle\r\n..\r\n...last\r\n.")).startsWith("250");
    }
    assertThat(new String(acceptor.only().raw(), StandardCharsets.US_ASCII))
        .isEqualTo(".first\r\nmiddle\r\n.\r\n..last\r\n");
  }

  @Test
  void passesSmtpUtf8AddressesAndEightBitBodiesThroughByteExact() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(
        "Subject: =?UTF-8?Q?gr=C3=BC=C3=9Fe?=\r\n\r\n".getBytes(StandardCharsets.UTF_8));
    body.writeBytes("Grüße, Jürgen — ✉\r\n".getBytes(StandardCharsets.UTF_8));
    body.writeBytes(new byte[] {(byte) 0xff, (byte) 0x80, 0x01, 0x7f, '\r', '\n'});
    byte[] expected = body.toByteArray();
    try (SmtpScript smtp = session()) {
      assertThat(smtp.send("MAIL FROM:<jürgen@exämple.org> SMTPUTF8 BODY=8BITMIME"))
          .startsWith("250");
      assertThat(smtp.send("RCPT TO:<postfächle@burnbox.test>")).startsWith("250");
      smtp.expectAfter("DATA", "354");
      smtp.write(expected);
      assertThat(smtp.send(".")).startsWith("250");
    }
    RecordingAcceptor.Delivery delivery = acceptor.only();
    assertThat(delivery.raw()).isEqualTo(expected);
    assertThat(delivery.envelope().sender()).isEqualTo("jürgen@exämple.org");
    assertThat(delivery.envelope().recipients()).containsExactly("postfächle@burnbox.test");
  }

  @Test
  void answersPipelinedCommandsInOrder() throws IOException {
    try (SmtpScript smtp = SmtpScript.connect(intake.port())) {
      smtp.expect("220");
      smtp.write(
          "EHLO client.test\r\nMAIL FROM:<s@example.org>\r\nRCPT TO:<a@burnbox.test>\r\n"
              + "RCPT TO:<nobody@elsewhere.test>\r\nRCPT TO:<b@burnbox.test>\r\nDATA\r\n");
      assertThat(smtp.reply()).startsWith("250-");
      assertThat(smtp.reply()).startsWith("250 2.1.0");
      assertThat(smtp.reply()).startsWith("250 2.1.5");
      assertThat(smtp.reply()).startsWith("550 5.7.1");
      assertThat(smtp.reply()).startsWith("250 2.1.5");
      assertThat(smtp.reply()).startsWith("354");
      smtp.write(
          "Subject: piped\r\n\r\nx\r\n.\r\nMAIL FROM:<t@example.org>\r\nRSET\r\nNOOP\r\nQUIT\r\n");
      assertThat(smtp.reply()).startsWith("250 2.0.0");
      assertThat(smtp.reply()).startsWith("250 2.1.0");
      assertThat(smtp.reply()).startsWith("250 2.0.0");
      assertThat(smtp.reply()).startsWith("250 2.0.0");
      assertThat(smtp.reply()).startsWith("221 2.0.0");
    }
    assertThat(acceptor.only().envelope().recipients())
        .containsExactly("a@burnbox.test", "b@burnbox.test");
  }

  @Test
  void deliversChunkedBdatContentAsOneMessage() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.write("BDAT 14\r\nSubject: x\r\n\r\n");
      assertThat(smtp.reply()).isEqualTo("250 2.0.0 14 octets received");
      smtp.write("BDAT 7 LAST\r\n.body\r\n");
      assertThat(smtp.reply()).isEqualTo("250 2.0.0 Stored");
      assertThat(smtp.send("MAIL FROM:<s@example.org>")).startsWith("250");
    }
    assertThat(new String(acceptor.only().raw(), StandardCharsets.US_ASCII))
        .isEqualTo("Subject: x\r\n\r\n.body\r\n");
  }

  @Test
  void refusesDataAfterBdatAndBdatWithoutTransactionKeepsTheStreamInStep() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.write("BDAT 5\r\nhello");
      assertThat(smtp.reply()).startsWith("503 5.5.1");
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.write("BDAT 3\r\nab\n");
      assertThat(smtp.reply()).startsWith("250");
      assertThat(smtp.send("DATA")).startsWith("503 5.5.1"); // and ends the transaction
      smtp.write("BDAT 2 LAST\r\nzz");
      assertThat(smtp.reply()).isEqualTo("503 5.5.1 Need MAIL command first");
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.write("BDAT 3 LAST\r\ncd\n");
      assertThat(smtp.reply()).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().raw()).isEqualTo("cd\n".getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * After a BDAT whose size cannot be read, or is too large to read past, the next command cannot
   * be found: the BDAT is refused, then the session ends with 421 (RFC 5321 3.8 allows a server to
   * close unprompted only after a 421), and nothing is delivered.
   */
  @Test
  void aBdatWhoseChunkCannotBeReadPastIsRefusedThenClosedWith421() throws IOException {
    String closing = "421 4.5.0 Cannot find the end of the BDAT chunk, closing connection";
    for (String bdat : List.of("BDAT", "BDAT LAST", "BDAT 5x LAST", "BDAT -5", "BDAT 5 LAST now")) {
      try (SmtpScript smtp = session()) {
        smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
        smtp.expectAfter("RCPT TO:<a@burnbox.test>", "250");
        assertThat(smtp.send(bdat)).isEqualTo("501 5.5.4 Syntax: BDAT <size> [LAST]");
        assertThat(smtp.reply()).isEqualTo(closing);
        assertThat(smtp.closedByServer()).isTrue();
      }
    }
    try (SmtpScript smtp = session()) {
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
      smtp.expectAfter("RCPT TO:<a@burnbox.test>", "250");
      // RFC 3030 syntax (1*DIGIT), but 10^19 bytes and more
      assertThat(smtp.send("BDAT 99999999999999999999 LAST"))
          .isEqualTo("552 5.3.4 Message size exceeds fixed limit");
      assertThat(smtp.reply()).isEqualTo(closing);
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertThat(acceptor.deliveries()).isEmpty();
    assertThat(refusals("syntax")).isEqualTo(5);
    assertThat(refusals("message_too_large")).isEqualTo(1);
  }

  @Test
  void aBdatSizeWithLeadingZerosIsTheSizeItWrites() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
      smtp.expectAfter("RCPT TO:<a@burnbox.test>", "250");
      smtp.write("BDAT 000000000000000000000005 LAST\r\nhello");
      assertThat(smtp.reply()).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().raw()).isEqualTo("hello".getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void dataAfterEveryRecipientWasRefusedIs554NotABadSequence() throws IOException {
    try (SmtpScript smtp = session()) {
      // a pipelining client sends its group at once, as Postfix's smtp client does
      smtp.write(
          "MAIL FROM:<s@example.org>\r\nRCPT TO:<a@elsewhere.test>\r\nRCPT TO:<bad>\r\nDATA\r\n");
      assertThat(smtp.reply()).startsWith("250");
      assertThat(smtp.reply()).startsWith("550 5.7.1");
      assertThat(smtp.reply()).startsWith("501 5.1.3");
      assertThat(smtp.reply()).isEqualTo("554 5.5.1 No valid recipients");
      smtp.expectAfter("RSET", "250");
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
      assertThat(smtp.send("DATA")).as("no RCPT at all").startsWith("503 5.5.1");
    }
    assertThat(refusals("no_valid_recipients")).isEqualTo(1);
    assertThat(refusals("bad_sequence")).isEqualTo(1);
  }

  @Test
  void aDataRefusedForWantOfRecipientsEndsTheTransactionSoTheNextMailHasItsOwnSender()
      throws IOException {
    try (SmtpScript smtp = session()) {
      // the QA session: a pipelined group whose only recipient is refused, then a new one
      smtp.write(
          "MAIL FROM:<old@example.org>\r\nRCPT TO:<a@elsewhere.test>\r\nDATA\r\n"
              + "MAIL FROM:<new@example.org>\r\nRCPT TO:<a@burnbox.test>\r\nDATA\r\n");
      assertThat(smtp.reply()).startsWith("250 2.1.0");
      assertThat(smtp.reply()).startsWith("550 5.7.1");
      assertThat(smtp.reply()).isEqualTo("554 5.5.1 No valid recipients");
      assertThat(smtp.reply()).isEqualTo("250 2.1.0 Sender ok");
      assertThat(smtp.reply()).startsWith("250 2.1.5");
      assertThat(smtp.reply()).startsWith("354");
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().envelope().sender()).isEqualTo("new@example.org");
    assertThat(acceptor.only().envelope().recipients()).containsExactly("a@burnbox.test");
  }

  @Test
  void everyRefusedDataOrBdatEndsTheTransaction() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.expectAfter("MAIL FROM:<old1@example.org>", "250");
      smtp.expectAfter("RCPT TO:<a@elsewhere.test>", "550");
      smtp.write("BDAT 5 LAST\r\nhello");
      assertThat(smtp.reply()).isEqualTo("554 5.5.1 No valid recipients");
      smtp.expectAfter("MAIL FROM:<old2@example.org>", "250");
      assertThat(smtp.send("DATA")).isEqualTo("503 5.5.1 Need RCPT command first");
      smtp.expectAfter("MAIL FROM:<old3@example.org>", "250");
      smtp.expectAfter("RCPT TO:<old3@burnbox.test>", "250");
      assertThat(smtp.send("DATA now")).startsWith("501 5.5.4");
      smtp.expectAfter("MAIL FROM:<old4@example.org>", "250");
      smtp.expectAfter("RCPT TO:<old4@burnbox.test>", "250");
      smtp.write("BDAT 3\r\nab\n");
      assertThat(smtp.reply()).startsWith("250");
      assertThat(smtp.send("DATA")).isEqualTo("503 5.5.1 DATA after BDAT in one transaction");
      assertThat(smtp.send("RCPT TO:<late@burnbox.test>"))
          .isEqualTo("503 5.5.1 Need MAIL command first");
      smtp.expectAfter("MAIL FROM:<new@example.org>", "250");
      smtp.expectAfter("RCPT TO:<new@burnbox.test>", "250");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().envelope().sender()).isEqualTo("new@example.org");
    assertThat(acceptor.only().envelope().recipients()).containsExactly("new@burnbox.test");
  }

  @Test
  void refusesMailAndRcptParametersNotOfferedWith555() throws IOException {
    try (SmtpScript smtp = session()) {
      String notOffered =
          "555 5.5.4 MAIL FROM/RCPT TO parameters not recognized or not implemented";
      assertThat(smtp.send("MAIL FROM:<a@b.c> BOGUS=1")).isEqualTo(notOffered);
      assertThat(smtp.send("MAIL FROM:<a@b.c> RET=HDRS"))
          .as("DSN is not offered")
          .isEqualTo(notOffered);
      assertThat(smtp.send("MAIL FROM:<a@b.c> SIZE=10 XYZZY")).isEqualTo(notOffered);
      assertThat(smtp.send("MAIL FROM:<a@b.c> BODY=QUANTUM")).startsWith("501 5.5.4");
      assertThat(smtp.send("MAIL FROM:<a@b.c> SMTPUTF8=yes")).startsWith("501 5.5.4");
      assertThat(smtp.send("MAIL FROM:<a@b.c> BODY=BINARYMIME"))
          .as("BINARYMIME is not offered")
          .isEqualTo(notOffered);
      assertThat(smtp.send("MAIL FROM:<a@b.c> size=10 Body=7bit BODY=8bitmime smtputf8 AUTH=<>"))
          .isEqualTo("250 2.1.0 Sender ok");
      assertThat(smtp.send("RCPT TO:<x@burnbox.test> FOO=BAR")).isEqualTo(notOffered);
      assertThat(smtp.send("RCPT TO:<x@burnbox.test> NOTIFY=NEVER")).isEqualTo(notOffered);
      assertThat(smtp.send("DATA")).isEqualTo("554 5.5.1 No valid recipients");
    }
    assertThat(acceptor.deliveries()).isEmpty();
    assertThat(refusals("unknown_parameter")).isEqualTo(6);
  }

  @Test
  void acceptsPostmasterWithoutADomainForThePostmasterOfTheFirstDomain() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
      assertThat(smtp.send("RCPT TO:<postmaster>")).isEqualTo("250 2.1.5 Recipient ok");
      assertThat(smtp.send("RCPT TO:<PostMaster>")).isEqualTo("250 2.1.5 Recipient ok");
      assertThat(smtp.send("RCPT TO:<postmistress>")).startsWith("501 5.1.3");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().envelope().recipients()).containsExactly("postmaster@burnbox.test");
  }

  /**
   * A quoted local part that needs no quotes is the mailbox written plainly (RFC 5321 4.1.2); one
   * that needs them (a space, an @, a quote) can be no inbox name: 553 5.1.3 naming the rule it
   * breaks, as for any local part that is none, after the 550 of a domain not served. Never a 501:
   * the address is well-formed.
   */
  @Test
  void aQuotedLocalPartIsTheMailboxItQuotesOrNoInboxNameNamingTheRuleBroken() throws IOException {
    String notAllowed = "553 5.1.3 Mailbox name not allowed: inbox name ";
    try (SmtpScript smtp = session()) {
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
      assertThat(smtp.send("RCPT TO:<\"bob\"@burnbox.test>")).isEqualTo("250 2.1.5 Recipient ok");
      assertThat(smtp.send("RCPT TO:<\"a.b\\+c\"@Other.Test>")).startsWith("250 2.1.5");
      assertThat(smtp.send("RCPT TO:<\"john doe\"@burnbox.test>"))
          .isEqualTo(
              notAllowed
                  + "may hold letters, digits and . _ + - only, not U+0020 (index 4):"
                  + " \"john doe\"");
      assertThat(smtp.send("RCPT TO:<\"victim@elsewhere.test\"@burnbox.test>"))
          .isEqualTo(
              notAllowed
                  + "may hold letters, digits and . _ + - only, not U+0040 (index 6):"
                  + " \"victim@elsewhere.test\"");
      assertThat(smtp.send("RCPT TO:<\"a>b\"@burnbox.test>")).contains("not U+003E (index 1)");
      assertThat(smtp.send("RCPT TO:<\"a..b\"@burnbox.test>"))
          .isEqualTo(notAllowed + "has two dots in a row: \"a..b\"");
      assertThat(smtp.send("RCPT TO:<\"\"@burnbox.test>")).isEqualTo(notAllowed + "is empty");
      assertThat(smtp.send("RCPT TO:<\"john doe\"@elsewhere.test>")).startsWith("550 5.7.1");
      assertThat(smtp.send("RCPT TO:<\"a\u001bb\"@burnbox.test>")).startsWith("501 5.1.3");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
    }
    assertThat(acceptor.only().envelope().recipients())
        .containsExactly("bob@burnbox.test", "a.b+c@Other.Test");
    assertThat(refusals("bad_mailbox_name")).isEqualTo(5);
  }

  /**
   * A sender's local part may be a quoted string (RFC 5321 4.1.2): one that needs no quotes is the
   * mailbox written plainly, as in RCPT; one that needs them is kept as written, quotes and quoted
   * pairs included, since a sender names no inbox. A quoted string with a control character, or
   * without a well-formed domain, is still no address, and a non-ASCII one needs SMTPUTF8.
   */
  @Test
  void aQuotedLocalPartInTheSenderIsTakenAsWrittenOrPlainlyWhenItNeedsNoQuotes()
      throws IOException {
    String badSender = "501 5.1.7 Bad sender address syntax";
    try (SmtpScript smtp = session()) {
      assertThat(smtp.send("MAIL FROM:<\"a\u001bb\"@example.org>")).isEqualTo(badSender);
      assertThat(smtp.send("MAIL FROM:<\"a\\\u001bb\"@example.org>")).isEqualTo(badSender);
      assertThat(smtp.send("MAIL FROM:<\"john doe\">")).isEqualTo(badSender);
      assertThat(smtp.send("MAIL FROM:<\"john doe\"@>")).isEqualTo(badSender);
      assertThat(smtp.send("MAIL FROM:<\"john doe\"@exa mple.org>")).isEqualTo(badSender);
      assertThat(smtp.send("MAIL FROM:<\"john doe\"x@example.org>")).isEqualTo(badSender);
      assertThat(smtp.send("MAIL FROM:<\"jörg doe\"@example.org>")).startsWith("553 5.6.7");
      for (String from :
          List.of(
              "<\"john doe\"@example.org>",
              "<\"bob\"@example.org>",
              "<\"a\\\"b@c\"@example.org>",
              "<@relay.test:\"john doe\"@example.org>",
              "<\"jörg doe\"@exämple.org> SMTPUTF8")) {
        assertThat(smtp.send("MAIL FROM:" + from)).isEqualTo("250 2.1.0 Sender ok");
        smtp.expectAfter("RCPT TO:<a@burnbox.test>", "250");
        smtp.expectAfter("DATA", "354");
        assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
      }
    }
    assertThat(acceptor.deliveries())
        .extracting(delivery -> delivery.envelope().sender())
        .containsExactly(
            "\"john doe\"@example.org",
            "bob@example.org",
            "\"a\\\"b@c\"@example.org",
            "\"john doe\"@example.org",
            "\"jörg doe\"@exämple.org");
    assertThat(refusals("bad_sender_address")).isEqualTo(6);
    assertThat(refusals("non_ascii_address")).isEqualTo(1);
  }

  /**
   * A quote in a path must open a quoted string that closes within it; a quote left open is a
   * syntax error, whatever follows it. (This is what keeps {@code PATH} linear: see its comment.)
   */
  @Test
  void aQuoteLeftOpenInAPathIsASyntaxError() throws IOException {
    String mailSyntax = "501 5.5.4 Syntax: MAIL FROM:<address> [parameters]";
    try (SmtpScript smtp = session()) {
      assertThat(smtp.send("MAIL FROM:<\"\\\"\\\"@example.org>")).isEqualTo(mailSyntax);
      assertThat(smtp.send("MAIL FROM:<a\"b@example.org>")).isEqualTo(mailSyntax);
      assertThat(smtp.send("MAIL FROM:<" + "\"\\".repeat(450) + ">")).isEqualTo(mailSyntax);
      assertThat(smtp.send("MAIL FROM:<s@example.org>")).startsWith("250");
      assertThat(smtp.send("RCPT TO:<\"bob@burnbox.test>"))
          .isEqualTo("501 5.5.4 Syntax: RCPT TO:<address> [parameters]");
      assertThat(smtp.send("RCPT TO:<\"bob\"@burnbox.test>")).startsWith("250 2.1.5");
    }
    assertThat(refusals("syntax")).isEqualTo(4);
  }

  @Test
  void refusesMailBeforeHelo() throws IOException {
    try (SmtpScript smtp = SmtpScript.connect(intake.port())) {
      smtp.expect("220");
      assertThat(smtp.send("MAIL FROM:<s@example.org>")).startsWith("503 5.5.1");
    }
    assertThat(refusals("bad_sequence")).isEqualTo(1);
  }

  @Test
  void refusesCommandsOutOfSequence() throws IOException {
    try (SmtpScript smtp = session()) {
      assertThat(smtp.send("RCPT TO:<a@burnbox.test>")).startsWith("503 5.5.1");
      assertThat(smtp.send("DATA")).startsWith("503 5.5.1");
      smtp.send("MAIL FROM:<s@example.org>");
      assertThat(smtp.send("MAIL FROM:<s@example.org>")).startsWith("503 5.5.1");
      assertThat(smtp.send("DATA")).startsWith("503 5.5.1");
    }
    assertThat(refusals("bad_sequence")).isEqualTo(4);
  }

  @Test
  void answersUnknownAndUnofferedCommands() throws IOException {
    try (SmtpScript smtp = session()) {
      assertThat(smtp.send("FROB nicate")).startsWith("500");
      assertThat(smtp.send("EXPN list")).startsWith("502 5.5.1");
      assertThat(smtp.send("VRFY a")).startsWith("252 2.5.0");
      assertThat(smtp.send("NOOP")).startsWith("250 2.0.0");
    }
    // (AUTH is offered by default; SmtpAuthTest covers it, and its 502 with --smtp-auth off)
    assertThat(refusals("not_implemented")).isEqualTo(1);
  }

  /** RFC 5321 4.1.1.5 and 4.1.1.6: RSET takes no argument, VRFY needs one. */
  @Test
  void refusesVrfyWithoutAnArgumentAndRsetWithOne() throws IOException {
    try (SmtpScript smtp = session()) {
      assertThat(smtp.send("VRFY")).isEqualTo("501 5.5.4 Syntax: VRFY <user or mailbox>");
      assertThat(smtp.send("VRFY postmaster")).startsWith("252 2.5.0");
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
      assertThat(smtp.send("RSET now")).isEqualTo("501 5.5.4 Syntax: RSET (no parameters)");
      assertThat(smtp.send("MAIL FROM:<s@example.org>"))
          .as("the refused RSET reset nothing")
          .isEqualTo("503 5.5.1 Sender already specified");
      assertThat(smtp.send("RSET")).isEqualTo("250 2.0.0 Ok");
      smtp.expectAfter("MAIL FROM:<s@example.org>", "250");
    }
    assertThat(refusals("syntax")).isEqualTo(2);
  }

  /**
   * HELO negotiates no extension (RFC 5321 3.3, 4.1.1.11): MAIL takes no parameter after it, and a
   * BDAT (CHUNKING) is refused; its chunk is read and dropped, so the stream stays in step.
   */
  @Test
  void afterHeloMailTakesNoParametersAndBdatIsRefused() throws IOException {
    String notOffered = "555 5.5.4 MAIL FROM/RCPT TO parameters not recognized or not implemented";
    try (SmtpScript smtp = SmtpScript.connect(intake.port())) {
      smtp.expect("220");
      smtp.expectAfter("HELO client.test", "250");
      for (String parameter : List.of("SIZE=100", "BODY=8BITMIME", "SMTPUTF8", "BODY=7BIT")) {
        assertThat(smtp.send("MAIL FROM:<a@qa.test> " + parameter)).isEqualTo(notOffered);
      }
      smtp.expectAfter("MAIL FROM:<a@qa.test>", "250 2.1.0");
      smtp.expectAfter("RCPT TO:<a@burnbox.test>", "250 2.1.5");
      smtp.write("BDAT 5 LAST\r\nhello");
      assertThat(smtp.reply()).isEqualTo("503 5.5.1 BDAT needs EHLO, not HELO");
      assertThat(smtp.send("RCPT TO:<b@burnbox.test>"))
          .as("the refused BDAT ended the transaction")
          .isEqualTo("503 5.5.1 Need MAIL command first");
      smtp.expectAfter("MAIL FROM:<a@qa.test>", "250 2.1.0");
      smtp.expectAfter("RCPT TO:<a@burnbox.test>", "250 2.1.5");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("x\r\n.")).isEqualTo("250 2.0.0 Stored");
      smtp.expectAfter("EHLO client.test", "250");
      smtp.expectAfter("MAIL FROM:<a@qa.test> SIZE=100 BODY=8BITMIME SMTPUTF8", "250 2.1.0");
    }
    assertThat(acceptor.only().raw()).isEqualTo("x\r\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(refusals("unknown_parameter")).isEqualTo(4);
  }

  /**
   * STARTTLS (RFC 3207) and AUTH (RFC 4954) are extensions offered by EHLO: after HELO both are
   * refused and nothing changes; after an EHLO in the same session both work.
   */
  @Test
  void afterHeloStartTlsAndAuthAreRefusedUntilEhlo() throws IOException {
    String plain =
        Base64.getEncoder().encodeToString("\0user\0password".getBytes(StandardCharsets.UTF_8));
    try (SmtpScript smtp = SmtpScript.connect(intake.port())) {
      smtp.expect("220");
      assertThat(smtp.send("STARTTLS")).isEqualTo("503 5.5.1 Send EHLO first");
      smtp.expectAfter("HELO client.test", "250");
      assertThat(smtp.send("STARTTLS")).isEqualTo("503 5.5.1 STARTTLS needs EHLO, not HELO");
      assertThat(smtp.send("AUTH PLAIN " + plain)).isEqualTo("503 5.5.1 AUTH needs EHLO, not HELO");
      assertThat(smtp.send("AUTH LOGIN")).isEqualTo("503 5.5.1 AUTH needs EHLO, not HELO");
      smtp.expectAfter("MAIL FROM:<a@qa.test>", "250 2.1.0");
      smtp.expectAfter("RSET", "250");
      smtp.expectAfter("EHLO client.test", "250");
      smtp.expectAfter("AUTH PLAIN " + plain, "235 2.7.0");
      smtp.startTls();
      smtp.expectAfter("EHLO client.test", "250");
    }
    assertThat(refusals("bad_sequence")).isEqualTo(4);
  }

  @Test
  void answersSyntaxErrorsWith501() throws IOException {
    try (SmtpScript smtp = session()) {
      assertThat(smtp.send("EHLO")).startsWith("501 5.5.4");
      assertThat(smtp.send("MAIL FROM:s@example.org")).startsWith("501 5.5.4");
      assertThat(smtp.send("MAIL TO:<s@example.org>")).startsWith("501 5.5.4");
      assertThat(smtp.send("MAIL FROM:<not an address>")).startsWith("501 5.1.7");
      assertThat(smtp.send("MAIL FROM:<s@example.org> SIZE=lots")).startsWith("501 5.5.4");
      smtp.send("MAIL FROM:<s@example.org>");
      assertThat(smtp.send("RCPT TO:<no-domain>")).startsWith("501 5.1.3");
      assertThat(smtp.send("RCPT FROM:<a@burnbox.test>")).startsWith("501 5.5.4");
      assertThat(smtp.send("DATA now")).startsWith("501 5.5.4");
    }
    assertThat(refusals("syntax")).isEqualTo(6);
    assertThat(refusals("bad_sender_address")).isEqualTo(1);
    assertThat(refusals("bad_recipient_address")).isEqualTo(1);
  }

  @Test
  void refusesRecipientsInDomainsNotServed() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      assertThat(smtp.send("RCPT TO:<victim@elsewhere.test>")).startsWith("550 5.7.1");
      assertThat(smtp.send("RCPT TO:<a@Other.TEST>")).startsWith("250");
    }
    assertThat(refusals("unserved_domain")).isEqualTo(1);
  }

  @Test
  void refusesRecipientsBeyondTheLimitButNotRepeatedOnes() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      for (String recipient : List.of("a", "b", "c", "A", "c")) {
        assertThat(smtp.send("RCPT TO:<" + recipient + "@burnbox.test>")).startsWith("250");
      }
      assertThat(smtp.send("RCPT TO:<d@burnbox.test>")).isEqualTo("452 4.5.3 Too many recipients");
    }
    assertThat(refusals("too_many_recipients")).isEqualTo(1);
  }

  @Test
  void refusesDeclaredSizeAboveTheLimit() throws IOException {
    try (SmtpScript smtp = session()) {
      assertThat(smtp.send("MAIL FROM:<s@example.org> SIZE=1001")).startsWith("552 5.3.4");
      assertThat(smtp.send("MAIL FROM:<s@example.org> SIZE=1000")).startsWith("250");
    }
    assertThat(refusals("message_too_large")).isEqualTo(1);
  }

  @Test
  void refusesOversizeContentWith552AndStaysUsable() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      String line = "x".repeat(98) + "\r\n";
      smtp.write(line.repeat(20)); // 2000 bytes
      assertThat(smtp.send(".")).isEqualTo("552 5.3.4 Message size exceeds fixed limit");
      assertThat(smtp.send("MAIL FROM:<s@example.org>")).startsWith("250");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("small\r\n.")).startsWith("250");
    }
    assertThat(acceptor.only().raw()).hasSize(7);
    assertThat(refusals("message_too_large")).isEqualTo(1);
    assertThat(TestIntakes.count(registry, "burnbox.smtp.messages", "outcome", "rejected"))
        .isEqualTo(1);
  }

  @Test
  void refusesOversizeBdatContentAtTheLastChunk() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      String chunk = ("y".repeat(98) + "\r\n").repeat(6); // 600 bytes
      smtp.write("BDAT 600\r\n" + chunk);
      assertThat(smtp.reply()).startsWith("250");
      smtp.write("BDAT 600 LAST\r\n" + chunk);
      assertThat(smtp.reply()).startsWith("552 5.3.4");
      assertThat(smtp.send("MAIL FROM:<s@example.org>")).startsWith("250");
    }
    assertThat(acceptor.deliveries()).isEmpty();
    assertThat(TestIntakes.count(registry, "burnbox.smtp.bytes", null, null)).isEqualTo(1200);
  }

  @Test
  void refusesContentWithAnOverlongLine() throws IOException {
    // the shortest limit there is, on messages that may be longer than one such line
    TestIntakes.stop(intake);
    intake =
        TestIntakes.start(
            TestIntakes.settings(threads, "--max-line-length=1000"), acceptor, registry);
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      smtp.write("x".repeat(998) + "\r\n"); // exactly the limit of 1000 with CRLF
      assertThat(smtp.send(".")).startsWith("250");
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      smtp.write("x".repeat(999) + "\r\n");
      assertThat(smtp.send(".")).startsWith("500 5.5.2");
    }
    assertThat(acceptor.deliveries()).hasSize(1);
    assertThat(refusals("line_too_long")).isEqualTo(1);
  }

  @Test
  void refusesAnOverlongCommandLineAndCloses() throws IOException {
    try (SmtpScript smtp = session()) {
      assertThat(smtp.send("NOOP " + "x".repeat(1100))).startsWith("501");
      assertThat(smtp.closedByServer()).isTrue();
    }
  }

  @Test
  void passesTheAcceptorsRefusalOnAndEndsTheTransaction() throws IOException {
    acceptor.answer(new SmtpReply(550, "5.7.1", "Message rejected as spam"));
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("spam\r\n.")).isEqualTo("550 5.7.1 Message rejected as spam");
      acceptor.answer(new SmtpReply(452, "4.3.1", "Store full"));
      assertThat(smtp.send("MAIL FROM:<s@example.org>")).startsWith("250");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("ham\r\n.")).isEqualTo("452 4.3.1 Store full");
    }
    assertThat(TestIntakes.count(registry, "burnbox.smtp.messages", "outcome", "rejected"))
        .isEqualTo(2);
  }

  @Test
  void acceptsTheNullSenderByDefault() throws IOException {
    try (SmtpScript smtp = session()) {
      assertThat(smtp.send("MAIL FROM:<>")).startsWith("250");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("bounce\r\n.")).startsWith("250");
    }
    assertThat(acceptor.only().envelope().sender()).isEmpty();
  }

  @Test
  void deliversNothingWhenTheClientDisconnectsMidData() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      smtp.write("Subject: cut short\r\n\r\nhalf a mess");
    }
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () -> TestIntakes.count(registry, "burnbox.smtp.messages", "outcome", "aborted") == 1);
    assertThat(acceptor.deliveries()).isEmpty();
    await().atMost(Duration.ofSeconds(5)).until(() -> activeSessions() == 0);
  }

  @Test
  void deliversNothingWhenTheClientDisconnectsMidBdatChunk() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.write("BDAT 100 LAST\r\nonly a few bytes");
    }
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () -> TestIntakes.count(registry, "burnbox.smtp.messages", "outcome", "aborted") == 1);
    assertThat(acceptor.deliveries()).isEmpty();
  }

  /**
   * A BDAT transaction left after a complete chunk counts as aborted, as a DATA cut short does,
   * whatever ends it: the client going away or saying QUIT, or RSET, EHLO, HELO or a refused DATA
   * clearing it (RFC 3030: an RSET between chunks clears the chunks sent).
   */
  @Test
  void aBdatTransactionLeftBetweenChunksCountsAsAborted() throws IOException {
    List<String> endings = List.of("", "QUIT", "RSET", "EHLO client.test", "HELO c.test", "DATA");
    for (int i = 0; i < endings.size(); i++) {
      String ending = endings.get(i);
      try (SmtpScript smtp = session()) {
        smtp.send("MAIL FROM:<s@example.org>");
        smtp.send("RCPT TO:<a@burnbox.test>");
        smtp.write("BDAT 20\r\n" + "x".repeat(20));
        assertThat(smtp.reply()).isEqualTo("250 2.0.0 20 octets received");
        if (!ending.isEmpty()) {
          smtp.send(ending);
        }
      }
      double abandoned = i + 1;
      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () ->
                  assertThat(
                          TestIntakes.count(
                              registry, "burnbox.smtp.messages", "outcome", "aborted"))
                      .as("aborted after ending with '%s'", ending)
                      .isEqualTo(abandoned));
    }
    assertThat(TestIntakes.count(registry, "burnbox.smtp.bytes", null, null)).isEqualTo(120);
    assertThat(TestIntakes.count(registry, "burnbox.smtp.messages", "outcome", "accepted"))
        .isZero();
    assertThat(TestIntakes.count(registry, "burnbox.smtp.messages", "outcome", "rejected"))
        .isZero();
    assertThat(acceptor.deliveries()).isEmpty();
  }

  /**
   * A MAIL between BDAT chunks is out of sequence (RFC 5321 4.1.4): refused, it leaves the
   * transaction as it was, whose last chunk then delivers it, counted once as accepted.
   */
  @Test
  void aMailBetweenBdatChunksIsRefusedAndTheTransactionGoesOn() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.write("BDAT 3\r\nab\n");
      assertThat(smtp.reply()).startsWith("250");
      assertThat(smtp.send("MAIL FROM:<t@example.org>"))
          .isEqualTo("503 5.5.1 Sender already specified");
      smtp.write("BDAT 3 LAST\r\ncd\n");
      assertThat(smtp.reply()).isEqualTo("250 2.0.0 Stored");
      smtp.send("QUIT");
    }
    assertThat(new String(acceptor.only().raw(), StandardCharsets.US_ASCII)).isEqualTo("ab\ncd\n");
    await().atMost(Duration.ofSeconds(5)).until(() -> activeSessions() == 0);
    assertThat(TestIntakes.count(registry, "burnbox.smtp.messages", "outcome", "accepted"))
        .isEqualTo(1);
    assertThat(TestIntakes.count(registry, "burnbox.smtp.messages", "outcome", "aborted")).isZero();
  }

  /** Replaces the intake by one with the given timeouts (the default ones are long). */
  private void restartWithTimeouts(Duration command, Duration data) {
    TestIntakes.stop(intake);
    intake =
        TestIntakes.start(
            TestIntakes.settings(
                threads,
                "--command-timeout=" + command.toMillis() + "ms",
                "--data-timeout=" + data.toMillis() + "ms"),
            acceptor,
            registry);
  }

  @Test
  void closesWith421WhenTheClientIsSilentTooLong() throws IOException {
    restartWithTimeouts(Duration.ofMillis(300), Duration.ofSeconds(30));
    try (SmtpScript smtp = session()) {
      assertThat(smtp.reply()).startsWith("421");
      assertThat(smtp.closedByServer()).isTrue();
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> refusals("command_timeout") == 1);
  }

  @Test
  void doesNotCountAQuitAsATimeout() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.send("QUIT");
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> activeSessions() == 0);
    assertThat(refusals("command_timeout")).isZero();
  }

  @Test
  void answers451WhenTheAcceptorFails() throws IOException {
    MessageAcceptor failing =
        (envelope, raw) -> {
          throw new IllegalStateException("store on fire");
        };
    SmtpIntake other = TestIntakes.start(TestIntakes.settings(threads), failing, registry);
    try (SmtpScript smtp = SmtpScript.ehlo(other.port(), "127.0.0.1")) {
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("x\r\n.")).startsWith("451 4.3.0");
      assertThat(smtp.send("NOOP")).startsWith("250");
    } finally {
      TestIntakes.stop(other);
    }
    assertThat(refusals("acceptor_failed")).isEqualTo(1);
  }

  @Test
  void closesWith421WhenMessageContentStalls() throws IOException {
    restartWithTimeouts(Duration.ofSeconds(30), Duration.ofMillis(300));
    try (SmtpScript smtp = session()) {
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      smtp.write("Subject: slow\r\n");
      assertThat(smtp.reply()).startsWith("421 4.4.2");
      assertThat(smtp.closedByServer()).isTrue();
    }
    assertThat(acceptor.deliveries()).isEmpty();
    assertThat(refusals("data_timeout")).isEqualTo(1);
  }

  @Test
  void upgradesToTlsAndForgetsTheEarlierHelo() throws IOException {
    try (SmtpScript smtp = session()) {
      smtp.startTls();
      assertThat(smtp.tlsProtocol()).startsWith("TLSv1.");
      assertThat(smtp.send("MAIL FROM:<s@example.org>")).startsWith("503 5.5.1");
      String ehlo = smtp.send("EHLO client.test");
      assertThat(ehlo).doesNotContain("STARTTLS");
      assertThat(smtp.send("STARTTLS")).startsWith("503 5.5.1");
      smtp.send("MAIL FROM:<s@example.org>");
      smtp.send("RCPT TO:<a@burnbox.test>");
      smtp.expectAfter("DATA", "354");
      assertThat(smtp.send("secret\r\n.")).startsWith("250");
    }
    assertThat(acceptor.only().envelope().tls()).isTrue();
  }

  @Test
  void countsSessionsAndActiveSessions() throws IOException {
    try (SmtpScript first = session();
        SmtpScript second = session()) {
      assertThat(activeSessions()).isEqualTo(2);
      first.send("QUIT");
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> activeSessions() == 0);
    assertThat(registry.get("burnbox.smtp.sessions").counter().count()).isEqualTo(2);
  }

  private double activeSessions() {
    return registry.get("burnbox.smtp.sessions.active").gauge().value();
  }
}
