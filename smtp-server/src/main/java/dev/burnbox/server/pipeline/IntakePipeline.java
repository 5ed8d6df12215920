package dev.burnbox.server.pipeline;

import dev.burnbox.mailstore.DeliveryResult;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.IncomingMessage;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.RefusalReason;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.server.mime.DecodedMail;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.smtp.Envelope;
import dev.burnbox.server.smtp.MessageAcceptor;
import dev.burnbox.server.smtp.SmtpReply;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-message pipeline behind the SMTP intake: decode the MIME, apply the subject flood ban,
 * scan for spam terms, apply the spam policy, deliver to the store, and turn the outcome into the
 * reply to DATA.
 *
 * <p>Guarantees: a 250 reply means {@link InboxStore#deliver} answered {@link
 * DeliveryResult.Delivered}; every other outcome (spam rejected, subject banned, store refused, an
 * unexpected error) is a 4xx or 5xx reply with nothing stored, so the sender keeps the mail. Every
 * refusal is counted in {@code burnbox.messages.refused} by {@code reason}; scan and decode times
 * are recorded as histograms ({@code burnbox.pipeline.scan}, {@code burnbox.pipeline.decode}).
 *
 * <p>Thread-safe: sessions call {@link #accept} concurrently; it runs on the caller's thread.
 */
public final class IntakePipeline implements MessageAcceptor {
  private static final Logger log = LoggerFactory.getLogger(IntakePipeline.class);

  /** What to do with a message whose score reaches the spam threshold. */
  public enum SpamPolicy {
    /** Store it with its verdict; the inbox shows it marked. */
    TAG,
    /** Refuse it at the end of DATA with 550 5.7.1 and store nothing. */
    REJECT
  }

  private final MailDecoder decoder;
  private final SpamScanner scanner;
  private final SpamPolicy policy;
  private final SubjectFloodFilter floodFilter;
  private final InboxStore store;
  private final RefusalCounter refusals;
  private final Timer decodeTimer;
  private final Timer scanTimer;
  private final Counter stored;
  private final Counter taggedSpam;

  /**
   * @param floodFilter the subject flood ban, or null when filters are off
   */
  public IntakePipeline(
      MailDecoder decoder,
      SpamScanner scanner,
      SpamPolicy policy,
      SubjectFloodFilter floodFilter,
      InboxStore store,
      MeterRegistry registry) {
    this.decoder = Objects.requireNonNull(decoder, "decoder");
    this.scanner = Objects.requireNonNull(scanner, "scanner");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.floodFilter = floodFilter;
    this.store = Objects.requireNonNull(store, "store");
    this.refusals = new RefusalCounter(registry, "burnbox.messages.refused", log);
    this.decodeTimer =
        Timer.builder("burnbox.pipeline.decode")
            .description("time to decode a message's MIME structure")
            .publishPercentileHistogram()
            .register(registry);
    this.scanTimer =
        Timer.builder("burnbox.pipeline.scan")
            .description("time to scan a message's text for spam terms")
            .publishPercentileHistogram()
            .register(registry);
    this.stored =
        Counter.builder("burnbox.messages.stored")
            .description("messages delivered to the store")
            .register(registry);
    this.taggedSpam =
        Counter.builder("burnbox.messages.spam")
            .description("messages stored and marked as spam")
            .register(registry);
  }

  /**
   * Refuses at RCPT time an address whose local part is not a valid inbox name, so a message is
   * never accepted for a recipient the store cannot list it under.
   */
  @Override
  public Optional<SmtpReply> checkRecipient(String address) {
    try {
      InboxName.fromAddress(address);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      refusals.count("bad_mailbox_name", e.getMessage());
      return Optional.of(new SmtpReply(553, "5.1.3", "Mailbox name not allowed"));
    }
  }

  @Override
  public SmtpReply accept(Envelope envelope, byte[] raw) {
    try {
      return process(envelope, raw);
    } catch (RuntimeException e) {
      log.error("could not process a message from {}; answered 451", envelope.client(), e);
      refusals.count("internal_error", e.toString());
      return new SmtpReply(451, "4.3.0", "Local error in processing; try again later");
    }
  }

  private SmtpReply process(Envelope envelope, byte[] raw) {
    DecodedMail mail = decodeTimer.record(() -> decoder.decode(raw));

    if (floodFilter != null
        && !envelope.trustedClient()
        && floodFilter.recordAndCheckBanned(mail.subject())) {
      refusals.count("subject_flood", envelope.client().getHostAddress());
      return new SmtpReply(550, "5.7.1", "Subject banned for flooding; try again later");
    }

    SpamVerdict verdict = scanTimer.record(() -> scanner.scan(mail.scanParts()));
    boolean spam = verdict.spam();
    if (spam && policy == SpamPolicy.REJECT) {
      refusals.count("spam", envelope.client().getHostAddress() + " " + verdict.terms());
      return new SmtpReply(550, "5.7.1", "Message rejected as spam");
    }

    List<InboxName> inboxes = new ArrayList<>(envelope.recipients().size());
    for (String address : envelope.recipients()) {
      inboxes.add(InboxName.fromAddress(address));
    }
    IncomingMessage message =
        new IncomingMessage(
            raw,
            envelope.sender(),
            inboxes,
            envelope.receivedAt(),
            mail.from(),
            mail.subject(),
            verdict);
    return switch (store.deliver(message)) {
      case DeliveryResult.Delivered delivered -> {
        stored.increment();
        if (spam) {
          taggedSpam.increment();
        }
        MessageId first = delivered.ids().values().iterator().next();
        yield SmtpReply.ok(
            "Ok: delivered to " + delivered.ids().size() + " inbox(es) as " + first.value());
      }
      case DeliveryResult.Refused refused -> refuse(refused);
    };
  }

  private SmtpReply refuse(DeliveryResult.Refused refused) {
    if (refused.reason() == RefusalReason.TOO_LARGE_FOR_STORE) {
      refusals.count("store_too_large", refused.detail());
      return new SmtpReply(552, "5.3.4", "Message too large for the store");
    }
    if (refused.reason() == RefusalReason.STORE_UNAVAILABLE) {
      refusals.count("store_unavailable", refused.detail());
      return new SmtpReply(451, "4.3.0", "Mail store unavailable; try again later");
    }
    refusals.count("store_full", refused.detail());
    return new SmtpReply(452, "4.3.1", "Insufficient storage; try again later");
  }
}
