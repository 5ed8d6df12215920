package dev.burnbox.server.smtp;

import io.micrometer.core.instrument.Counter;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.subethamail.smtp.MessageHandler;
import org.subethamail.smtp.RejectException;
import org.subethamail.smtp.server.Session;

/**
 * One mail transaction, from MAIL to the end of DATA or the last BDAT chunk: applies the sender and
 * recipient policy, collects every distinct recipient (SubEtha's own handlers keep only the last),
 * counts content bytes itself and, past the size limit or when the intake's in-flight byte budget
 * is spent, keeps draining without buffering. The acceptor sees the message only when its content
 * ended properly. Confined to its session's thread; whatever ends the transaction ({@link #done()}
 * at the latest) gives its buffered bytes back to the budget.
 *
 * <p>A transaction whose content began is counted once on {@code burnbox.smtp.messages}: accepted
 * or rejected by the reply at the end of its content, else aborted, whatever ended it first (the
 * client going away or timing out mid-content or between BDAT chunks, or an RSET, EHLO, HELO or
 * refused DATA clearing it between chunks).
 */
final class MessageTransaction implements MessageHandler {
  private static final Logger log = LoggerFactory.getLogger(MessageTransaction.class);

  /**
   * Content read between two yields of a virtual thread's carrier. A fast sender's bytes are always
   * ready, so without yielding a session would read a whole message without ever parking, and with
   * a few such sessions on every carrier, the socket pollers, the web server and every other
   * session would wait for them.
   */
  private static final int YIELD_EVERY_BYTES = 8 * 1024;

  /** The most content bytes one read call asks for. */
  static final int READ_SIZE = 8 * 1024;

  /**
   * Content counts as progress against the data timeout in steps of this many bytes: a sender must
   * deliver 8 KiB per data timeout (68 bytes/s with the default 2 minutes), or be cut as stalled by
   * {@link SessionGate#cutStalledSessions}, so trickling a byte now and then does not hold a
   * connection forever.
   */
  static final int PROGRESS_BYTES = 8 * 1024;

  private final MessageTransactions shared;
  private final Session session;
  private final SessionGate.Client client;
  private final List<String> recipients = new ArrayList<>();
  private final Set<String> recipientKeys = new HashSet<>();
  private int refusedRecipients;
  private final MessageBuffer content;
  private String sender;
  private boolean smtputf8;
  private long received;
  private int lineLength;
  private boolean lineTooLong;
  private boolean ended;
  private boolean chunked;
  private boolean contentBegun;
  private boolean outcomeCounted;

  MessageTransaction(MessageTransactions shared, Session session, SessionGate.Client client) {
    this.shared = shared;
    this.session = session;
    this.client = client;
    this.content = new MessageBuffer(shared.inflight, shared.settings.maxMessageSize());
  }

  /** Sender policy: the null sender and the per-IP message rate. */
  @Override
  public void from(String from) throws RejectException {
    from(from, false);
  }

  /**
   * {@link #from(String)}, noting whether the MAIL command asked for SMTPUTF8 (for the trace
   * header).
   */
  void from(String from, boolean smtputf8) throws RejectException {
    this.smtputf8 = smtputf8;
    if (from.isEmpty() && shared.settings.nullSender() == IntakeSettings.NullSender.REFUSE) {
      throw reject(Refusal.NULL_SENDER, "<>");
    }
    if (!shared.settings.noFilters()
        && !client.exempt()
        && !shared.rateFilter.tryAcquire(client.address())) {
      throw reject(Refusal.RATE_LIMITED, from);
    }
    this.sender = from;
  }

