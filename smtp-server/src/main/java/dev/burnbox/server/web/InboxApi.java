package dev.burnbox.server.web;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxPage;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.StoredMessage;
import dev.burnbox.server.mime.Attachment;
import dev.burnbox.server.mime.MailLinks;
import dev.burnbox.server.mime.VerificationCodes;
import dev.burnbox.server.pipeline.SpamExplanation;
import dev.burnbox.server.pipeline.SpamScanner;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.NotFoundResponse;
import io.javalin.router.JavalinDefaultRoutingApi;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The JSON API over inboxes and messages, as documented in {@code /api/openapi.json}: list an inbox
 * (or search it), empty it, read a message, download its raw source or an attachment, delete it,
 * follow an inbox's new mail, wait for its next message, list a message's links and likely one-time
 * codes. Every entry carries its stored spam verdict and the scanner's threshold now; a message
 * read whole also has its verdict explained term by term by the scanner's model now. A bad name, id
 * or parameter is a 400 and an unknown message a 404, both with a JSON {@code {"error": ...}} body
 * (see {@link WebServer}). Thread-safe.
 */
final class InboxApi {
  /** Entries per page when {@code limit} is not given. */
  static final int DEFAULT_LIMIT = 20;

  /** The largest {@code limit} accepted. */
  static final int MAX_LIMIT = 100;

  private final InboxStore store;
  private final MailReader reader;
  private final SpamScanner scanner;
  private final InboxEvents events;
  private final InboxWaits waits;
  private final WebAccess access;
  private final WebThreads threads;

  InboxApi(
      InboxStore store,
      MailReader reader,
      SpamScanner scanner,
      InboxEvents events,
      InboxWaits waits,
      WebAccess access,
      WebThreads threads) {
    this.store = Objects.requireNonNull(store, "store");
    this.reader = Objects.requireNonNull(reader, "reader");
    this.scanner = Objects.requireNonNull(scanner, "scanner");
    this.events = Objects.requireNonNull(events, "events");
    this.waits = Objects.requireNonNull(waits, "waits");
    this.access = Objects.requireNonNull(access, "access");
    this.threads = Objects.requireNonNull(threads, "threads");
  }

  /**
   * Declares the API routes listed in the class comment, each with the query parameters it takes:
   * any other is a 400 ({@link QueryParameters#requireOnly}).
   */
  void addRoutes(JavalinDefaultRoutingApi routes) {
    routes.get("/api/v1/inboxes/{name}", taking(this::list, "limit", "cursor", "q"));
    routes.delete("/api/v1/inboxes/{name}", taking(this::deleteInbox));
    routes.get("/api/v1/inboxes/{name}/events", taking(this::events));
    routes.get(
        "/api/v1/inboxes/{name}/next",
        taking(this::next, "after", "since", "from", "subject", "timeout"));
    routes.get("/api/v1/messages/{id}", taking(this::message));
    routes.get("/api/v1/messages/{id}/raw", taking(this::raw));
    routes.get("/api/v1/messages/{id}/links", taking(this::links));
    routes.get("/api/v1/messages/{id}/codes", taking(this::codes));
    routes.get("/api/v1/messages/{id}/attachments/{n}", taking(this::attachment));
    routes.delete("/api/v1/messages/{id}", taking(this::delete));
  }

  /** {@code handler}, for requests with no query parameters but {@code parameters}. */
  static Handler taking(Handler handler, String... parameters) {
    return ctx -> {
      QueryParameters.requireOnly(ctx, parameters);
      handler.handle(ctx);
    };
  }

  /**
   * The inbox is checked on the request's thread, the stream then waits on one of its own; a {@code
   * HEAD} request gets the stream's headers and no stream.
   */
  private void events(Context ctx) throws IOException {
    InboxName inbox = access.inbox(ctx);
    if (HeadAsGet.isHead(ctx)) {
      InboxEvents.head(ctx);
      return;
    }
    threads.waiting(ctx, () -> events.stream(ctx, inbox));
  }

  private void next(Context ctx) {
    InboxName inbox = access.inbox(ctx);
    threads.waiting(ctx, () -> waits.next(ctx, inbox));
  }

  private void list(Context ctx) {
    InboxName inbox = access.inbox(ctx);
    String query = QueryParameters.optional(ctx, "q");
    if (query != null && !query.isBlank()) {
      search(ctx, inbox, query);
      return;
    }
    InboxPage page =
        store.list(
            inbox,
            limit(QueryParameters.optional(ctx, "limit")),
            QueryParameters.optional(ctx, "cursor"));
    double threshold = scanner.threshold();
    List<Map<String, Object>> messages = new ArrayList<>();
    page.messages().forEach(summary -> messages.add(MailJson.summary(summary, threshold)));
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("inbox", inbox.value());
    json.put("messages", messages);
    json.put("nextCursor", page.nextCursor().orElse(null));
    ctx.json(json);
  }

