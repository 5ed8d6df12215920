package dev.burnbox.server.smtp;

import java.util.Locale;

/**
 * Every reason Burnbox refuses a connection, a command or a message: its SMTP reply (code, enhanced
 * status code, text), the {@link Stage} that decides it, and its {@code reason} tag on the one
 * refusal counter, {@code burnbox.refusals{stage, reason}} ({@code burnbox_refusals_total} in
 * Prometheus). The intake decides the protocol and resource refusals itself; the pipeline answers
 * its acceptor calls with {@link Refused} values made from these constants ({@link #because}),
 * mapping the store's own refusals onto them; the intake sends, counts and logs them all through
 * one throttle.
 *
 * <p>Guarantees: the reply of a constant never changes once released (clients and tests rely on the
 * exact lines); tags are unique, lower-case snake_case; docs/security.md lists every constant,
 * checked by {@code RefusalTableTest}. {@link #SYNTAX} and {@link #BAD_SEQUENCE} keep their code
 * and enhanced status but may say more precisely what was wrong (e.g. {@code Send HELO or EHLO
 * first}); {@link #BAD_MAILBOX_NAME} keeps them and the start of its text, which then names the
 * rule broken ({@link #badMailboxName}). SubEtha itself answers unknown verbs (not counted, but
 * errors towards {@link #TOO_MANY_ERRORS}) and a command timeout; {@link CodedReplies} adds their
 * enhanced codes.
 */