  /**
   * Recipient policy: served domain, the acceptor's {@link MessageAcceptor#checkRecipient}, the
   * recipient limit. A duplicate (compared case-insensitively) is accepted again but kept once.
   *
   * @param recipient {@code local@domain}, syntax already checked
   */
  @Override
  public void recipient(String recipient) throws RejectException {
    String domain = recipient.substring(recipient.lastIndexOf('@') + 1);
    if (!shared.settings.serves(domain)) {
      throw reject(Refusal.UNSERVED_DOMAIN, recipient);
    }
    Optional<Refused> refused = shared.acceptor.checkRecipient(recipient);
    if (refused.isPresent()) {
      throw reject(refused.get());
    }
    String key = recipient.toLowerCase(Locale.ROOT);
    if (recipientKeys.contains(key)) {
      return;
    }
    if (recipients.size() >= shared.settings.maxRecipients()) {
      throw reject(Refusal.TOO_MANY_RECIPIENTS, recipient);
    }
    recipientKeys.add(key);
    recipients.add(recipient);
    session.addRecipient(recipient);
  }

  boolean hasRecipients() {
    return !recipients.isEmpty();
  }

  /** Whether the MAIL command of this transaction said SMTPUTF8. */
  boolean smtputf8() {
    return smtputf8;
  }

  /** Notes that a RCPT of this transaction was refused, whatever the reason. */
  void recipientRefused() {
    refusedRecipients++;
  }

  /** Whether this transaction has no recipient because every RCPT was refused. */
  boolean everyRecipientRefused() {
    return recipients.isEmpty() && refusedRecipients > 0;
  }

  /** Notes that content arrives in BDAT chunks, after which DATA is out of sequence. */
  void startChunks() {
    chunked = true;
  }

  boolean chunked() {
    return chunked;
  }

  /**
   * Reads content until {@code in} ends, or exactly {@code length} bytes if it is not negative (one
   * BDAT chunk). Past the size limit, or once the in-flight budget refuses more, the bytes are
   * counted and dropped.
   *
   * @throws EOFException if a BDAT chunk ends early (the client went away)
   * @throws IOException if reading fails, e.g. on a timeout or a disconnect
   */
  void absorb(InputStream in, long length) throws IOException {
    contentBegun = true;
    MessageBuffer.Inspector lines = this::checkLines;
    received +=
        readContent(
            in, length, (from, max) -> content.readFrom(from, max, lines), client, shared.bytes);
  }

  /** One read of content: at most {@code max} bytes from {@code in}; their count, -1 at its end. */
  interface ContentRead {
    int read(InputStream in, int max) throws IOException;
  }

  /**
   * Reads content through {@code read} until {@code in} ends, or exactly {@code length} bytes if it
   * is not negative (one BDAT chunk), as every content is read: each {@link #PROGRESS_BYTES} are
   * noted as the client's progress against the data timeout, a virtual thread lets its carrier go
   * every {@link #YIELD_EVERY_BYTES}, and every byte is counted on {@code bytes}.
   *
   * @return the number of bytes read
   * @throws EOFException if a BDAT chunk ends early (the client went away)
   */
  static long readContent(
      InputStream in, long length, ContentRead read, SessionGate.Client client, Counter bytes)
      throws IOException {
    long remaining = length < 0 ? Long.MAX_VALUE : length;
    long total = 0;
    boolean virtual = Thread.currentThread().isVirtual();
    int sinceYield = 0;
    int sinceProgress = 0;
    while (remaining > 0) {
      int n = read.read(in, (int) Math.min(READ_SIZE, remaining));
      if (n < 0) {
        if (length >= 0) {
          throw new EOFException("BDAT chunk ended " + remaining + " bytes early");
        }
        break;
      }
      remaining -= n;
      total += n;
      sinceProgress += n;
      if (sinceProgress >= PROGRESS_BYTES) {
        sinceProgress = 0;
        client.touch();
      }
      sinceYield += n;
      if (virtual && sinceYield >= YIELD_EVERY_BYTES) {
        sinceYield = 0;
        Thread.yield();
      }
      bytes.increment(n);
    }
    return total;
  }

