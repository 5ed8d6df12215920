package dev.burnbox.server.smtp;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A thread-safe acceptor for tests that keeps every message and answers a settable reply. */
final class RecordingAcceptor implements MessageAcceptor {
  record Delivery(Envelope envelope, byte[] raw) {}

  private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
  private volatile SmtpReply reply = SmtpReply.ok("Stored");

  @Override
  public SmtpReply accept(Envelope envelope, byte[] raw) {
    deliveries.add(new Delivery(envelope, raw));
    return reply;
  }

  void answer(SmtpReply reply) {
    this.reply = reply;
  }

  List<Delivery> deliveries() {
    return deliveries;
  }

  Delivery only() {
    if (deliveries.size() != 1) {
      throw new AssertionError("expected one delivery, got " + deliveries.size());
    }
    return deliveries.getFirst();
  }
}
