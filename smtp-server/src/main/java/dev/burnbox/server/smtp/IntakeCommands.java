package dev.burnbox.server.smtp;

import dev.burnbox.mailstore.InboxName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.subethamail.smtp.DropConnectionException;
import org.subethamail.smtp.RejectException;
import org.subethamail.smtp.internal.server.BaseCommand;
import org.subethamail.smtp.internal.server.Command;
import org.subethamail.smtp.internal.server.CommandException;
import org.subethamail.smtp.internal.server.HelpMessage;
import org.subethamail.smtp.server.Session;

/**
 * The intake's SMTP commands, replacing SubEtha's own in its command registry: they speak enhanced
 * status codes, count every refusal (and each refused command towards the session's error limit,
 * {@link SessionGate#erred}), and fix SubEtha's DATA and BDAT (a rejected message, or a refused
 * DATA or BDAT, now ends the transaction, a first-line dot is unstuffed, a disconnect mid-content
 * delivers nothing). Each command runs on its session's thread; the instances are shared and
 * stateless.
 */
final class IntakeCommands {
  private static final Logger log = LoggerFactory.getLogger(IntakeCommands.class);

  /**
   * {@code FROM:<address> params} / {@code TO:<address> params}; the brackets are required. A
   * quoted string in the address may hold brackets ({@code <"a>b"@x>}); a quote that opens no
   * quoted string closed within the path is a syntax error.
   *
   * <p>Linear in the line: outside quoted strings the second alternative takes no quote, so each
   * quote begins one attempt at a quoted string, which either closes (the walk goes on after it) or
   * fails, and then nothing else can take that quote and the match fails there; the groups are
   * atomic and possessive, so nothing is walked twice. (With {@code [^<>]} there, a quote left open
   * was taken as a plain character after its failed attempt had walked to the end of the line, and
   * the next quote walked there again: {@code <"\"\"\"...} cost the square of its length.)
   */
  private static final Pattern PATH =
      Pattern.compile("(?i)(FROM|TO):\\s*<((?>\"(?:[^\"\\\\]|\\\\.)*+\"|[^<>\"])*+)>(?:\\s+(.*))?");

  /** A domain, or an address literal in brackets, without white space or control characters. */
  private static final String DOMAIN = "(?:[^\\s\\p{Cc}<>@\\[\\]]+|\\[[^\\s\\p{Cc}<>\\[\\]]+\\])";

  private static final Pattern DOMAIN_PART = Pattern.compile(DOMAIN);

  /**
   * A mailbox {@code local@domain} without white space, brackets or control characters ({@code
   * \p{Cc}}: C0 controls such as NUL and ESC, DEL, C1 controls), which have no place in an address
   * and would reach the envelope, the store and the web pages otherwise.
   */
  private static final Pattern MAILBOX = Pattern.compile("[^\\s\\p{Cc}<>@]+@" + DOMAIN);

  private final IntakeSettings settings;
  private final Refusals refusals;
  private final SessionGate gate;
  private final Supplier<SSLContext> tls;
  private final SmtpAuthenticator authenticator;

  private IntakeCommands(
      IntakeSettings settings,
      Refusals refusals,
      SessionGate gate,
      Supplier<SSLContext> tls,
      SmtpAuthenticator authenticator) {
    this.settings = settings;
    this.refusals = refusals;
    this.gate = gate;
    this.tls = tls;
    this.authenticator = authenticator;
  }

  /** All commands, to be added to SubEtha's command handler before the server starts. */
  static List<Command> all(
      IntakeSettings settings,
      Refusals refusals,
      SessionGate gate,
      Supplier<SSLContext> tls,
      SmtpAuthenticator authenticator) {
    IntakeCommands commands = new IntakeCommands(settings, refusals, gate, tls, authenticator);
    List<Command> all = new ArrayList<>();
    all.add(commands.new Ehlo());
    all.add(commands.new Helo());
    all.add(commands.new Mail());
    all.add(commands.new Rcpt());
    all.add(commands.new Data());
    all.add(commands.new Bdat());
    all.add(commands.new StartTls());
    all.add(commands.fixed("RSET", Argument.NONE, true, SmtpReply.ok("Ok")));
    all.add(commands.fixed("NOOP", Argument.OPTIONAL, false, SmtpReply.ok("Ok")));
    all.add(
        commands.fixed(
            "HELP", Argument.OPTIONAL, false, new SmtpReply(214, "2.0.0", "See RFC 5321")));
    all.add(
        commands.fixed(
            "VRFY",
            Argument.REQUIRED,
            false,
            new SmtpReply(252, "2.5.0", "Cannot VRFY user, but will accept mail")));
    all.add(commands.new Quit());
    all.add(authenticator.enabled() ? commands.new Auth() : commands.new NotImplemented("AUTH"));
    all.add(commands.new NotImplemented("EXPN"));
    all.replaceAll(commands::touching);
    return all;
  }

