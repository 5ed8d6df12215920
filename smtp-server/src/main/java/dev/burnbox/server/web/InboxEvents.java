package dev.burnbox.server.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.Subscription;
import dev.burnbox.server.pipeline.SpamScanner;
import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/inboxes/{name}/events}: a Server-Sent Events stream with one {@code mail}
 * event per message delivered to the inbox while the stream is open; its {@code data} is the
 * entry's JSON (as in a listing, with the spam threshold in use when the event is sent) and its
 * {@code id} the message id, a dot and the message's {@code receivedAt} ({@link #eventId}).
 *
 * <p>Each stream holds one store subscription and one (virtual) request thread, and closes the
 * subscription, ending its response, as soon as the client goes ({@link ClientHangups}); a comment
 * line is still written every heartbeat, for proxies and clients that drop idle connections. The
 * subscription exists before the response headers are sent, so a client that has seen them misses
 * no later mail. A client that reads too slowly to keep up with {@value #BACKLOG} pending events
 * misses the newer ones.
 *
 * <p>Right after the headers (and any mail sent again, below), the stream sends an event with an
 * {@code id} and no data, which browsers take as the last event id without dispatching anything:
 * the id of the inbox's newest mail at the opening, or {@value #EMPTY_INBOX_ID} when it has none.
 * So a client that loses the connection before any mail came still reconnects with a position.
 *
 * <p>A client that reconnects with {@code Last-Event-ID} (as browsers' {@code EventSource} does) is
 * first sent the mail that came after that event's message, oldest first, from the inbox's newest
 * {@value #BACKLOG} entries: nothing is lost between two connections. If the message is no longer
 * in the inbox (deleted, expired, evicted), the mail received at or after its {@code receivedAt}
 * (from the event id) is sent instead. A bare message id (an id of before the time was added) is
 * still taken while its message is there. When neither places the client, or more mail came than
 * {@value #BACKLOG} entries hold, a comment says so and the client should list the inbox.
 * Thread-safe.
 */
final class InboxEvents implements AutoCloseable {
  /** Events held for one slow client before newer ones are dropped. */
  static final int BACKLOG = 256;

  /**
   * The event id of a stream's opening on an empty inbox: a reconnect with it is sent every mail of
   * the inbox (its newest {@value #BACKLOG}), since all of it came later.
   */
  static final String EMPTY_INBOX_ID = "empty";

  private static final Object END = new Object();

  /** Put in a stream's queue when its client has gone. */
  private static final Object CLIENT_GONE = new Object();

  /** An event id: a message id, a dot, and an ISO-8601 instant. */
  private static final Pattern EVENT_ID =
      Pattern.compile("([A-Za-z0-9_-]{" + MessageId.LENGTH + "})(?:\\.(\\S+))?");

  private final InboxStore store;
  private final SpamScanner scanner;
  private final ObjectMapper json;
  private final Duration heartbeat;
  private final ClientHangups hangups;
  private final Set<BlockingQueue<Object>> streams = ConcurrentHashMap.newKeySet();

  InboxEvents(
      InboxStore store,
      SpamScanner scanner,
      ObjectMapper json,
      Duration heartbeat,
      ClientHangups hangups) {
    this.store = Objects.requireNonNull(store, "store");
    this.scanner = Objects.requireNonNull(scanner, "scanner");
    this.json = Objects.requireNonNull(json, "json");
    this.heartbeat = Objects.requireNonNull(heartbeat, "heartbeat");
    this.hangups = Objects.requireNonNull(hangups, "hangups");
  }

  /**
   * Serves one stream of {@code inbox} (which the request may read) until the client goes or {@link
   * #close()} is called.
   */
  void stream(Context ctx, InboxName inbox) throws IOException {
    BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    try (Subscription subscription = store.subscribe(inbox, summary -> offer(queue, summary));
        ClientHangups.Watch watch = hangups.watch(ctx, () -> queue.add(CLIENT_GONE))) {
      streams.add(queue);
      String lastEventId = ctx.header("Last-Event-ID");
      // read after subscribing, so that what came later is in the queue; before the headers, so
      // that a store that cannot answer makes a 503 rather than a broken stream
      List<MessageSummary> newest =
          lastEventId == null || lastEventId.isBlank()
              ? store.list(inbox, 1, null).messages()
              : InboxApi.newestFirst(store, inbox).limit(BACKLOG).toList();
      HttpServletResponse response = ctx.res();
      streamHeaders(response);
      OutputStream out = response.getOutputStream();
      send(out, "retry: 3000\n: subscribed to " + inbox.value() + "\n\n");
      Set<MessageId> replayed = replay(out, newest, lastEventId);
      send(out, "id: " + positionId(newest) + "\n\n");
      while (true) {
        Object next = queue.poll(heartbeat.toMillis(), TimeUnit.MILLISECONDS);
        if (next == END || next == CLIENT_GONE) {
          return;
        }
        if (next == null) {
          send(out, ": heartbeat\n\n");
        } else if (!replayed.contains(((MessageSummary) next).id())) {
          sendMail(out, (MessageSummary) next);
        }
      }
    } catch (IOException clientGone) {
      // the connection closed: the subscription is closed above, nothing else to do
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      streams.remove(queue);
    }
  }

  /**
   * Sends the mail that came after the message of event {@code lastEventId} (a client's {@code
   * Last-Event-ID}), oldest first, and returns the ids sent, which the subscription may deliver
   * again.
   */
  private Set<MessageId> replay(OutputStream out, List<MessageSummary> newest, String lastEventId)
      throws IOException {
    if (lastEventId == null || lastEventId.isBlank()) {
      return Set.of();
    }
    if (lastEventId.strip().equals(EMPTY_INBOX_ID)) {
      if (newest.size() == BACKLOG) {
        send(out, ": more mail came than is sent again here; list the inbox\n\n");
      }
      return replay(out, newest);
    }
    Matcher event = EVENT_ID.matcher(lastEventId.strip());
    String seenId = event.matches() ? event.group(1) : lastEventId.strip();
    Instant seenAt = event.matches() ? instant(event.group(2)) : null;
    List<MessageSummary> missed =
        newest.stream().takeWhile(s -> !s.id().value().equals(seenId)).toList();
    if (missed.size() == newest.size()) { // the message is gone, or older than BACKLOG entries
      if (seenAt == null) {
        send(out, ": last event id not among the inbox's newest mail; list the inbox\n\n");
        return Set.of();
      }
      missed = newest.stream().filter(s -> !s.receivedAt().isBefore(seenAt)).toList();
      if (missed.size() == BACKLOG) {
        send(out, ": more mail came than is sent again here; list the inbox\n\n");
      }
    }
    return replay(out, missed);
  }

  /** Sends {@code missed} (newest first) oldest first, and returns their ids. */
  private Set<MessageId> replay(OutputStream out, List<MessageSummary> missed) throws IOException {
    Set<MessageId> sent = new HashSet<>();
    for (MessageSummary summary : missed.reversed()) {
      sendMail(out, summary);
      sent.add(summary.id());
    }
    return sent;
  }

  /**
   * The event id that places a client at the stream's opening: that of the inbox's newest mail
   * ({@code newest}, newest first), or {@value #EMPTY_INBOX_ID} for an empty inbox.
   */
  private static String positionId(List<MessageSummary> newest) {
    return newest.isEmpty() ? EMPTY_INBOX_ID : eventId(newest.getFirst());
  }

  /**
   * The {@code id} of the event of {@code summary}: its message id, a dot, and its {@code
   * receivedAt} (ISO-8601), so that a reconnect after the message was deleted still knows which
   * mail came after it.
   */
  static String eventId(MessageSummary summary) {
    return summary.id().value() + "." + summary.receivedAt();
  }

  private static Instant instant(String text) {
    try {
      return text == null ? null : Instant.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private void sendMail(OutputStream out, MessageSummary summary) throws IOException {
    send(
        out,
        "event: mail\nid: "
            + eventId(summary)
            + "\ndata: "
            + json.writeValueAsString(MailJson.summary(summary, scanner.threshold()))
            + "\n\n");
  }

  /**
   * A {@code HEAD} request for a stream: the headers a stream starts with and nothing else, since a
   * stream that Jetty answers with its headers only would never notice its client going. They are
   * sent before the request ends, as a stream's are, so that they carry no {@code Content-Length}.
   */
  static void head(Context ctx) throws IOException {
    streamHeaders(ctx.res());
    ctx.res().flushBuffer();
  }

  private static void streamHeaders(HttpServletResponse response) {
    response.setStatus(200);
    response.setContentType("text/event-stream;charset=utf-8");
    response.setHeader("Cache-Control", "no-store");
  }

  /** Streams open now. */
  int openStreams() {
    return streams.size();
  }

  /** Ends every open stream (their subscriptions close); later streams are not affected. */
  @Override
  public void close() {
    for (BlockingQueue<Object> queue : streams) {
      queue.add(END);
    }
  }

  private static void offer(BlockingQueue<Object> queue, MessageSummary summary) {
    if (queue.size() < BACKLOG) {
      queue.add(summary);
    }
  }

  // JSON never contains a raw line break, so each event's data is one line
  private static void send(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