public enum Refusal {
  TOO_MANY_CONNECTIONS(
      Stage.INTAKE,
      421,
      "4.7.0",
      "Too many connections, try again later",
      "a connection while `--max-connections` sessions are open"),
  TOO_MANY_CONNECTIONS_PER_IP(
      Stage.INTAKE,
      421,
      "4.7.0",
      "Too many connections from your address, try later",
      "a connection from an untrusted address that has `--max-connections-per-ip` open"),
  SHUTTING_DOWN(
      Stage.INTAKE,
      421,
      "4.3.2",
      "Service shutting down, try again later",
      "a connection or a MAIL while the service stops, a session still waiting for its client"
          + " when the stop closes it, or a connection the stop closes before its session answered"
          + " it"),
  RATE_LIMITED(
      Stage.INTAKE,
      450,
      "4.7.0",
      "Too many messages from your address, try again later",
      "a MAIL from an untrusted address over `--per-ip-rate`"),
  NULL_SENDER(
      Stage.INTAKE,
      550,
      "5.7.1",
      "Null sender not accepted here",
      "`MAIL FROM:<>` with `--null-sender refuse`"),
  BAD_SEQUENCE(
      Stage.INTAKE,
      503,
      "5.5.1",
      "Bad sequence of commands",
      "a command out of order (MAIL before EHLO, DATA before RCPT, STARTTLS in a transaction,"
          + " BDAT, STARTTLS or AUTH after HELO...); the text says which"),
  SYNTAX(
      Stage.INTAKE,
      501,
      "5.5.4",
      "Syntax error in parameters",
      "a command whose arguments do not parse (VRFY without one, RSET with one...); the text"
          + " gives the expected syntax"),
  UNKNOWN_PARAMETER(
      Stage.INTAKE,
      555,
      "5.5.4",
      "MAIL FROM/RCPT TO parameters not recognized or not implemented",
      "a MAIL or RCPT parameter of an extension not offered (DSN's `RET=`, `NOTIFY=`...): MAIL"
          + " takes `SIZE=`, `BODY=`, `SMTPUTF8` and, where AUTH is offered, `AUTH=`, after EHLO"
          + " (HELO offers no extension); RCPT none"),
  BAD_SENDER_ADDRESS(
      Stage.INTAKE,
      501,
      "5.1.7",
      "Bad sender address syntax",
      "a MAIL address that is no mailbox: no domain, control characters, or white space or"
          + " brackets outside a quoted local part (`\"john doe\"@example.org` is taken as written)"),
  BAD_RECIPIENT_ADDRESS(
      Stage.INTAKE,
      501,
      "5.1.3",
      "Bad recipient address syntax",
      "a RCPT address with white space, brackets or control characters"),
  UNSERVED_DOMAIN(
      Stage.INTAKE,
      550,
      "5.7.1",
      "Relay access denied: domain not served here",
      "a RCPT to a domain not in `--domains` (nothing is ever relayed)"),
  NO_VALID_RECIPIENTS(
      Stage.INTAKE,
      554,
      "5.5.1",
      "No valid recipients",
      "DATA or BDAT after every RCPT of the transaction was refused (a pipelining client sends"
          + " them without waiting), as Postfix answers"),
  TOO_MANY_RECIPIENTS(
      Stage.INTAKE,
      452,
      "4.5.3",
      "Too many recipients",
      "a RCPT past `--max-recipients` distinct recipients"),
  MESSAGE_TOO_LARGE(
      Stage.INTAKE,
      552,
      "5.3.4",
      "Message size exceeds fixed limit",
      "a `SIZE=` or content over `--max-message-size`, or a BDAT size of more than 18 digits"
          + " (then 421 4.5.0 and close: the chunk cannot be read past)"),
  LINE_TOO_LONG(
      Stage.INTAKE, 500, "5.5.2", "Line too long", "a message line over `--max-line-length`"),
  COMMAND_TIMEOUT(
      Stage.INTAKE,
      421,
      "4.4.2",
      "Timeout waiting for data from client",
      "no whole command within `--command-timeout`: the stalled session is cut with this reply;"
          + " a client that leaves its replies unread that long is closed without it"),
  DATA_TIMEOUT(
      Stage.INTAKE,
      421,
      "4.4.2",
      "Timeout waiting for message data, closing connection",
      "message content stalled for `--data-timeout`"),
  TOO_MANY_ERRORS(
      Stage.INTAKE,
      421,
      "4.7.0",
      "Too many errors, closing connection",
      "the 20th error reply of a session since its last message was taken (refused commands and"
          + " unknown verbs; not the 452 of `--max-recipients`), as Postfix's"
          + " `smtpd_hard_error_limit`: the session is closed"),
  NOT_IMPLEMENTED(
      Stage.INTAKE,
      502,
      "5.5.1",
      "Command not implemented",
      "EXPN, and AUTH with `--smtp-auth off`"),
  AUTH_NEEDS_TLS(
      Stage.INTAKE,
      538,
      "5.7.11",
      "Encryption required for requested authentication mechanism",
      "AUTH on a plain connection from an untrusted client: STARTTLS first (or"
          + " `--smtp-auth-insecure`)"),
  AUTH_MECHANISM(
      Stage.INTAKE,
      504,
      "5.5.4",
      "Unrecognized authentication type",
      "AUTH with a mechanism other than PLAIN and LOGIN"),
  AUTH_FAILED(
      Stage.INTAKE,
      535,
      "5.7.8",
      "Authentication credentials invalid",
      "AUTH whose user and password the `--smtp-auth` file does not hold"),
  AUTH_RATE_LIMITED(
      Stage.INTAKE,
      454,
      "4.7.0",
      "Too many authentication failures, try again later",
      "AUTH from an address with 5 failures within the last minute"),
  INFLIGHT_BYTES(
      Stage.INTAKE,
      452,
      "4.3.1",
      "Insufficient system storage, try again later",
      "a message while messages arriving hold `--max-inflight-bytes`"),
  ACCEPTOR_FAILED(
      Stage.INTAKE,
      451,
      "4.3.0",
      "Local error in processing, try again later",
      "the pipeline threw or was interrupted by a stop"),
  BAD_MAILBOX_NAME(
      Stage.PIPELINE,
      553,
      "5.1.3",
      "Mailbox name not allowed: letters, digits and . _ + - only, at most 64",
      "a RCPT whose local part is no inbox name (letters and digits of any script, `. _ + -`, at"
          + " most 64, no leading, trailing or double dot); the text after the colon names the"
          + " rule broken in the API's words instead: `Mailbox name not allowed: inbox name has two"
          + " dots in a row: \"a..b\"`"),
  NON_ASCII_ADDRESS(
      Stage.INTAKE,
      553,
      "5.6.7",
      "Non-ASCII address needs SMTPUTF8 in MAIL",
      "a MAIL or RCPT with a non-ASCII address in a transaction whose MAIL did not say SMTPUTF8"
          + " (RFC 6531)"),
  SUBJECT_FLOOD(
      Stage.PIPELINE,
      450,
      "4.7.1",
      "Subject banned for flooding; try again later",
      "a message from an untrusted client whose subject is banned (`--subject-flood-*`):"
          + " temporary, as the ban is, so an honest sender retries after `--subject-flood-ban`"),
  SPAM(
      Stage.PIPELINE,
      550,
      "5.7.1",
      "Message rejected as spam",
      "a message whose spam probability reaches the threshold, with `--spam reject`"),
  INTERNAL_ERROR(
      Stage.PIPELINE,
      451,
      "4.3.0",
      "Local error in processing; try again later",
      "an unexpected error while decoding, scanning or delivering (logged with its stack)"),
  STORE_TOO_LARGE(
      Stage.STORE,
      552,
      "5.3.4",
      "Message too large for the store",
      "a message the store can never hold, even empty (`--store-max-bytes`, a Redis partition's"
          + " share)"),
  STORE_UNAVAILABLE(
      Stage.STORE,
      451,
      "4.3.0",
      "Mail store unavailable; try again later",
      "Redis unreachable or slower than its timeout");