  /** A read from the client inside a command. */
  private interface ClientRead<T> {
    T read() throws IOException;
  }

  /**
   * Runs {@code read} as a wait for the client, not on the intake: the stall cutter ends the
   * session if the client stays silent past the command timeout (the sockets have no read timeout
   * of their own). For the reads a command makes itself: an AUTH answer, a TLS handshake.
   */
  private <T> T fromClient(Session session, ClientRead<T> read) throws IOException {
    SessionGate.Client client = gate.client(session);
    client.waiting(SessionGate.Client.Waiting.FOR_COMMAND);
    try {
      return read.read();
    } finally {
      client.waiting(SessionGate.Client.Waiting.ON_INTAKE);
    }
  }

  /**
   * Reads a line the client sends in answer to a command (an AUTH response), as {@link #fromClient}
   * does; null at the end of the stream, and also when the socket fails while it waits: the client
   * reset its connection ("Connection reset"), or the intake cut the session (a stall, a stop),
   * which closes a TLS socket outright, so the read sees "Socket closed" instead of the end of the
   * stream. Either is the client leaving, not an error for SubEtha to log as a WARN with a stack
   * trace (as it does for an exception out of a command); any other failure is thrown.
   */
  private String lineFromClient(Session session) throws IOException {
    try {
      return fromClient(session, session.getReader()::readLine);
    } catch (SocketException e) {
      log.debug(
          "session ended while AUTH waited for the client ({}): {}",
          gate.client(session).endedByIntake() ? "cut by the intake" : "the client left",
          e.toString());
      return null;
    }
  }

  /** Wraps a command so that its session's last activity is noted before and after it. */
  private Command touching(Command command) {
    return new Command() {
      @Override
      public void execute(String line, Session session)
          throws IOException, DropConnectionException {
        SessionGate.Client client = gate.client(session);
        client.waiting(SessionGate.Client.Waiting.ON_INTAKE);
        try {
          command.execute(line, session);
        } finally {
          client.waiting(SessionGate.Client.Waiting.FOR_COMMAND);
        }
      }

      @Override
      public HelpMessage getHelp() throws CommandException {
        return command.getHelp();
      }

      @Override
      public String getName() {
        return command.getName();
      }
    };
  }

  /**
   * Whether the client introduced itself with HELO rather than EHLO: HELO negotiates no extension
   * (RFC 5321 3.3), so it gets none of STARTTLS, AUTH, CHUNKING or MAIL parameters.
   */
  private boolean afterHelo(Session session) {
    return session.getHelo().isPresent() && !gate.client(session).esmtp();
  }

  private static void send(Session session, SmtpReply reply) throws IOException {
    session.sendResponse(reply.toString());
  }

  /** Refuses a command: sends the refusal's reply, counts it and the session's error. */
  private void refuse(Session session, Refusal refusal, String detail) throws IOException {
    send(session, refusals.record(refusal, gate.client(session).address(), detail));
    gate.erred(session);
  }

  /**
   * Refuses a command as {@code refused} says: sends its reply, counts it and the session's error.
   */
  private void refuse(Session session, Refused refused) throws IOException {
    send(session, refusals.record(refused, gate.client(session).address()));
    gate.erred(session);
  }

  /** {@link #refuse(Session, Refusal, String)} with {@code text} for the refusal's own. */
  private void refuse(Session session, Refusal refusal, String detail, String text)
      throws IOException {
    SmtpReply reply = refusals.record(refusal, gate.client(session).address(), detail);
    send(session, new SmtpReply(reply.code(), reply.enhancedStatus(), text));
    gate.erred(session);
  }

  /**
   * Sends the refusal a transaction's policy threw at MAIL or RCPT (counted there) and counts the
   * session's error, unless it is the recipient limit's 452, which a client heeds by sending the
   * other recipients in a later transaction.
   */
  private void refuse(Session session, RejectException rejection) throws IOException {
    session.sendResponse(rejection.getErrorResponse());
    if (!rejection.getErrorResponse().equals(Refusal.TOO_MANY_RECIPIENTS.reply().toString())) {
      gate.erred(session);
    }
  }

  /** Sends the reply at the end of a message; one taken forgives the session's errors. */
  private void answerContent(Session session, SmtpReply reply) throws IOException {
    if (reply.isPositive()) {
      gate.client(session).delivered();
    }
    send(session, reply);
  }

  private static String argument(String commandLine, String verb) {
    return commandLine.length() <= verb.length()
        ? ""
        : commandLine.substring(verb.length()).strip();
  }

  private static MessageTransaction transaction(Session session) {
    return (MessageTransaction) session.getMessageHandler();
  }

  /**
   * A HELO/EHLO argument: one word, no white space and no control characters (it is kept in the
   * envelope, so NUL or ESC must not get in). Anything else printable is taken: clients send
   * domains, address literals and, wrongly but commonly, bare host names.
   */
  private static boolean isHeloName(String name) {
    return !name.isEmpty()
        && name.codePoints()
            .noneMatch(c -> Character.isWhitespace(c) || Character.getType(c) == Character.CONTROL);
  }

