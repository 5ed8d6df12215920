package dev.burnbox.server.smtp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.subethamail.smtp.MessageContext;
import org.subethamail.smtp.MessageHandlerFactory;
import org.subethamail.smtp.server.Session;

/**
 * SubEtha's factory of one {@link MessageTransaction} per MAIL command, holding what all
 * transactions share: the settings, the acceptor, the rate filter and the message metrics ({@code
 * burnbox.smtp.messages{outcome=accepted|rejected|aborted}}, {@code burnbox.smtp.bytes}) and the
 * in-flight byte budget and the gate that keeps large messages from taking every carrier thread.
 * Thread-safe.
 */
final class MessageTransactions implements MessageHandlerFactory {
  final IntakeSettings settings;
  final MessageAcceptor acceptor;
  final Refusals refusals;
  final SessionGate gate;
  final MessageRateFilter rateFilter;
  final Clock clock;
  final Counter accepted;
  final Counter rejected;
  final Counter aborted;
  final Counter bytes;
  final ByteBudget inflight;
  final HeavyWorkGate heavyWork = HeavyWorkGate.forThisMachine();
  private final AtomicInteger inProgress = new AtomicInteger();

  MessageTransactions(
      IntakeSettings settings,
      MessageAcceptor acceptor,
      Refusals refusals,
      SessionGate gate,
      MessageRateFilter rateFilter,
      Clock clock,
      ByteBudget inflight,
      MeterRegistry registry) {
    this.settings = settings;
    this.acceptor = acceptor;
    this.refusals = refusals;
    this.gate = gate;
    this.rateFilter = rateFilter;
    this.clock = clock;
    this.inflight = inflight;
    this.accepted = messages(registry, "accepted");
    this.rejected = messages(registry, "rejected");
    this.aborted = messages(registry, "aborted");
    this.bytes =
        Counter.builder("burnbox.smtp.bytes")
            .description("message content bytes received (DATA and BDAT), refused ones included")
            .baseUnit("bytes")
            .register(registry);
  }

  private static Counter messages(MeterRegistry registry, String outcome) {
    return Counter.builder("burnbox.smtp.messages")
        .description(
            "mail transactions whose content began: accepted or rejected by the reply at the end"
                + " of their content, aborted if it never ended")
        .tag("outcome", outcome)
        .register(registry);
  }

  @Override
  public MessageTransaction create(MessageContext context) {
    Session session = (Session) context;
    inProgress.incrementAndGet();
    return new MessageTransaction(this, session, gate.client(session));
  }

  /**
   * Reads and drops a BDAT chunk of {@code length} bytes that no transaction takes (one sent out of
   * sequence), as content is read ({@link MessageTransaction#readContent}): the client's progress
   * is noted against the data timeout, and the bytes are counted on {@code burnbox.smtp.bytes}.
   *
   * @throws java.io.EOFException if the chunk ends early (the client went away)
   */
  void discard(InputStream in, long length, SessionGate.Client client) throws IOException {
    byte[] dropped = new byte[(int) Math.min(MessageTransaction.READ_SIZE, length)];
    MessageTransaction.readContent(
        in, length, (from, max) -> from.read(dropped, 0, max), client, bytes);
  }

  /** Called once by each transaction when it ends. */
  void ended() {
    inProgress.decrementAndGet();
  }

  /** Transactions between MAIL and their end now. */
  int inProgress() {
    return inProgress.get();
  }
}
