package dev.burnbox.server.junit;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxPage;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.StoredMessage;
import dev.burnbox.mailstore.Subscription;
import dev.burnbox.server.mime.DecodedMail;
import dev.burnbox.server.mime.MailDecoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A test's view of a running Burnbox's inboxes: list them, and wait for mail without polling (a
 * subscription to the store wakes the waiter as soon as a message is stored).
 *
 * <p>{@link #awaitMail} hands out each message once, oldest first: it returns the messages of an
 * inbox that this {@code Inboxes} has not returned yet, in the order they arrived, whether they
 * arrived before the call or while it waits. {@link BurnboxExtension} keeps one {@code Inboxes} per
 * running service, so with {@link BurnboxExtension#perClass()} a test does not get again the mail
 * an earlier test of its class already awaited. Thread-safe: concurrent waiters on one inbox never
 * get the same message.
 */
public final class Inboxes {
  private static final MailDecoder DECODER = MailDecoder.withDefaults();

  /** Page size when reading an inbox whole. */
  private static final int PAGE = 50;

  private final InboxStore store;

  /**
   * The messages {@link #awaitMail} has returned, per inbox; each set guards its inbox's claims.
   */
  private final Map<InboxName, Set<MessageId>> returned = new ConcurrentHashMap<>();

  Inboxes(InboxStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * One message as received, decoded.
   *
   * @param summary its listing entry (id, sender, subject, spam verdict...)
   * @param raw the bytes exactly as received
   * @param decoded its MIME structure decoded (text, HTML, headers, attachments)
   */
  public record ReceivedMail(MessageSummary summary, byte[] raw, DecodedMail decoded) {
    /** The decoded subject. */
    public String subject() {
      return decoded.subject();
    }

    /** The text parts, decoded. */
    public String text() {
      return decoded.text();
    }

    /** The HTML parts, decoded and unsanitized. */
    public String html() {
      return decoded.html();
    }
  }

  /** The messages in {@code inbox} (a local part such as {@code ann}), newest first, at most 50. */
  public List<MessageSummary> list(String inbox) {
    return store.list(InboxName.of(inbox), 50, null).messages();
  }

  /**
   * The oldest message in {@code inbox} that this {@code Inboxes} has not returned yet (see the
   * class comment), waiting up to {@code timeout} for one to arrive if there is none. Calls in a
   * row return the inbox's messages one by one, in arrival order.
   *
   * @throws AssertionError if no such mail arrived in time (a test failure, with the inbox's name)
   */
  public ReceivedMail awaitMail(String inbox, Duration timeout) throws InterruptedException {
    return awaitMail(inbox, 1, timeout).getFirst();
  }

  /**
   * The oldest {@code count} messages of {@code inbox} that this {@code Inboxes} has not returned
   * yet, in arrival order, once there are that many, waiting up to {@code timeout}. Returns all of
   * them or none: on failure none counts as returned.
   *
   * @throws AssertionError if fewer arrived in time
   */
  public List<ReceivedMail> awaitMail(String inbox, int count, Duration timeout)
      throws InterruptedException {
    InboxName name = InboxName.of(inbox);
    LinkedBlockingQueue<MessageSummary> arrivals = new LinkedBlockingQueue<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Subscription ignored = store.subscribe(name, arrivals::add)) {
      while (true) {
        List<MessageSummary> fresh = new ArrayList<>();
        if (claim(name, count, fresh)) {
          return fresh.stream().map(this::read).toList();
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || arrivals.poll(left, TimeUnit.NANOSECONDS) == null) {
          throw new AssertionError(
              "inbox "
                  + inbox
                  + " holds "
                  + fresh.size()
                  + " of "
                  + count
                  + " mails not yet returned after "
                  + timeout);
        }
      }
    }
  }

  /**
   * Puts into {@code fresh} the messages of {@code inbox} not returned yet, oldest first, at most
   * {@code count}; if there are {@code count}, marks them returned and answers true.
   */
  private boolean claim(InboxName inbox, int count, List<MessageSummary> fresh) {
    Set<MessageId> done = returned.computeIfAbsent(inbox, name -> new HashSet<>());
    synchronized (done) {
      List<MessageSummary> oldestFirst = everyMessage(inbox).reversed();
      for (MessageSummary message : oldestFirst) {
        if (fresh.size() < count && !done.contains(message.id())) {
          fresh.add(message);
        }
      }
      if (fresh.size() < count) {
        return false;
      }
      fresh.forEach(message -> done.add(message.id()));
      return true;
    }
  }

  /** Every message {@code inbox} holds, newest first: O(messages held). */
  private List<MessageSummary> everyMessage(InboxName inbox) {
    List<MessageSummary> all = new ArrayList<>();
    String cursor = null;
    do {
      InboxPage page = store.list(inbox, PAGE, cursor);
      all.addAll(page.messages());
      cursor = page.nextCursor().orElse(null);
    } while (cursor != null);
    return all;
  }

  private ReceivedMail read(MessageSummary summary) {
    StoredMessage stored =
        store
            .get(summary.id())
            .orElseThrow(() -> new AssertionError("message " + summary.id() + " was evicted"));
    byte[] raw = stored.raw();
    return new ReceivedMail(stored.summary(), raw, DECODER.decode(raw));
  }
}