  /**
   * {@code ?q=}: the newest {@code limit} messages among the inbox's next {@value #MAX_SEARCHED}
   * from {@code cursor} (the newest without) whose subject, sender or text (text parts and the
   * HTML's visible text) contains {@code query}, case-insensitively; {@code nextCursor} continues
   * the search when another message among those read matches.
   */
  private void search(Context ctx, InboxName inbox, String query) {
    MailReader.SearchPage found =
        reader.searchInbox(
            ctx,
            inbox,
            query,
            limit(QueryParameters.optional(ctx, "limit")),
            QueryParameters.optional(ctx, "cursor"));
    double threshold = scanner.threshold();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("inbox", inbox.value());
    json.put(
        "messages", found.messages().stream().map(s -> MailJson.summary(s, threshold)).toList());
    json.put("nextCursor", found.nextCursor());
    json.put("searched", found.searched());
    ctx.json(json);
  }

  /** {@code DELETE /api/v1/inboxes/{name}}: every message of the inbox; answers how many. */
  private void deleteInbox(Context ctx) {
    InboxName inbox = access.inbox(ctx);
    List<MessageId> ids = newestFirst(store, inbox).map(MessageSummary::id).toList();
    long deleted = ids.stream().filter(store::delete).count();
    ctx.json(Map.of("inbox", inbox.value(), "deleted", deleted));
  }

  /**
   * Every entry of {@code inbox}, newest first, read a page of {@value #MAX_LIMIT} at a time as the
   * stream is consumed (a short-circuiting stream reads no page it does not need).
   */
  static Stream<MessageSummary> newestFirst(InboxStore store, InboxName inbox) {
    return Stream.iterate(
            store.list(inbox, MAX_LIMIT, null),
            Objects::nonNull,
            page ->
                page.nextCursor().map(cursor -> store.list(inbox, MAX_LIMIT, cursor)).orElse(null))
        .flatMap(page -> page.messages().stream());
  }

  /** Messages a search looks through, newest first. */
  static final int MAX_SEARCHED = 1_000;

  private void message(Context ctx) {
    OpenedMessage opened = open(ctx);
    SpamExplanation why = scanner.explain(opened.mail().scanParts());
    ctx.json(MailJson.message(opened, why));
  }

  private void links(Context ctx) {
    OpenedMessage opened = open(ctx);
    ctx.json(
        Map.of(
            "id",
            opened.summary().id().value(),
            "links",
            MailJson.links(MailLinks.of(opened.mail()))));
  }

  private void codes(Context ctx) {
    OpenedMessage opened = open(ctx);
    ctx.json(
        Map.of(
            "id",
            opened.summary().id().value(),
            "codes",
            MailJson.codes(VerificationCodes.of(opened.mail()))));
  }

  private void raw(Context ctx) {
    StoredMessage stored = stored(ctx);
    ctx.contentType("message/rfc822");
    ctx.header("Content-Disposition", "attachment; filename=\"" + stored.id() + ".eml\"");
    ctx.result(stored.raw());
  }

  private void attachment(Context ctx) {
    MessageId id = id(ctx);
    int index = attachmentIndex(ctx.pathParam("n"));
    StoredMessage stored = stored(ctx);
    Attachment attachment =
        reader
            .attachment(stored, index)
            .orElseThrow(() -> new NotFoundResponse("no attachment " + index + " in this message"));
    // served as opaque bytes whatever the mail claims, so a browser never renders it here
    ctx.contentType("application/octet-stream");
    ctx.header(
        "Content-Disposition",
        DownloadNames.contentDisposition(attachment.filename(), attachment.contentType(), index));
    ctx.result(attachment.content());
  }

  private void delete(Context ctx) {
    MessageId id = id(ctx);
    if (!access.privateDomains().isEmpty()) {
      stored(ctx); // a private inbox's mail is deleted only by those who may read it
    }
    if (!store.delete(id)) {
      throw noSuchMessage();
    }
    ctx.status(204);
  }

  /** The message of the {@code id} path parameter, decoded, once the request may read it. */
  private OpenedMessage open(Context ctx) {
    OpenedMessage opened = reader.open(ctx, id(ctx)).orElseThrow(InboxApi::noSuchMessage);
    access.require(ctx, opened.summary().inbox());
    return opened;
  }

  /** The message of the {@code id} path parameter as received, once the request may read it. */
  private StoredMessage stored(Context ctx) {
    StoredMessage stored = reader.stored(ctx, id(ctx)).orElseThrow(InboxApi::noSuchMessage);
    access.require(ctx, stored.summary().inbox());
    return stored;
  }

  static MessageId id(Context ctx) {
    return MessageId.parse(ctx.pathParam("id"));
  }

  static NotFoundResponse noSuchMessage() {
    return new NotFoundResponse("no such message (deleted, expired or never delivered)");
  }

  /** The {@code limit} parameter: absent means {@value #DEFAULT_LIMIT}. */
  static int limit(String text) {
    if (text == null) {
      return DEFAULT_LIMIT;
    }
    try {
      int limit = Integer.parseInt(text);
      if (limit >= 1 && limit <= MAX_LIMIT) {
        return limit;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("limit must be an integer from 1 to " + MAX_LIMIT);
  }

  static int attachmentIndex(String text) {
    try {
      int index = Integer.parseInt(text);
      if (index >= 0) {
        return index;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("attachment index must be an integer from 0");
  }
}
