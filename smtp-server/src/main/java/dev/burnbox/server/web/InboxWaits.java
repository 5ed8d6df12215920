package dev.burnbox.server.web;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.Subscription;
import dev.burnbox.server.config.OptionValues;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.server.smtp.NetworkList;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * {@code GET /api/v1/inboxes/{name}/next}: waits for the next message of an inbox, for tests that
 * sign up and need the mail that follows. Answers 200 with the whole message (as {@code GET
 * /api/v1/messages/{id}}, and its URL in {@code Location}) as soon as one is there, or 204 when
 * {@code timeout} (default {@value #DEFAULT_TIMEOUT_SECONDS} s, at most {@value
 * #MAX_TIMEOUT_SECONDS} s) passes without one.
 *
 * <p>Which message: the oldest that is newer than the message {@code after} (an id from an earlier
 * listing or wait), or received at or after {@code since} (an ISO-8601 instant), or, with neither,
 * the first to arrive from now on; and that matches the optional filters {@code from} (in the From
 * header or the envelope sender) and {@code subject}, both case-insensitive substrings. Chaining
 * {@code after=<the id just received>} reads an inbox's mail one message at a time without missing
 * any. With both, {@code after} places the wait while its message is in the inbox and {@code since}
 * once it is gone, so a reader that deletes what it read chains with both ({@code since} the
 * message's {@code receivedAt}); {@code after} alone naming a message not in the inbox is a 404,
 * since nothing then tells which of the inbox's messages came after it, saying so if the message is
 * one of another inbox (not which).
 *
 * <p>The waiter subscribes to the inbox before it looks, so mail arriving meanwhile is not missed;
 * it waits on a virtual thread (no platform thread is held) and is woken by the store's events,
 * which on the Redis store come from whichever node took the mail. One untrusted address may wait
 * on {@value #MAX_WAITS_PER_ADDRESS} requests at once; more get 429, counted as {@link
 * WebRefusal#TOO_MANY_WAITS}. A client that goes while it waits (closes or resets the connection)
 * ends its wait at once ({@link ClientHangups}): its place, thread and subscription are freed, not
 * held until the timeout. Thread-safe.
 */
final class InboxWaits {
  static final int DEFAULT_TIMEOUT_SECONDS = 30;
  static final int MAX_TIMEOUT_SECONDS = 300;
  static final int MAX_WAITS_PER_ADDRESS = 20;

  /** Entries of an inbox looked through for the {@code after} message. */
  private static final int MAX_LOOKED_AT = 1_000;

  /** Put in a wait's queue of arrivals when its client has gone. */
  private static final Object CLIENT_GONE = new Object();

  private final InboxStore store;
  private final MailReader reader;
  private final SpamScanner scanner;
  private final NetworkList trusted;
  private final ClientHangups hangups;
  private final WebRefusals refusals;
  private final Map<InetAddress, Integer> waiting = new ConcurrentHashMap<>();

  InboxWaits(
      InboxStore store,
      MailReader reader,
      SpamScanner scanner,
      NetworkList trusted,
      ClientHangups hangups,
      WebRefusals refusals) {
    this.store = Objects.requireNonNull(store, "store");
    this.reader = Objects.requireNonNull(reader, "reader");
    this.scanner = Objects.requireNonNull(scanner, "scanner");
    this.trusted = Objects.requireNonNull(trusted, "trusted");
    this.hangups = Objects.requireNonNull(hangups, "hangups");
    this.refusals = Objects.requireNonNull(refusals, "refusals");
  }

  /** Serves one wait on {@code inbox}, which the request may read. */
  void next(Context ctx, InboxName inbox) throws InterruptedException {
    Duration timeout = timeout(QueryParameters.optional(ctx, "timeout"));
    Predicate<MessageSummary> wanted =
        filter(QueryParameters.optional(ctx, "from"), QueryParameters.optional(ctx, "subject"));
    String after = QueryParameters.optional(ctx, "after");
    MessageId afterId = after == null ? null : MessageId.parse(after);
    Instant since = since(QueryParameters.optional(ctx, "since"));
    InetAddress client = address(ctx.req().getRemoteAddr());
    if (!enter(client)) {
      refusals.record(
          WebRefusal.TOO_MANY_WAITS,
          client,
          "holds " + MAX_WAITS_PER_ADDRESS + " waits: answered 429");
      ctx.status(429).header("Retry-After", "1");
      ctx.json(
          Map.of("error", "too many waits from your address; at most " + MAX_WAITS_PER_ADDRESS));
      return;
    }
    LinkedBlockingQueue<Object> arrivals = new LinkedBlockingQueue<>();
    try (Subscription subscription = store.subscribe(inbox, arrivals::offer);
        ClientHangups.Watch watch = hangups.watch(ctx, () -> arrivals.offer(CLIENT_GONE))) {
      Optional<MessageSummary> found =
          afterId != null || since != null
              ? oldestAlreadyThere(inbox, afterId, since, wanted)
              : Optional.empty();
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        if (found.isPresent()) {
          Optional<OpenedMessage> opened = reader.open(ctx, found.get().id());
          if (opened.isPresent()) { // (else deleted or evicted since: keep waiting)
            ctx.header("Location", "/api/v1/messages/" + found.get().id().value());
            ctx.json(
                MailJson.message(opened.get(), scanner.explain(opened.get().mail().scanParts())));
            return;
          }
        }
        long left = deadline - System.nanoTime();
        Object next = left <= 0 ? null : arrivals.poll(left, TimeUnit.NANOSECONDS);
        if (next == null || next == CLIENT_GONE) { // (gone: nobody reads the answer)
          ctx.status(204);
          return;
        }
        MessageSummary arrived = (MessageSummary) next;
        found = wanted.test(arrived) ? Optional.of(arrived) : Optional.empty();
      }
    } finally {
      leave(client);
    }
  }

  /**
   * The oldest message in {@code inbox} that is newer than {@code after} (or received at or after
   * {@code since}) and {@code wanted}, if any.
   */
  private Optional<MessageSummary> oldestAlreadyThere(
      InboxName inbox, MessageId after, Instant since, Predicate<MessageSummary> wanted) {
    List<MessageSummary> newest = InboxApi.newestFirst(store, inbox).limit(MAX_LOOKED_AT).toList();
    List<MessageSummary> newer =
        newest.stream()
            .takeWhile(
                summary ->
                    !summary.id().equals(after)
                        && (since == null || !summary.receivedAt().isBefore(since)))
            .toList();
    boolean afterNotSeen = after != null && since == null && newer.size() == newest.size();
    if (afterNotSeen) {
      requireInThisInbox(inbox, after, newest.size() < MAX_LOOKED_AT);
    }
    for (int i = newer.size() - 1; i >= 0; i--) {
      if (wanted.test(newer.get(i))) {
        return Optional.of(newer.get(i));
      }
    }
    return Optional.empty();
  }

  /**
   * Returns if message {@code after}, not among the inbox's entries looked through, may still be in
   * {@code inbox}, older than all of them ({@code lookedAtAll} false); else a 404 saying whether it
   * is a message of another inbox (never which) or no message now.
   */
  private void requireInThisInbox(InboxName inbox, MessageId after, boolean lookedAtAll) {
    Optional<InboxName> holder = store.get(after).map(stored -> stored.summary().inbox());
    if (holder.isPresent() && !holder.get().equals(inbox)) {
      throw new NotFoundResponse(
          "message "
              + after.value()
              + " is a message of another inbox, not of this one; after= takes the id of a"
              + " message of this inbox");
    }
    if (holder.isEmpty() || lookedAtAll) {
      throw new NotFoundResponse(
          "message "
              + after.value()
              + " is not in this inbox (deleted, expired, evicted or never delivered), so nothing"
              + " tells which mail came after it; to chain past mail you delete, give"
              + " since=<its receivedAt> with after");
    }
  }

  private static Predicate<MessageSummary> filter(String from, String subject) {
    String fromPart = from == null ? null : from.toLowerCase(Locale.ROOT);
    String subjectPart = subject == null ? null : subject.toLowerCase(Locale.ROOT);
    return summary ->
        (fromPart == null
                || summary.from().toLowerCase(Locale.ROOT).contains(fromPart)
                || summary.envelopeSender().toLowerCase(Locale.ROOT).contains(fromPart))
            && (subjectPart == null
                || summary.subject().toLowerCase(Locale.ROOT).contains(subjectPart));
  }

  /** {@code timeout}: {@code 30s}, {@code 2m}, {@code 500ms}, or whole seconds. */
  static Duration timeout(String text) {
    if (text == null) {
      return Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS);
    }
    Duration timeout = timeoutOrNull(text);
    if (timeout == null) {
      throw new IllegalArgumentException(
          QueryParameters.badValue(
              "timeout must be a duration (30s, 2m, 500ms) of at most "
                  + MAX_TIMEOUT_SECONDS
                  + " s",
              text,
              other -> timeoutOrNull(other) != null));
    }
    return timeout;
  }

  /** The {@code timeout} of {@code text}, or null if it is none or out of range. */
  private static Duration timeoutOrNull(String text) {
    Duration timeout;
    try {
      timeout =
          text.strip().matches("\\d{1,6}")
              ? Duration.ofSeconds(Long.parseLong(text.strip()))
              : OptionValues.parseDuration(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
    boolean inRange =
        !timeout.isNegative() && timeout.compareTo(Duration.ofSeconds(MAX_TIMEOUT_SECONDS)) <= 0;
    return inRange ? timeout : null;
  }

  private static Instant since(String text) {
    if (text == null) {
      return null;
    }
    Instant since = instantOrNull(text);
    if (since == null) {
      throw new IllegalArgumentException(
          QueryParameters.badValue(
              "since must be an ISO-8601 instant, e.g. 2026-01-31T12:00:00Z",
              text,
              other -> instantOrNull(other) != null));
    }
    return since;
  }

  private static Instant instantOrNull(String text) {
    try {
      return Instant.parse(text.strip());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private boolean enter(InetAddress client) {
    if (client == null || trusted.contains(client)) {
      return true;
    }
    boolean[] admitted = {false};
    waiting.compute(
        client,
        (address, count) -> {
          int now = count == null ? 0 : count;
          admitted[0] = now < MAX_WAITS_PER_ADDRESS;
          return admitted[0] ? now + 1 : now;
        });
    return admitted[0];
  }

  private void leave(InetAddress client) {
    if (client == null || trusted.contains(client)) {
      return;
    }
    waiting.computeIfPresent(client, (address, count) -> count <= 1 ? null : count - 1);
  }

  /** The address in {@code text} (a request's remote address), or null if there is none. */
  static InetAddress address(String text) {
    try {
      return text == null ? null : InetAddress.getByName(text); // a literal: no lookup
    } catch (UnknownHostException e) {
      return null;
    }
  }
}
