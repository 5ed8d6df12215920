package dev.burnbox.server.smtp;

/**
 * Every reason the intake refuses something, with its reply and its {@code reason} tag on the
 * {@code burnbox.smtp.refusals} counter. (SubEtha itself sends the command timeout reply, without
 * the enhanced code shown here, and the reply to unknown commands, which is not counted.)
 */
enum Refusal {
  TOO_MANY_CONNECTIONS(421, "4.7.0", "Too many connections, try again later"),
  TOO_MANY_CONNECTIONS_PER_IP(421, "4.7.0", "Too many connections from your address, try later"),
  SHUTTING_DOWN(421, "4.3.2", "Service shutting down, try again later"),
  RATE_LIMITED(450, "4.7.0", "Too many messages from your address, try again later"),
  NULL_SENDER(550, "5.7.1", "Null sender not accepted here"),
  BAD_SEQUENCE(503, "5.5.1", "Bad sequence of commands"),
  SYNTAX(501, "5.5.4", "Syntax error in parameters"),
  BAD_SENDER_ADDRESS(501, "5.1.7", "Bad sender address syntax"),
  BAD_RECIPIENT_ADDRESS(501, "5.1.3", "Bad recipient address syntax"),
  UNSERVED_DOMAIN(550, "5.7.1", "Relay access denied: domain not served here"),
  TOO_MANY_RECIPIENTS(452, "4.5.3", "Too many recipients"),
  MESSAGE_TOO_LARGE(552, "5.3.4", "Message size exceeds fixed limit"),
  LINE_TOO_LONG(500, "5.5.2", "Line too long"),
  COMMAND_TIMEOUT(421, "4.4.2", "Timeout waiting for data from client"),
  DATA_TIMEOUT(421, "4.4.2", "Timeout waiting for message data, closing connection"),
  NOT_IMPLEMENTED(502, "5.5.1", "Command not implemented"),
  INFLIGHT_BYTES(452, "4.3.1", "Insufficient system storage, try again later"),
  ACCEPTOR_FAILED(451, "4.3.0", "Local error in processing, try again later");

  private final SmtpReply reply;

  Refusal(int code, String enhancedStatus, String text) {
    this.reply = new SmtpReply(code, enhancedStatus, text);
  }

  /** The reply sent to the client. */
  SmtpReply reply() {
    return reply;
  }

  /** The metric tag, e.g. {@code too_many_recipients}. */
  String tag() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