  /** Where a refusal is decided, the {@code stage} tag of the counter. */
  public enum Stage {
    /** The SMTP intake: connection limits, protocol, envelope and content limits. */
    INTAKE,
    /** The pipeline behind it: inbox names, the subject flood ban, the spam policy, its errors. */
    PIPELINE,
    /** The store's answer to a delivery, as the pipeline maps it. */
    STORE;

    /** The metric tag, e.g. {@code intake}. */
    public String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Stage stage;
  private final SmtpReply reply;
  private final String situation;

  Refusal(Stage stage, int code, String enhancedStatus, String text, String situation) {
    this.stage = stage;
    this.reply = new SmtpReply(code, enhancedStatus, text);
    this.situation = situation;
  }

  /** Who decides this refusal. */
  public Stage stage() {
    return stage;
  }

  /** The reply sent to the client. */
  public SmtpReply reply() {
    return reply;
  }

  /** The metric tag, e.g. {@code too_many_recipients}. */
  public String tag() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** When it is given, in a few words (markdown), for the documentation. */
  public String situation() {
    return situation;
  }

  /**
   * This refusal of one message or recipient, for a {@link MessageAcceptor} to answer.
   *
   * @param detail what was refused, for the log line (escaped there); may be empty
   */
  public Refused because(String detail) {
    return new Refused(this, detail);
  }

  /**
   * {@link #BAD_MAILBOX_NAME} for a local part that breaks {@code rule}: the reply says {@code
   * Mailbox name not allowed: } and the rule, as the API's 400 for that name words it (e.g. {@code
   * inbox name has two dots in a row: "a..b"}). A rule that is not one line of printable ASCII (it
   * should be: names are quoted escaped) leaves the constant's text.
   *
   * @param address the recipient refused, for the log line
   */
  public static Refused badMailboxName(String address, String rule) {
    boolean printable = rule.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
    String text = BAD_MAILBOX_NAME.reply.text();
    if (printable && !rule.isEmpty() && rule.length() <= MAX_RULE_LENGTH) {
      text = text.substring(0, text.indexOf(':') + 1) + " " + rule;
    }
    return new Refused(BAD_MAILBOX_NAME, address, text);
  }

  /** The longest rule a reply quotes: well within the 512 octets of a reply line (RFC 5321). */
  private static final int MAX_RULE_LENGTH = 400;
}
