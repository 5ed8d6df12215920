package dev.burnbox.mailstore;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's local subscribers, by inbox ({@link InboxStore#subscribe}): each new entry's summary
 * goes to the listeners of its inbox, each call handed to the store's listener executor, a listener
 * that throws logged and the others still called. Both stores use it: the memory store publishes as
 * it delivers, the Redis store as its event connection hears of a delivery on any node.
 *
 * <p>Thread-safe: subscribing, closing a subscription and publishing may race; a subscription
 * closed before a publish starts is not called by it. Subscribing and closing cost O(listeners of
 * that inbox); publishing to an inbox nobody follows is one map lookup.
 */
final class InboxListeners {
  private static final Logger LOG = LoggerFactory.getLogger(InboxListeners.class);

  private final Executor executor;
  private final ConcurrentHashMap<InboxName, CopyOnWriteArrayList<Listener>> byInbox =
      new ConcurrentHashMap<>();

  InboxListeners(Executor executor) {
    this.executor = Objects.requireNonNull(executor, "executor");
  }

  /** One subscription; identity matters, so one consumer may be subscribed twice. */
  private static final class Listener {
    final Consumer<? super MessageSummary> consumer;

    Listener(Consumer<? super MessageSummary> consumer) {
      this.consumer = consumer;
    }
  }

  /** Subscribes {@code consumer} to the entries of {@code inbox} (a canonical name). */
  Subscription add(InboxName inbox, Consumer<? super MessageSummary> consumer) {
    Listener l = new Listener(Objects.requireNonNull(consumer, "listener"));
    // compute and computeIfPresent are atomic per key: a list emptied by close is never added to
    byInbox.compute(
        inbox,
        (k, list) -> {
          CopyOnWriteArrayList<Listener> out = list == null ? new CopyOnWriteArrayList<>() : list;
          out.add(l);
          return out;
        });
    return () ->
        byInbox.computeIfPresent(
            inbox,
            (k, list) -> {
              list.remove(l);
              return list.isEmpty() ? null : list;
            });
  }

  /** Whether anyone follows {@code inbox}: a store may skip building a summary nobody reads. */
  boolean follows(InboxName inbox) {
    return byInbox.containsKey(inbox);
  }

  /** Hands {@code summary} to every listener of its inbox, each on the executor. */
  void publish(MessageSummary summary) {
    CopyOnWriteArrayList<Listener> subscribed = byInbox.get(summary.inbox());
    if (subscribed == null) {
      return;
    }
    for (Listener l : subscribed) {
      try {
        executor.execute(() -> call(l, summary));
      } catch (RuntimeException ex) {
        LOG.warn("listener executor refused an event", ex);
      }
    }
  }

  private static void call(Listener l, MessageSummary summary) {
    try {
      l.consumer.accept(summary);
    } catch (RuntimeException ex) {
      LOG.warn("inbox listener failed", ex);
    }
  }
}
