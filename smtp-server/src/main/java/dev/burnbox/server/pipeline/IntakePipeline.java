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
import dev.burnbox.server.smtp.Answer;
import dev.burnbox.server.smtp.Envelope;
import dev.burnbox.server.smtp.MessageAcceptor;
import dev.burnbox.server.smtp.Refusal;
import dev.burnbox.server.smtp.Refused;
import dev.burnbox.server.smtp.SmtpReply;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * unexpected error) is a {@link Refused} with nothing stored, so the sender keeps the mail. Each is
 * a {@link Refusal} of stage {@code pipeline} or, for the store's {@link RefusalReason}s, {@code
 * store}; the intake sends, counts and logs it with its own. Scan and decode times are recorded as
 * histograms ({@code burnbox.pipeline.scan}, {@code burnbox.pipeline.decode}), and verdicts by
 * whether they were scored or kept from a copy ({@code burnbox.pipeline.verdicts{source}}).
 *
 * <p>The message's summary (what every listing, event and webhook reads) keeps the first {@value
 * #SUMMARY_HEADER_CHARS} chars of its {@code From} and {@code Subject}; the flood ban and the scan
 * read them whole, and the raw source keeps them whole.
 *
 * <p>Thread-safe: sessions call {@link #accept} concurrently; it runs on the caller's thread.
 */
public final class IntakePipeline implements MessageAcceptor {
  private static final Logger log = LoggerFactory.getLogger(IntakePipeline.class);

  /**
   * The chars of a decoded {@code From} or {@code Subject} a summary keeps. A folded header can be
   * as long as the message, and every page unpacks its entries' summaries: twenty mails with 10 MB
   * subjects cost each look at their inbox 200 MB. Pages show at most 2,000 chars of a value.
   */
  public static final int SUMMARY_HEADER_CHARS = 4096;

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
  private final PrivateDomains privateDomains;
  private final DeliveryListener listener;
  private final Timer decodeTimer;
  private final Timer scanTimer;
  private final Counter stored;
  private final Counter taggedSpam;

  /**
   * @param floodFilter the subject flood ban, or null when filters are off
   * @param privateDomains the domains whose mail goes to inboxes of their own
   * @param listener told of each message delivered (the webhooks), or {@link DeliveryListener#NONE}
   */
  public IntakePipeline(
      MailDecoder decoder,
      SpamScanner scanner,
      SpamPolicy policy,
      SubjectFloodFilter floodFilter,
      InboxStore store,
      PrivateDomains privateDomains,
      DeliveryListener listener,
      MeterRegistry registry) {
    this.decoder = Objects.requireNonNull(decoder, "decoder");
    this.scanner = Objects.requireNonNull(scanner, "scanner");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.floodFilter = floodFilter;
    this.store = Objects.requireNonNull(store, "store");
    this.privateDomains = Objects.requireNonNull(privateDomains, "privateDomains");
    this.listener = Objects.requireNonNull(listener, "listener");
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
            .description(
                "messages delivered to the store, each once however many inboxes it reached"
                    + " (burnbox_store_entries_delivered_total counts the inbox entries)")
            .register(registry);
    this.taggedSpam =
        Counter.builder("burnbox.messages.spam")
            .description("messages stored and marked as spam")
            .register(registry);
    // the scanner is held by the service (and this pipeline): the registry holds it only weakly
    FunctionCounter.builder("burnbox.pipeline.verdicts", scanner, SpamScanner::scoredVerdicts)
        .description("spam verdicts given: scored, or kept from an earlier copy of the same text")
        .tag("source", "scored")
        .register(registry);
    FunctionCounter.builder("burnbox.pipeline.verdicts", scanner, SpamScanner::keptVerdicts)
        .description("spam verdicts given: scored, or kept from an earlier copy of the same text")
        .tag("source", "kept")
        .register(registry);
  }

  /**
   * Refuses at RCPT time an address whose local part is not a valid inbox name, so a message is
   * never accepted for a recipient the store cannot list it under.
   */
  @Override
  public Optional<Refused> checkRecipient(String address) {
    try {
      privateDomains.inboxOf(address);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(Refusal.badMailboxName(address, e.getMessage()));
    }
  }

  @Override
  public Answer accept(Envelope envelope, byte[] raw) {
    try {
      return process(envelope, raw);
    } catch (RuntimeException e) {
      log.error("could not process a message from {}; answered 451", envelope.client(), e);
      return Refusal.INTERNAL_ERROR.because(e.toString());
    }
  }

  /** {@code header}'s first {@value #SUMMARY_HEADER_CHARS} chars, a surrogate pair kept whole. */
  static String forSummary(String header) {
    if (header.length() <= SUMMARY_HEADER_CHARS) {
      return header;
    }
    int end = SUMMARY_HEADER_CHARS;
    if (Character.isHighSurrogate(header.charAt(end - 1))) {
      end--;
    }
    return header.substring(0, end);
  }

  private Answer process(Envelope envelope, byte[] raw) {
    DecodedMail mail = decodeTimer.record(() -> decoder.decode(raw));

    if (floodFilter != null
        && !envelope.trustedClient()
        && floodFilter.recordAndCheckBanned(mail.subject())) {
      return Refusal.SUBJECT_FLOOD.because("");
    }

    SpamVerdict verdict = scanTimer.record(() -> scanner.scan(mail));
    boolean spam = verdict.spam();
    if (spam && policy == SpamPolicy.REJECT) {
      return Refusal.SPAM.because(String.valueOf(verdict.terms()));
    }

    List<InboxName> inboxes = new ArrayList<>(envelope.recipients().size());
    for (String address : envelope.recipients()) {
      inboxes.add(privateDomains.inboxOf(address));
    }
    IncomingMessage message =
        IncomingMessage.handingOver( // the acceptor's contract gives raw to us, and we to the store
            raw,
            envelope.sender(),
            inboxes,
            envelope.receivedAt(),
            forSummary(mail.from()),
            forSummary(mail.subject()),
            verdict);
    return switch (store.deliver(message)) {
      case DeliveryResult.Delivered delivered -> {
        stored.increment();
        if (spam) {
          taggedSpam.increment();
        }
        tell(envelope, inboxes, delivered);
        var first = delivered.ids().entrySet().iterator().next();
        // the id is one inbox's copy: say whose when there are several, and keep it last
        yield SmtpReply.ok(
            delivered.ids().size() == 1
                ? "Ok: delivered to 1 inbox as " + first.getValue().value()
                : "Ok: delivered to "
                    + delivered.ids().size()
                    + " inboxes; the copy in "
                    + first.getKey().value()
                    + " is "
                    + first.getValue().value());
      }
      case DeliveryResult.Refused refused -> refusal(refused.reason()).because(refused.detail());
    };
  }

  /** Tells the listener; the mail is stored, so nothing it does may turn the 250 into an error. */
  private void tell(
      Envelope envelope, List<InboxName> inboxes, DeliveryResult.Delivered delivered) {
    try {
      Map<String, MessageId> ids = new LinkedHashMap<>();
      for (int i = 0; i < inboxes.size(); i++) {
        // the store files a +tag under the inbox without it when it strips tags
        MessageId id = delivered.ids().get(inboxes.get(i));
        id = id != null ? id : delivered.ids().get(inboxes.get(i).withoutTag());
        if (id != null) {
          ids.putIfAbsent(envelope.recipients().get(i), id);
        }
      }
      listener.delivered(envelope, ids);
    } catch (RuntimeException e) {
      log.error("a delivery listener failed; the message is stored and answered 250", e);
    }
  }

  /**
   * The store's reason as a refusal of the one vocabulary; exhaustive, so a new store reason does
   * not compile until it has its reply.
   */
  static Refusal refusal(RefusalReason reason) {
    return switch (reason) {
      case TOO_LARGE_FOR_STORE -> Refusal.STORE_TOO_LARGE;
      case STORE_UNAVAILABLE -> Refusal.STORE_UNAVAILABLE;
    };
  }
}
