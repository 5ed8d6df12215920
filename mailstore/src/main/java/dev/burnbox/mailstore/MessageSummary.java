package dev.burnbox.mailstore;

import java.time.Instant;

/**
 * What an inbox listing shows of one message, and what a new-message event carries. Immutable.
 *
 * @param id this inbox entry's id
 * @param inbox the inbox it is listed in
 * @param envelopeSender the MAIL FROM address; empty for the null sender
 * @param from the decoded {@code From} header
 * @param subject the decoded {@code Subject} header
 * @param receivedAt when the SMTP layer received it
 * @param size the raw message size in bytes
 * @param verdict the spam scan's verdict
 */
public record MessageSummary(
    MessageId id,
    InboxName inbox,
    String envelopeSender,
    String from,
    String subject,
    Instant receivedAt,
    int size,
    SpamVerdict verdict) {}
