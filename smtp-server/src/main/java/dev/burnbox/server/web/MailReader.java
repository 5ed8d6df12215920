package dev.burnbox.server.web;

import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.StoredMessage;
import dev.burnbox.server.mime.Attachment;
import dev.burnbox.server.mime.DecodedMail;
import dev.burnbox.server.mime.MailDecoder;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads messages from the store for the API and the pages: decoded, with their HTML sanitized.
 * Empty results mean the message is not (or no longer) in the store. Thread-safe.
 */
final class MailReader {
  private final InboxStore store;
  private final MailDecoder decoder;
  private final MailHtmlSanitizer sanitizer;

  MailReader(InboxStore store, MailDecoder decoder, MailHtmlSanitizer sanitizer) {
    this.store = Objects.requireNonNull(store, "store");
    this.decoder = Objects.requireNonNull(decoder, "decoder");
    this.sanitizer = Objects.requireNonNull(sanitizer, "sanitizer");
  }

  /** The message decoded, with its HTML sanitized. */
  Optional<OpenedMessage> open(MessageId id) {
    return store
        .get(id)
        .map(
            stored -> {
              var mail = decoder.decode(stored.raw());
              return new OpenedMessage(stored.summary(), mail, sanitizer.sanitize(mail.html()));
            });
  }

  /** The message decoded, without sanitizing its HTML (for searching its text). */
  Optional<DecodedMail> decoded(MessageId id) {
    return store.get(id).map(stored -> decoder.decode(stored.raw()));
  }

  /**
   * Whether the subject, sender or text (text parts and the HTML's visible text) of {@code
   * summary}'s message contains {@code lowerCaseQuery}, case-insensitively; decodes the message
   * only when the headers do not match. False if the message is gone.
   */
  boolean matches(MessageSummary summary, String lowerCaseQuery) {
    return contains(summary.subject(), lowerCaseQuery)
        || contains(summary.from(), lowerCaseQuery)
        || contains(summary.envelopeSender(), lowerCaseQuery)
        || decoded(summary.id())
            .map(mail -> contains(mail.scanText(), lowerCaseQuery))
            .orElse(false);
  }

  private static boolean contains(String text, String lowerCaseQuery) {
    return text.toLowerCase(Locale.ROOT).contains(lowerCaseQuery);
  }

  /** The message exactly as received. */
  Optional<StoredMessage> stored(MessageId id) {
    return store.get(id);
  }

  /** Attachment {@code index} (from 0) of {@code stored}; empty if it has no such attachment. */
  Optional<Attachment> attachment(StoredMessage stored, int index) {
    return decoder.attachment(stored.raw(), index);
  }
}