  /** EHLO: resets the transaction and lists the extensions that work. */
  private final class Ehlo extends BaseCommand {
    Ehlo() {
      super("EHLO", "Introduce yourself.", "<hostname>");
    }

    @Override
    public void execute(String line, Session session) throws IOException {
      String name = argument(line, "EHLO");
      if (!isHeloName(name)) {
        refuse(session, Refusal.SYNTAX, line, "Syntax: EHLO hostname");
        return;
      }
      session.resetMailTransaction();
      session.setHelo(name);
      gate.client(session).greeted(true);
      List<String> lines = new ArrayList<>();
      lines.add(settings.hostName() + " greets " + name);
      lines.add("SIZE " + settings.maxMessageSize());
      lines.add("8BITMIME");
      lines.add("SMTPUTF8");
      lines.add("PIPELINING");
      lines.add("CHUNKING");
      lines.add("ENHANCEDSTATUSCODES");
      if (!session.isTLSStarted()) {
        lines.add("STARTTLS");
      }
      if (authOffered(session)) {
        lines.add("AUTH PLAIN LOGIN");
      }
      StringBuilder reply = new StringBuilder();
      for (int i = 0; i < lines.size(); i++) {
        reply.append(i == 0 ? "" : "\r\n").append(i == lines.size() - 1 ? "250 " : "250-");
        reply.append(lines.get(i));
      }
      session.sendResponse(reply.toString());
    }
  }

  /** HELO: like EHLO without extensions. */
  private final class Helo extends BaseCommand {
    Helo() {
      super("HELO", "Introduce yourself.", "<hostname>");
    }

    @Override
    public void execute(String line, Session session) throws IOException {
      String name = argument(line, "HELO");
      if (!isHeloName(name)) {
        refuse(session, Refusal.SYNTAX, line, "Syntax: HELO hostname");
        return;
      }
      session.resetMailTransaction();
      session.setHelo(name);
      gate.client(session).greeted(false);
      session.sendResponse("250 " + settings.hostName());
    }
  }

  /** MAIL FROM: sequence, syntax, parameters, SIZE, then the transaction's sender policy. */
  private final class Mail extends BaseCommand {
    Mail() {
      super("MAIL", "Specifies the sender.", "FROM: <sender> [ <parameters> ]");
    }

    @Override
    public void execute(String line, Session session) throws IOException, DropConnectionException {
      if (gate.draining()) {
        SmtpReply reply =
            refusals.record(Refusal.SHUTTING_DOWN, gate.client(session).address(), "");
        throw new DropConnectionException(
            reply.code(), reply.enhancedStatus() + " " + reply.text());
      }
      if (session.getHelo().isEmpty()) {
        refuse(session, Refusal.BAD_SEQUENCE, line, "Send HELO or EHLO first");
        return;
      }
      if (session.isMailTransactionInProgress()) {
        refuse(session, Refusal.BAD_SEQUENCE, line, "Sender already specified");
        return;
      }
      Matcher path = PATH.matcher(argument(line, "MAIL"));
      if (!path.matches() || !path.group(1).equalsIgnoreCase("FROM")) {
        refuse(session, Refusal.SYNTAX, line, "Syntax: MAIL FROM:<address> [parameters]");
        return;
      }
      String sender = withoutSourceRoute(path.group(2));
      Optional<QuotedMailbox> quoted = quotedLocalPart(sender);
      boolean keepsQuotes = quoted.isPresent() && quoted.get().needsQuotes();
      if (quoted.isPresent() && !keepsQuotes) {
        sender = quoted.get().unquoted(); // "bob"@example.org is bob@example.org
      }
      // a local part that needs its quotes ("john doe"@example.org) is kept as written: a sender
      // names no inbox, and the quotes are how the address is written back
      if (!sender.isEmpty() && !keepsQuotes && !MAILBOX.matcher(sender).matches()) {
        refuse(session, Refusal.BAD_SENDER_ADDRESS, sender);
        return;
      }
      MailParameters parameters = mailParameters(path.group(3), line, session);
      if (parameters == null) {
        return;
      }
      long declaredSize = parameters.declaredSize();
      boolean utf8 = parameters.smtputf8();
      if (declaredSize > settings.maxMessageSize()) {
        refuse(session, Refusal.MESSAGE_TOO_LARGE, "SIZE=" + declaredSize);
        return;
      }
      if (!utf8 && !isAscii(sender)) {
        refuse(session, Refusal.NON_ASCII_ADDRESS, sender);
        return;
      }
      session.startMailTransaction();
      session.setDeclaredMessageSize((int) declaredSize);
      try {
        transaction(session).from(sender, utf8);
      } catch (RejectException e) {
        session.resetMailTransaction();
        refuse(session, e);
        return;
      }
      send(session, new SmtpReply(250, "2.1.0", "Sender ok"));
    }
  }