  private void checkLines(byte[] bytes, int offset, int n) {
    int limit = shared.settings.maxLineLength();
    for (int i = offset; i < offset + n; i++) {
      if (++lineLength > limit) {
        lineTooLong = true;
      }
      if (bytes[i] == '\n') {
        lineLength = 0;
      }
    }
  }

  /**
   * Ends the content: refuses it if too large, with a too long line or cut short by the in-flight
   * budget ({@code 452 4.3.1}), else hands it to the acceptor and returns the acceptor's reply, or
   * its refusal's, counted and logged (a failing acceptor yields {@code 451 4.3.0}). Gives the
   * buffered bytes back either way.
   */
  SmtpReply finish() {
    outcomeCounted = true;
    try {
      return decide();
    } finally {
      content.release();
    }
  }

  private SmtpReply decide() {
    if (received > shared.settings.maxMessageSize()) {
      shared.rejected.increment();
      return shared.refusals.record(Refusal.MESSAGE_TOO_LARGE, client.address(), received + " B");
    }
    if (lineTooLong) {
      shared.rejected.increment();
      return shared.refusals.record(Refusal.LINE_TOO_LONG, client.address(), "");
    }
    if (content.refused()) {
      shared.rejected.increment();
      return shared.refusals.record(Refusal.INFLIGHT_BYTES, client.address(), received + " B");
    }
    Envelope envelope =
        new Envelope(
            client.address(),
            client.exempt(),
            session.getHelo().orElse(""),
            sender,
            recipients,
            shared.clock.instant(),
            session.isTLSStarted());
    SmtpReply reply;
    byte[] raw =
        content.toByteArray(
            shared.settings.noTraceHeader()
                ? new byte[0]
                : TraceHeader.bytes(
                    envelope,
                    shared.settings.hostName(),
                    client.esmtp(),
                    client.authenticated(),
                    smtputf8));
    try {
      Answer answer = shared.heavyWork.run(raw.length, () -> shared.acceptor.accept(envelope, raw));
      reply =
          switch (answer) {
            case SmtpReply given -> given;
            case Refused refused -> shared.refusals.record(refused, client.address());
          };
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the intake is stopping
      reply = shared.refusals.record(Refusal.ACCEPTOR_FAILED, client.address(), "interrupted");
    } catch (RuntimeException e) {
      log.debug("message acceptor failed", e);
      reply = shared.refusals.record(Refusal.ACCEPTOR_FAILED, client.address(), e.toString());
    }
    (reply.isPositive() ? shared.accepted : shared.rejected).increment();
    return reply;
  }

  /**
   * Drops the content and counts the transaction as aborted if its content began and has no outcome
   * yet: its content never ended (the client went away or timed out during it or between BDAT
   * chunks, or the transaction was cleared between chunks).
   */
  void abort() {
    content.discard();
    if (contentBegun && !outcomeCounted) {
      outcomeCounted = true;
      shared.aborted.increment();
    }
  }

  /** SubEtha's content entry point (unused by the intake's own DATA and BDAT commands). */
  @Override
  public String data(InputStream data) throws RejectException, IOException {
    absorb(data, -1);
    SmtpReply reply = finish();
    if (!reply.isPositive()) {
      throw new RejectException(reply.code(), reply.enhancedStatus() + " " + reply.text());
    }
    return reply.enhancedStatus() + " " + reply.text();
  }

  /** Ends the transaction, however it ended: content not finished is {@link #abort() aborted}. */
  @Override
  public void done() {
    abort();
    if (!ended) {
      ended = true;
      shared.ended();
    }
  }

  private RejectException reject(Refusal refusal, String detail) {
    return reject(refusal.because(detail));
  }

  /** Counts and logs {@code refused}, and returns the exception that sends its reply. */
  private RejectException reject(Refused refused) {
    SmtpReply reply = shared.refusals.record(refused, client.address());
    return new RejectException(reply.code(), reply.enhancedStatus() + " " + reply.text());
  }
}
