package dev.burnbox.server.smtp;

import java.net.InetAddress;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What an SMTP session knows about one message when its DATA (or last BDAT chunk) ends. Immutable.
 *
 * @param client the connecting client's address
 * @param trustedClient whether {@code client} is in {@code --trusted-networks} or passed an AUTH
 *     checked against the credentials file (exempt from the per-IP rate and the forgetting filters)
 * @param heloName the name the client gave in HELO/EHLO
 * @param sender the MAIL FROM address, without angle brackets; empty for the null sender {@code <>}
 * @param recipients the accepted RCPT TO addresses, in order, without duplicates (compared
 *     case-insensitively); at least one
 * @param receivedAt when the end of the message was received
 * @param tls whether the session was under TLS (STARTTLS) when the message was sent
 */
public record Envelope(
    InetAddress client,
    boolean trustedClient,
    String heloName,
    String sender,
    List<String> recipients,
    Instant receivedAt,
    boolean tls) {

  /**
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code recipients} is empty
   */
  public Envelope {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(heloName, "heloName");
    Objects.requireNonNull(sender, "sender");
    recipients = List.copyOf(recipients);
    if (recipients.isEmpty()) {
      throw new IllegalArgumentException("an envelope needs at least one recipient");
    }
    Objects.requireNonNull(receivedAt, "receivedAt");
  }
}
