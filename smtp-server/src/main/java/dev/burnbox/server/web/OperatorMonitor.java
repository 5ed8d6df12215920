package dev.burnbox.server.web;

import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.server.pipeline.SpamScanner;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;
import io.javalin.router.JavalinDefaultRoutingApi;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What an operator sees across every inbox, behind {@code --admin-token}:
 *
 * <ul>
 *   <li>{@code GET /api/v1/messages?q=&limit=}: the newest messages of the whole store, newest
 *       first (at most {@code limit}, default {@value InboxApi#DEFAULT_LIMIT}, up to {@value
 *       InboxApi#MAX_LIMIT}, as an inbox's listing); with {@code q}, those among the newest {@value
 *       InboxApi#MAX_SEARCHED} whose subject, sender or text contains it. Needs {@code
 *       Authorization: Bearer TOKEN}: 401 without it or with another token, 404 when no token is
 *       configured (the endpoint is off).
 *   <li>{@code GET /monitor}: a page that asks for the token once (kept in the tab's session
 *       storage, never in a URL or cookie) and lists new mail as it arrives, asking the API every 2
 *       s, each row laid out as the inbox page's (its inbox's name in a column before the sender)
 *       with its spam verdict as the inbox page shows it (badge and, for spam, its terms: {@code
 *       /static/rows.js}); 404 (an HTML page saying so) when no token is configured.
 * </ul>
 *
 * <p>Inboxes are shared by every domain (Mailinator's model), so there is no per-domain filter: the
 * store keeps no recipient domain. Thread-safe.
 */
final class OperatorMonitor {
  private final InboxStore store;
  private final MailReader reader;
  private final SpamScanner scanner;
  private final WebAccess access;

  OperatorMonitor(InboxStore store, MailReader reader, SpamScanner scanner, WebAccess access) {
    this.store = Objects.requireNonNull(store, "store");
    this.reader = Objects.requireNonNull(reader, "reader");
    this.scanner = Objects.requireNonNull(scanner, "scanner");
    this.access = Objects.requireNonNull(access, "access");
  }

  void addRoutes(JavalinDefaultRoutingApi routes) {
    routes.get("/api/v1/messages", this::newest);
    routes.get("/monitor", this::page);
  }

  private void newest(Context ctx) {
    if (!access.operatorsEnabled()) {
      ctx.status(404).json(Map.of("error", "the operator endpoints are off (--admin-token)"));
      return;
    }
    if (!access.isOperator(ctx.header("Authorization"))) {
      ctx.header("WWW-Authenticate", "Bearer realm=\"burnbox operators\"");
      ctx.status(401).json(Map.of("error", "operator token required (Authorization: Bearer)"));
      return;
    }
    QueryParameters.requireOnly(ctx, "q", "limit");
    int limit = InboxApi.limit(QueryParameters.optional(ctx, "limit"));
    String query = QueryParameters.optional(ctx, "q");
    MailReader.Found found =
        query == null || query.isBlank()
            ? new MailReader.Found(store.newest(limit), 0)
            : reader.search(
                ctx,
                store.newest(InboxApi.MAX_SEARCHED).stream(),
                query.strip().toLowerCase(Locale.ROOT),
                InboxApi.MAX_SEARCHED,
                limit);
    double threshold = scanner.threshold();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put(
        "messages", found.messages().stream().map(s -> MailJson.summary(s, threshold)).toList());
    json.put("searched", found.searched());
    ctx.json(json);
  }

  private void page(Context ctx) {
    if (!access.operatorsEnabled()) {
      throw new NotFoundResponse("the operator monitor is off: start Burnbox with --admin-token");
    }
    String body =
        """
        <section class="monitor">
        <h1>New mail, every inbox</h1>
        <form id="token-form" hidden>
        <label>Operator token <input id="token" type="password" autocomplete="off"></label>
        <button type="submit">Watch</button>
        </form>
        <p id="status" class="note"></p>
        <ol id="messages" class="messages"></ol>
        </section>
        """;
    ctx.html(Html.page("Monitor", body, "rows.js", "monitor.js"));
  }
}