  /** What the intake takes from MAIL's parameters. */
  private record MailParameters(long declaredSize, boolean smtputf8) {}

  /**
   * MAIL's parameters: those of the extensions EHLO offers, {@code SIZE=}, {@code BODY=7BIT} or
   * {@code 8BITMIME}, {@code SMTPUTF8} and, where AUTH is offered, RFC 4954's {@code AUTH=} (taken,
   * not used). A known keyword with a bad value gets 501; any other parameter, {@code
   * BODY=BINARYMIME} (RFC 3030's, not offered) and every parameter after HELO, which offers no
   * extension, 555 (RFC 5321 4.1.1.11).
   *
   * @return null if a parameter was refused (answered already)
   */
  private MailParameters mailParameters(String text, String line, Session session)
      throws IOException {
    List<String> given = parameters(text);
    if (!given.isEmpty() && !gate.client(session).esmtp()) {
      // RFC 5321 3.3: parameters belong to extensions, and HELO negotiates none
      refuse(session, Refusal.UNKNOWN_PARAMETER, given.getFirst());
      return null;
    }
    long declaredSize = 0;
    boolean utf8 = false;
    for (String parameter : given) {
      int equals = parameter.indexOf('=');
      String keyword = equals < 0 ? parameter : parameter.substring(0, equals);
      String value = equals < 0 ? null : parameter.substring(equals + 1).toUpperCase(Locale.ROOT);
      switch (keyword.toUpperCase(Locale.ROOT)) {
        case "SIZE" -> {
          if (value == null || !value.matches("\\d{1,18}")) {
            refuse(session, Refusal.SYNTAX, line, "Syntax: SIZE=<number of bytes>");
            return null;
          }
          declaredSize = Long.parseLong(value);
        }
        case "BODY" -> {
          if ("BINARYMIME".equals(value)) { // RFC 3030's, which EHLO does not offer
            refuse(session, Refusal.UNKNOWN_PARAMETER, parameter);
            return null;
          }
          if (value == null || !value.matches("7BIT|8BITMIME")) {
            refuse(session, Refusal.SYNTAX, line, "Syntax: BODY=7BIT|8BITMIME");
            return null;
          }
        }
        case "SMTPUTF8" -> {
          if (value != null) {
            refuse(session, Refusal.SYNTAX, line, "Syntax: SMTPUTF8 (no value)");
            return null;
          }
          utf8 = true;
        }
        case "AUTH" -> {
          if (!authOffered(session)) {
            refuse(session, Refusal.UNKNOWN_PARAMETER, parameter);
            return null;
          }
          if (value == null || value.isEmpty()) {
            refuse(session, Refusal.SYNTAX, line, "Syntax: AUTH=<mailbox> or AUTH=<>");
            return null;
          }
        }
        default -> {
          refuse(session, Refusal.UNKNOWN_PARAMETER, parameter);
          return null;
        }
      }
    }
    return new MailParameters(declaredSize, utf8);
  }

  /**
   * RCPT TO: sequence, syntax (no parameters), then the transaction's recipient policy; {@code
   * <postmaster>} is the postmaster of {@link IntakeSettings#postmasterDomain()}.
   */
  private final class Rcpt extends BaseCommand {
    Rcpt() {
      super("RCPT", "Specifies a recipient.", "TO: <recipient> [ <parameters> ]");
    }

    @Override
    public void execute(String line, Session session) throws IOException {
      if (!session.isMailTransactionInProgress()) {
        refuse(session, Refusal.BAD_SEQUENCE, line, "Need MAIL command first");
        return;
      }
      Matcher path = PATH.matcher(argument(line, "RCPT"));
      if (!path.matches() || !path.group(1).equalsIgnoreCase("TO")) {
        refuse(session, Refusal.SYNTAX, line, "Syntax: RCPT TO:<address> [parameters]");
        return;
      }
      List<String> parameters = parameters(path.group(3));
      if (!parameters.isEmpty()) { // no extension offered (DSN would) defines a RCPT parameter
        transaction(session).recipientRefused();
        refuse(session, Refusal.UNKNOWN_PARAMETER, parameters.getFirst());
        return;
      }
      String recipient = withoutSourceRoute(path.group(2));
      if (recipient.equalsIgnoreCase("postmaster")) {
        // RFC 5321 4.5.1: <postmaster> without a domain must be taken; it names ours
        recipient = "postmaster@" + settings.postmasterDomain();
      }
      Optional<QuotedMailbox> quoted = quotedLocalPart(recipient);
      boolean needsQuotes = quoted.isPresent() && quoted.get().needsQuotes();
      if (quoted.isPresent() && !needsQuotes) {
        recipient = quoted.get().unquoted(); // "bob"@qa.test is bob@qa.test
      }
      if (!needsQuotes && !MAILBOX.matcher(recipient).matches()) {
        transaction(session).recipientRefused();
        refuse(session, Refusal.BAD_RECIPIENT_ADDRESS, recipient);
        return;
      }
      if (!transaction(session).smtputf8() && !isAscii(recipient)) {
        transaction(session).recipientRefused();
        refuse(session, Refusal.NON_ASCII_ADDRESS, recipient);
        return;
      }
      if (needsQuotes) {
        // white space, quotes, @ ...: no inbox name has them, so the refusal of any local part
        // that is no inbox name (after the one of a domain not served, as for the others)
        transaction(session).recipientRefused();
        if (settings.serves(quoted.get().domain())) {
          refuse(session, Refusal.badMailboxName(recipient, brokenRule(quoted.get())));
        } else {
          refuse(session, Refusal.UNSERVED_DOMAIN, recipient);
        }
        return;
      }
      try {
        transaction(session).recipient(recipient);
      } catch (RejectException e) {
        transaction(session).recipientRefused();
        refuse(session, e);
        return;
      }
      send(session, new SmtpReply(250, "2.1.5", "Recipient ok"));
    }
  }

