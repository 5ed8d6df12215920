package dev.burnbox.server.junit;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.StoredMessage;
import dev.burnbox.mailstore.Subscription;
import dev.burnbox.server.mime.DecodedMail;
import dev.burnbox.server.mime.MailDecoder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A test's view of a running Burnbox's inboxes: list them, and wait for mail without polling (a
 * subscription to the store wakes the waiter as soon as a message is stored). Thread-safe.
 */
public final class Inboxes {
  private static final MailDecoder DECODER = MailDecoder.withDefaults();

  private final InboxStore store;

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
   * The newest message in {@code inbox}, waiting up to {@code timeout} for one to arrive if the
   * inbox is empty.
   *
   * @throws AssertionError if no mail arrived in time (a test failure, with the inbox's name)
   */
  public ReceivedMail awaitMail(String inbox, Duration timeout) throws InterruptedException {
    return awaitMail(inbox, 1, timeout).getFirst();
  }

  /**
   * The newest {@code count} messages of {@code inbox}, newest first, once it holds at least that
   * many, waiting up to {@code timeout}.
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
        List<MessageSummary> held = store.list(name, count, null).messages();
        if (held.size() >= count) {
          return held.stream().map(this::read).toList();
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || arrivals.poll(left, TimeUnit.NANOSECONDS) == null) {
          throw new AssertionError(
              "inbox "
                  + inbox
                  + " holds "
                  + held.size()
                  + " of "
                  + count
                  + " mails after "
                  + timeout);
        }
      }
    }
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