  /**
   * The rule of inbox names that a quoted local part needing its quotes breaks, as {@link
   * InboxName} words it for the API (a space, an {@code @}, two dots in a row...).
   */
  private static String brokenRule(QuotedMailbox quoted) {
    try {
      InboxName.fromAddress(quoted.content() + "@" + quoted.domain());
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    return ""; // no such content needs its quotes: the refusal's own text
  }

  /**
   * The quoted local part of {@code mailbox} ({@link QuotedMailbox#parse}: no control characters,
   * quoted pairs of printable ASCII only) if its domain is well-formed too; empty otherwise, for
   * {@link #MAILBOX} to judge.
   */
  private static Optional<QuotedMailbox> quotedLocalPart(String mailbox) {
    return QuotedMailbox.parse(mailbox).filter(q -> DOMAIN_PART.matcher(q.domain()).matches());
  }

  private static boolean isAscii(String text) {
    return text.chars().allMatch(c -> c < 0x80);
  }

  private static String withoutSourceRoute(String path) {
    // <@relay1,@relay2:user@domain> is an obsolete source route: keep only the mailbox
    return path.startsWith("@") && path.indexOf(':') > 0
        ? path.substring(path.indexOf(':') + 1)
        : path;
  }

  private static List<String> parameters(String text) {
    return text == null || text.isBlank() ? List.of() : List.of(text.strip().split("\\s+"));
  }

  /**
   * Checks that content may follow; otherwise refuses it (503, or 554 when every RCPT was refused)
   * and ends the transaction, returning false.
   */
  private boolean readyForContent(String line, Session session) throws IOException {
    if (!session.isMailTransactionInProgress()) {
      refuseContent(session, Refusal.BAD_SEQUENCE, line, "Need MAIL command first");
      return false;
    }
    if (transaction(session).everyRecipientRefused()) {
      refuseContent(session, Refusal.NO_VALID_RECIPIENTS, line, null);
      return false;
    }
    if (!transaction(session).hasRecipients()) {
      refuseContent(session, Refusal.BAD_SEQUENCE, line, "Need RCPT command first");
      return false;
    }
    return true;
  }

  /**
   * Refuses a DATA or BDAT and ends the transaction, as its end of content would: the client must
   * not send the content now (RFC 5321 3.3) and starts again with RSET or MAIL, so a new MAIL is
   * taken and nothing of this transaction (sender, recipients, chunks) reaches a later message.
   *
   * @param text the reply's text, or null for the refusal's own
   */
  private void refuseContent(Session session, Refusal refusal, String line, String text)
      throws IOException {
    session.resetMailTransaction();
    if (text == null) {
      refuse(session, refusal, line);
    } else {
      refuse(session, refusal, line, text);
    }
  }

  /** A read of message content from the client. */
  private interface ContentRead {
    void read() throws IOException;
  }

  /** Reads content into the transaction ({@link #readContent}); false if the session is over. */
  private boolean absorb(Session session, InputStream in, long length) {
    MessageTransaction transaction = transaction(session);
    return readContent(session, () -> transaction.absorb(in, length), transaction::abort);
  }

  /**
   * Reads and drops a BDAT chunk that no transaction takes ({@link #readContent}), so that the
   * stream stays in step; false if the session is over.
   */
  private boolean discard(Session session, long length) {
    MessageTransactions transactions =
        (MessageTransactions) session.getServer().getMessageHandlerFactory();
    SessionGate.Client client = gate.client(session);
    return readContent(
        session, () -> transactions.discard(session.getRawInput(), length, client), () -> {});
  }

  /**
   * Runs {@code read} as a wait for content, kept or dropped: {@link
   * SessionGate#cutStalledSessions} cuts the session (421 4.4.2, counted as {@code data_timeout})
   * if the client stalls past the data timeout, and a stop tells it 421 4.3.2. When the client goes
   * away or is cut, runs {@code lost} (the transaction's content is lost), ends the session and
   * returns false; the acceptor is not called then.
   */
  private boolean readContent(Session session, ContentRead read, Runnable lost) {
    SessionGate.Client client = gate.client(session);
    client.waiting(SessionGate.Client.Waiting.FOR_CONTENT);
    try {
      read.read();
      return true;
    } catch (IOException e) {
      log.debug("client went away during message content: {}", e.toString());
      client.endAccounted();
      lost.run();
      session.resetMailTransaction();
      session.quit();
      return false;
    } finally {
      client.waiting(SessionGate.Client.Waiting.ON_INTAKE);
    }
  }

  /**
   * DATA: content up to {@code CRLF.CRLF}, then the acceptor's reply; always ends the transaction,
   * refused or not.
   */
  private final class Data extends BaseCommand {
    Data() {
      super("DATA", "Following text is the message; end it with <CR><LF>.<CR><LF>");
    }

    @Override
    public void execute(String line, Session session) throws IOException, DropConnectionException {
      if (!argument(line, "DATA").isEmpty()) {
        refuseContent(session, Refusal.SYNTAX, line, "Syntax: DATA");
        return;
      }
      if (!readyForContent(line, session)) {
        return;
      }
      if (transaction(session).chunked()) {
        refuseContent(session, Refusal.BAD_SEQUENCE, line, "DATA after BDAT in one transaction");
        return;
      }
      session.sendResponse("354 End data with <CR><LF>.<CR><LF>");
      InputStream content = new DotTerminatedContent(session.getRawInput());
      if (absorb(session, content, -1)) {
        SmtpReply reply = transaction(session).finish();
        session.resetMailTransaction();
        answerContent(session, reply);
      }
    }
  }

  /**
   * BDAT (RFC 3030 CHUNKING): each chunk is read exactly, then answered; the LAST one gets the
   * acceptor's reply and ends the transaction. A chunk sent out of sequence, or after HELO (which
   * does not offer CHUNKING), is read and dropped as content is read (under the data timeout) so
   * the stream stays in step, and its refusal (503, or 554 when every RCPT was refused) ends the
   * transaction too.
   */
  private final class Bdat extends BaseCommand {
    private static final Pattern ARGUMENTS = Pattern.compile("(?i)(\\d++)(\\s+LAST)?");

    /**
     * The most digits of a chunk size read (leading zeros aside): 10^18 bytes is more than any
     * message, and fits a long.
     */
    private static final int MAX_SIZE_DIGITS = 18;

    /**
     * Sent after the refusal of a BDAT whose size cannot be read or is too large to read past: the
     * end of its chunk, where the next command starts, is unknown, so the session must end, and RFC
     * 5321 3.8 allows a server to close unprompted only after a 421.
     */
    private static final SmtpReply LOST_STEP =
        new SmtpReply(421, "4.5.0", "Cannot find the end of the BDAT chunk, closing connection");

    Bdat() {
      super("BDAT", "A message chunk of the given size follows.", "<size> [LAST]");
    }

    @Override
    public void execute(String line, Session session) throws IOException, DropConnectionException {
      Matcher arguments = ARGUMENTS.matcher(argument(line, "BDAT"));
      if (!arguments.matches()) {
        SmtpReply reply = refusals.record(Refusal.SYNTAX, gate.client(session).address(), line);
        send(
            session,
            new SmtpReply(reply.code(), reply.enhancedStatus(), "Syntax: BDAT <size> [LAST]"));
        throw lostStep(session);
      }
      String digits = arguments.group(1).replaceFirst("^0+(?=\\d)", "");
      if (digits.length() > MAX_SIZE_DIGITS) { // RFC 3030 syntax, but no message's size
        send(
            session,
            refusals.record(Refusal.MESSAGE_TOO_LARGE, gate.client(session).address(), line));
        throw lostStep(session);
      }
      long size = Long.parseLong(digits);
      boolean last = arguments.group(2) != null;
      boolean afterHelo = afterHelo(session);
      if (afterHelo
          || !session.isMailTransactionInProgress()
          || !transaction(session).hasRecipients()) {
        if (!discard(session, size)) {
          return;
        }
        if (afterHelo) { // CHUNKING is offered by EHLO only
          refuseContent(session, Refusal.BAD_SEQUENCE, line, "BDAT needs EHLO, not HELO");
        } else {
          readyForContent(line, session);
        }
        return;
      }
      transaction(session).startChunks();
      if (!absorb(session, session.getRawInput(), size)) {
        return;
      }
      if (last) {
        SmtpReply reply = transaction(session).finish();
        session.resetMailTransaction();
        answerContent(session, reply);
      } else {
        send(session, SmtpReply.ok(size + " octets received"));
      }
    }
  }

  /** Ends the session with {@code 421 4.5.0} after a BDAT whose chunk cannot be read past. */
  private DropConnectionException lostStep(Session session) {
    gate.client(session).endAccounted();
    return new DropConnectionException(
        Bdat.LOST_STEP.code(), Bdat.LOST_STEP.enhancedStatus() + " " + Bdat.LOST_STEP.text());
  }

  /**
   * STARTTLS: upgrades the connection and forgets HELO (RFC 3207); refused under TLS, inside a mail
   * transaction and after HELO (only EHLO offers it).
   */
  private final class StartTls extends BaseCommand {
    StartTls() {
      super("STARTTLS", "Starts TLS.");
    }

    @Override
    public void execute(String line, Session session) throws IOException {
      if (!argument(line, "STARTTLS").isEmpty()) {
        refuse(session, Refusal.SYNTAX, line, "Syntax: STARTTLS (no parameters)");
        return;
      }
      if (session.getHelo().isEmpty()) { // RFC 3207: only an EHLO reply offers STARTTLS
        refuse(session, Refusal.BAD_SEQUENCE, line, "Send EHLO first");
        return;
      }
      if (afterHelo(session)) {
        refuse(session, Refusal.BAD_SEQUENCE, line, "STARTTLS needs EHLO, not HELO");
        return;
      }
      if (session.isTLSStarted()) {
        refuse(session, Refusal.BAD_SEQUENCE, line, "TLS already active");
        return;
      }
      if (session.isMailTransactionInProgress()) {
        // as Postfix does: an upgrade would silently drop the sender and recipients given so far
        refuse(session, Refusal.BAD_SEQUENCE, line, "Mail transaction in progress, RSET first");
        return;
      }
      SSLContext context;
      try {
        context = tls.get(); // the self-signed key is made at the first STARTTLS
      } catch (UncheckedIOException e) {
        log.error("cannot offer TLS: {}", e.getMessage());
        send(session, new SmtpReply(454, "4.7.0", "TLS not available due to temporary reason"));
        return;
      }
      send(session, new SmtpReply(220, "2.0.0", "Ready to start TLS"));
      // TLS goes over the connection itself; the session writes to a SessionSocket over TLS, so
      // that SubEtha's replies are coded before encryption and TLS records are never touched
      SessionSocket current = (SessionSocket) session.getSocket();
      Socket plain = current.connection();
      InetSocketAddress remote = (InetSocketAddress) plain.getRemoteSocketAddress();
      try {
        // getHostString, not getHostName: no reverse DNS lookup per handshake
        SSLSocket secure =
            (SSLSocket)
                context
                    .getSocketFactory()
                    .createSocket(plain, remote.getHostString(), remote.getPort(), true);
        secure.setUseClientMode(false);
        fromClient(
            session,
            () -> {
              secure.startHandshake();
              return null;
            });
        session.setSocket(current.over(secure));
        session.resetSmtpProtocol();
        session.setTlsStarted(true);
        gate.client(session).signOut(); // RFC 3207: forget what the plain session said
      } catch (IOException e) {
        log.debug("TLS handshake with {} failed: {}", remote, e.toString());
        session.quit();
      }
    }
  }

  /**
   * Whether this session may AUTH: the intake offers it, and the connection is encrypted, the
   * client trusted, or plain AUTH allowed for everyone.
   */
  private boolean authOffered(Session session) {
    return authenticator.enabled()
        && (session.isTLSStarted()
            || gate.client(session).trusted()
            || settings.authOnPlainConnections());
  }

  /**
   * AUTH PLAIN and AUTH LOGIN (RFC 4954, 4616): the credentials, with or without an initial
   * response, go to the {@link SmtpAuthenticator}; a client may authenticate once per session (and
   * again after STARTTLS), after EHLO (HELO does not offer it). A client that cancels with {@code
   * *} gets 501; refusals are counted.
   */
  private final class Auth extends BaseCommand {
    Auth() {
      super("AUTH", "Authenticate.", "PLAIN|LOGIN [initial-response]");
    }

    @Override
    public void execute(String line, Session session) throws IOException {
      SessionGate.Client client = gate.client(session);
      if (!authOffered(session)) { // first: nothing of a credential is read in the clear
        refuse(session, Refusal.AUTH_NEEDS_TLS, argument(line, "AUTH"));
        return;
      }
      String[] words = argument(line, "AUTH").split("\\s+");
      if (words[0].isEmpty() || words.length > 2) {
        refuse(session, Refusal.SYNTAX, line, "Syntax: AUTH mechanism [initial-response]");
        return;
      }
      if (session.getHelo().isEmpty()) {
        refuse(session, Refusal.BAD_SEQUENCE, "AUTH", "Send EHLO first");
        return;
      }
      if (afterHelo(session)) { // RFC 4954: AUTH is offered by EHLO
        refuse(session, Refusal.BAD_SEQUENCE, "AUTH", "AUTH needs EHLO, not HELO");
        return;
      }
      if (client.authenticated()) {
        refuse(session, Refusal.BAD_SEQUENCE, "AUTH", "Already authenticated");
        return;
      }
      if (session.isMailTransactionInProgress()) {
        refuse(session, Refusal.BAD_SEQUENCE, "AUTH", "Mail transaction in progress");
        return;
      }
      String mechanism = words[0].toUpperCase(Locale.ROOT);
      String initial = words.length == 2 ? words[1] : null;
      String[] credentials;
      switch (mechanism) {
        case "PLAIN" -> credentials = plain(session, initial);
        case "LOGIN" -> credentials = login(session, initial);
        default -> {
          refuse(session, Refusal.AUTH_MECHANISM, words[0]);
          return;
        }
      }
      if (credentials == null) {
        return; // answered already: cancelled or malformed
      }
      SmtpAuthenticator.Outcome outcome =
          authenticator.check(client.address(), credentials[0], credentials[1]);
      switch (outcome) {
        case ACCEPTED, VERIFIED -> {
          client.authenticated(credentials[0], outcome == SmtpAuthenticator.Outcome.VERIFIED);
          send(session, new SmtpReply(235, "2.7.0", "Authentication successful"));
        }
        case REJECTED -> refuse(session, Refusal.AUTH_FAILED, credentials[0]);
        case RATE_LIMITED -> refuse(session, Refusal.AUTH_RATE_LIMITED, credentials[0]);
      }
    }

    /** PLAIN: {@code [authzid] NUL user NUL password}, base64; null if answered already. */
    private String[] plain(Session session, String initial) throws IOException {
      String response = initial != null ? initial : challenge(session, "");
      if (response == null) {
        return null;
      }
      String decoded = decode(session, response);
      if (decoded == null) {
        return null;
      }
      String[] fields = decoded.split("\u0000", -1);
      if (fields.length != 3) {
        refuse(session, Refusal.SYNTAX, "AUTH PLAIN", "Syntax: authzid NUL user NUL password");
        return null;
      }
      return new String[] {fields[1], fields[2]};
    }

    /** LOGIN: the user, then the password, each base64 after its prompt; null if answered. */
    private String[] login(Session session, String initial) throws IOException {
      String user64 = initial != null ? initial : challenge(session, "VXNlcm5hbWU6"); // Username:
      String user = user64 == null ? null : decode(session, user64);
      if (user == null) {
        return null;
      }
      String password64 = challenge(session, "UGFzc3dvcmQ6"); // Password:
      String password = password64 == null ? null : decode(session, password64);
      return password == null ? null : new String[] {user, password};
    }

    /** Sends {@code 334 prompt} and reads the client's line; null (answered) if it cancels. */
    private String challenge(Session session, String prompt) throws IOException {
      session.sendResponse("334 " + prompt);
      String answer = lineFromClient(session);
      if (answer == null) {
        session.quit();
        return null;
      }
      if (answer.strip().equals("*")) {
        send(session, new SmtpReply(501, "5.0.0", "Authentication canceled"));
        return null;
      }
      return answer.strip();
    }

    /** Base64 to UTF-8; null (answered 501) if it is not base64. */
    private String decode(Session session, String base64) throws IOException {
      if (base64.equals("=")) {
        return ""; // RFC 4954: an empty initial response
      }
      try {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        refuse(session, Refusal.SYNTAX, "AUTH", "Invalid base64 data");
        return null;
      }
    }
  }

  /** QUIT. */
  private final class Quit extends BaseCommand {
    Quit() {
      super("QUIT", "Ends the session.");
    }

    @Override
    public void execute(String line, Session session) throws IOException {
      gate.client(session).endAccounted();
      session.sendResponse("221 2.0.0 " + settings.hostName() + " closing connection");
      session.quit();
    }
  }

  /** A known verb this server does not offer (AUTH, EXPN): 502 5.5.1. */
  private final class NotImplemented extends BaseCommand {
    NotImplemented(String verb) {
      super(verb, "Not implemented here.");
    }

    @Override
    public void execute(String line, Session session) throws IOException {
      refuse(session, Refusal.NOT_IMPLEMENTED, getName());
    }
  }

  /**
   * Whether a {@link #fixed} command takes an argument (RFC 5321 4.1.1): RSET none, VRFY one, NOOP
   * and HELP may.
   */
  private enum Argument {
    NONE,
    OPTIONAL,
    REQUIRED
  }

  /**
   * A command always answering {@code reply}, optionally ending the transaction first; one with an
   * argument it does not take, or without one it needs, gets 501 5.5.4 and has no effect.
   */
  private Command fixed(
      String verb, Argument argument, boolean resetsTransaction, SmtpReply reply) {
    return new BaseCommand(verb, verb) {
      @Override
      public void execute(String line, Session session) throws IOException {
        boolean given = !argument(line, verb).isEmpty();
        if (given && argument == Argument.NONE) {
          refuse(session, Refusal.SYNTAX, line, "Syntax: " + verb + " (no parameters)");
          return;
        }
        if (!given && argument == Argument.REQUIRED) {
          refuse(session, Refusal.SYNTAX, line, "Syntax: " + verb + " <user or mailbox>");
          return;
        }
        if (resetsTransaction) {
          session.resetMailTransaction();
        }
        send(session, reply);
      }
    };
  }
}
