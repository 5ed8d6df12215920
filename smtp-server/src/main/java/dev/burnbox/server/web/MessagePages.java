package dev.burnbox.server.web;

import static dev.burnbox.server.web.Html.escape;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxPage;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.StoredMessage;
import dev.burnbox.server.mime.Attachment;
import dev.burnbox.server.mime.AttachmentInfo;
import dev.burnbox.server.mime.CalendarEvent;
import dev.burnbox.server.mime.DecodedMail;
import dev.burnbox.server.mime.MailHeader;
import dev.burnbox.server.mime.MailLinks;
import dev.burnbox.server.mime.VerificationCodes;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.wordlists.SpamModel.Part;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.NotFoundResponse;
import io.javalin.router.JavalinDefaultRoutingApi;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The server-rendered pages a person uses: {@code /} (type an inbox name), {@code /inbox/{name}}
 * (the list, newest first, or what its search box found, each with its spam probability, updated
 * live by {@code /static/inbox.js}), {@code /message/{id}} (subject and text with the spam model's
 * terms marked; a mail with HTML shows its sandboxed HTML view first and its text folded below it;
 * why the verdict, attachments, headers, raw source, delete) and {@code /message/{id}/html} (the
 * sanitized HTML the view's iframe shows, under its own policy: see {@link SecurityHeaders}) and
 * {@code /message/{id}/inline/{n}} (the images that HTML names by {@code cid:}: see {@link
 * InlineImages}).
 *
 * <p>Every string from a mail is escaped with {@link Html#escape}, also between the marks of {@link
 * SpamHtml#marked}; its header text (sender, subject, header fields, names) is also kept apart from
 * the text around it and stripped of bidirectional controls ({@link Html#isolated}), so none can
 * reorder what follows it; the only mail HTML served is the {@link MailHtmlSanitizer}'s output.
 * Header text is bounded as {@link HeaderCut} says (a listing row's sender and subject, a message's
 * header values and header fields), with a pointer to the raw source wherever something was cut, so
 * no page grows with what a sender puts in a header. The pages work without JavaScript except for
 * live updates. Thread-safe.
 */
final class MessagePages {
  private static final DateTimeFormatter RECEIVED =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private final InboxStore store;
  private final MailReader reader;
  private final SpamScanner scanner;
  private final WebAccess access;
  private final InlineImageSigner signer;

  /** The served domains whose mail goes to shared inboxes, in {@code --domains} order. */
  private final List<String> publicDomains;

  /** Whether mail is taken for every domain (no {@code --domains}). */
  private final boolean everyDomain;

  /**
   * @param servedDomains the domains mail is taken for, in order; empty if every domain
   */
  MessagePages(
      InboxStore store,
      MailReader reader,
      SpamScanner scanner,
      WebAccess access,
      List<String> servedDomains,
      InlineImageSigner signer) {
    this.store = Objects.requireNonNull(store, "store");
    this.reader = Objects.requireNonNull(reader, "reader");
    this.scanner = Objects.requireNonNull(scanner, "scanner");
    this.access = Objects.requireNonNull(access, "access");
    this.signer = Objects.requireNonNull(signer, "signer");
    this.everyDomain = servedDomains.isEmpty();
    this.publicDomains =
        servedDomains.stream().filter(d -> !access.privateDomains().isPrivate(d)).toList();
  }

  /**
   * Declares the page routes listed in the class comment; the inbox and message pages carry {@code
   * X-Robots-Tag: noindex, nofollow}: they are public, but no search results (robots.txt asks
   * crawlers not to fetch them either).
   */
  void addRoutes(JavalinDefaultRoutingApi routes) {
    routes.before("/inbox/*", MessagePages::noIndex);
    routes.before("/message/*", MessagePages::noIndex);
    routes.get("/", this::home);
    routes.get("/inbox", this::goToInbox);
    routes.get("/inbox/{name}", this::inbox);
    routes.get("/message/{id}", this::message);
    routes.get("/message/{id}/html", this::mailHtml);
    routes.get("/message/{id}/inline/{n}", this::inlineImage);
    routes.post("/message/{id}/delete", this::delete);
    routes.post("/session", this::signIn);
    routes.post("/session/end", this::signOut);
  }

  private static void noIndex(Context ctx) {
    ctx.header("X-Robots-Tag", "noindex, nofollow");
  }

  /** True if {@code path} is one of these pages, which answer a private inbox's reader a form. */
  static boolean isPage(String path) {
    return path.equals("/")
        || path.startsWith("/inbox")
        || path.startsWith("/message/")
        || path.startsWith("/session");
  }

  /**
   * The page a private inbox or its mail answers without a token that opens it: a form that asks
   * for the token and posts it to {@code /session}, which keeps it in a cookie for the browser
   * session and comes back to {@code path}.
   */
  static String tokenPage(WebAccess.PrivateInboxException e, String path) {
    return tokenForm(
        e.status() == 403 ? "Not with this token" : "Private inbox", e.getMessage(), path);
  }

  private static String tokenForm(String heading, String message, String next) {
    return Html.page(
        heading,
        """
        <h1>%s</h1>
        <p class="error">%s</p>
        <form class="token" method="post" action="/session">
        <label for="token">Token</label>
        <div class="row">
        <input id="token" name="token" type="password" required autofocus
               autocomplete="current-password" spellcheck="false">
        <input type="hidden" name="next" value="%s">
        <button type="submit">Open</button>
        </div>
        </form>
        <p>The token is kept in a cookie of this browser session only, never in an address.</p>
        """
            .formatted(escape(heading), escape(message), escape(next)));
  }

  /**
   * {@code POST /session}: keeps a known token in the {@value WebAccess#COOKIE} cookie and goes
   * back to {@code next}, a path on this server; an unknown token gets the form again.
   */
  private void signIn(Context ctx) {
    String token = Objects.requireNonNullElse(ctx.formParam("token"), "").strip();
    String next = localPath(ctx.formParam("next"));
    if (!access.knows(token)) {
      ctx.status(401).html(tokenForm("Unknown token", "That token opens nothing here.", next));
      return;
    }
    ctx.header(
        "Set-Cookie",
        WebAccess.COOKIE
            + "="
            + WebAccess.cookieValue(token)
            + "; Path=/; HttpOnly; SameSite=Strict");
    ctx.redirect(next, HttpStatus.SEE_OTHER);
  }

  /** {@code POST /session/end}: forgets the token cookie. */
  private void signOut(Context ctx) {
    ctx.header("Set-Cookie", WebAccess.COOKIE + "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    ctx.redirect("/", HttpStatus.SEE_OTHER);
  }

  /** {@code next} if it is a path on this server, else {@code /}: never a redirect elsewhere. */
  static String localPath(String next) {
    if (next == null
        || !next.startsWith("/")
        || next.startsWith("//")
        || next.contains("\\")
        || next.chars().anyMatch(c -> c < 0x21 || c == 0x7f)) {
      return "/";
    }
    return next;
  }

  /**
   * An error page headed by the reason of {@code status} ("Not found", "Service unavailable"), with
   * {@code message} (escaped here).
   */
  static String errorPage(int status, String message) {
    String reason = HttpStatus.forStatus(status).getMessage();
    return Html.page(
        "Error " + status,
        "<h1>%s</h1>\n<p class=\"error\">%s</p>\n<p><a href=\"/\">Open an inbox</a></p>"
            .formatted(
                escape(reason.charAt(0) + reason.substring(1).toLowerCase(Locale.ROOT)),
                escape(message)));
  }

  private void home(Context ctx) {
    ctx.html(homePage("", ""));
  }

  /**
   * The home page: where to send mail, and the form that opens an inbox, holding {@code typed}
   * (escaped here), with {@code errorHtml} (already HTML; "" for none) saying what is wrong with
   * it. The field takes a name or a whole address, so it takes as many characters as the longest
   * address has ({@link InboxName#MAX_LENGTH} of name, {@code @}, a domain); its {@code pattern}
   * holds the name to {@link InboxName#MAX_LENGTH}.
   */
  private String homePage(String typed, String errorHtml) {
    boolean error = !errorHtml.isEmpty();
    return Html.page(
        error ? "Not an inbox name" : "Disposable inboxes",
        """
        <h1>Read any inbox</h1>
        <p>Send mail to %s, then open that inbox here. No sign-up, no
        password: anyone who knows the name can read it, and mail goes away on its own.</p>
        <form class="open-inbox" method="get" action="/inbox">
        <label for="name">Inbox name</label>
        %s<div class="row">
        <input id="name" name="name" required autofocus maxlength="%d" value="%s"%s
               pattern="%s" title="%s"
               autocomplete="off" autocapitalize="none" spellcheck="false"
               placeholder="for example alice">
        <button type="submit">Open</button>
        </div>
        </form>
        """
            .formatted(
                anyName(),
                error ? "<p class=\"error\" id=\"name-error\">" + errorHtml + "</p>\n" : "",
                InboxName.MAX_LENGTH + 1 + InboxName.MAX_DOMAIN_LENGTH,
                escape(typed),
                error ? " aria-invalid=\"true\" aria-describedby=\"name-error\"" : "",
                escape(NAME_PATTERN),
                escape(NAME_RULE)));
  }

  /**
   * What inbox names may be ({@link InboxName}), for people: the 400 page's sentence and the name
   * field's {@code title}.
   */
  static final String NAME_RULE =
      "Inbox names may hold letters, digits and . _ + - only (no dot first, last or twice in a"
          + " row), at most 64 of them; a whole address, name@domain, works too.";

  /**
   * {@link #NAME_RULE} as an HTML {@code pattern} (which browsers compile with the {@code v} flag,
   * so that classes match code points): a letter, digit, _ or - first, at most 64 in all, no dot
   * last or two in a row, then an optional {@code @domain}. The server checks the whole rule.
   */
  static final String NAME_PATTERN =
      "(?![^@]*[.][.])[\\p{L}\\p{N}_\\-][\\p{L}\\p{N}\\p{M}._+\\-]{0,63}(?<![.])"
          + "(?:@[\\p{L}\\p{N}.\\-]+)?";

  /**
   * "any name@example.com" for the home page: the first served domain whose mail goes to shared
   * inboxes, and the next {@value #OTHER_ADDRESSES} after it; "any name at this server" if mail is
   * taken for every domain.
   */
  private String anyName() {
    if (publicDomains.isEmpty()) {
      return "any name at this server";
    }
    StringBuilder html =
        new StringBuilder("<strong class=\"address\"><em>any name</em>@")
            .append(escape(publicDomains.getFirst()))
            .append("</strong>");
    List<String> others =
        publicDomains.subList(1, Math.min(publicDomains.size(), 1 + OTHER_ADDRESSES));
    if (!others.isEmpty()) {
      html.append(" (or @")
          .append(escape(String.join(", @", others)))
          .append(publicDomains.size() > 1 + OTHER_ADDRESSES ? ", ..." : "")
          .append(")");
    }
    return html.toString();
  }

  /**
   * Where to send mail for {@code inbox}: its address at the first served domain whose mail goes to
   * shared inboxes, with a copy button ({@code /static/page.js} shows it where the browser may
   * write to the clipboard), then its addresses at the others (the first {@value
   * #OTHER_ADDRESSES}); a private inbox's address is its name; with every domain served, the name
   * at any of them. "" if no served domain delivers to it.
   */
  private String addresses(InboxName inbox) {
    List<String> addresses =
        inbox.domain() != null
            ? List.of(inbox.value())
            : publicDomains.stream().map(domain -> inbox.value() + "@" + domain).toList();
    if (addresses.isEmpty()) {
      return everyDomain
          ? ("<p class=\"addresses\">Mail to <strong class=\"address\">%s</strong> at any domain"
                  + " this server takes mail for lands here.</p>\n")
              .formatted(Html.isolated(inbox.value()))
          : "";
    }
    String first = addresses.getFirst();
    StringBuilder html =
        new StringBuilder("<p class=\"addresses\">Mail to <strong class=\"address\">")
            .append(Html.isolated(first))
            .append("</strong> <button type=\"button\" class=\"copy\" data-copy=\"")
            .append(escape(first))
            .append("\" aria-label=\"Copy the address\" hidden>Copy</button> lands here");
    List<String> others = addresses.subList(1, addresses.size());
    for (int i = 0; i < Math.min(others.size(), OTHER_ADDRESSES); i++) {
      html.append(i == 0 ? ", as does mail to " : ", ").append(Html.isolated(others.get(i)));
    }
    if (others.size() > OTHER_ADDRESSES) {
      html.append(" and to %d more domains".formatted(others.size() - OTHER_ADDRESSES));
    }
    return html.append(".</p>\n").toString();
  }

  /** The most addresses (or domains) an inbox page (or the home page) lists after the first. */
  private static final int OTHER_ADDRESSES = 5;

  /** The inbox's name as a URL path segment: percent-encoded UTF-8 where it is not ASCII. */
  static String urlName(InboxName name) {
    return URLEncoder.encode(name.value(), StandardCharsets.UTF_8);
  }

  private void goToInbox(Context ctx) {
    String typed = Objects.requireNonNullElse(QueryParameters.optional(ctx, "name"), "").strip();
    InboxName name = inboxNamed(ctx, typed);
    if (name != null) {
      ctx.redirect("/inbox/" + urlName(name), HttpStatus.SEE_OTHER);
    }
  }

  /**
   * The inbox {@code typed} names (a name or an address), or null once the request is answered: 400
   * with the home page's form again, holding what was typed, and {@link #NAME_RULE} (the API
   * answers the checker's precise message instead).
   */
  private InboxName inboxNamed(Context ctx, String typed) {
    try {
      return access.privateDomains().inboxNamed(typed);
    } catch (IllegalArgumentException e) {
      String what =
          typed.isEmpty()
              ? "Type the name of an inbox."
              : "&ldquo;"
                  + Html.isolated(HeaderCut.cut(typed, HeaderCut.LISTING))
                  + "&rdquo;"
                  + " is not an inbox name.";
      ctx.status(400).html(homePage(typed, what + " " + escape(NAME_RULE)));
      return null;
    }
  }

  /**
   * {@code /inbox/{name}}: the newest page, an older one ({@code ?cursor=}, with a link back to the
   * newest) or what a search found ({@code ?q=}: {@link MailReader#searchInbox}, as the API's
   * search, up to {@value InboxApi#MAX_LIMIT} messages, with a link back to the whole inbox and,
   * when more match, one to the older matches: {@code ?q=&cursor=}, as the API continues it). Only
   * the newest page takes live mail into its list ({@code /static/inbox.js}); an older page and a
   * search only announce it, with their {@code #live} link to the newest mail.
   */
  private void inbox(Context ctx) {
    InboxName name = inboxNamed(ctx, ctx.pathParam("name"));
    if (name == null) {
      return;
    }
    access.require(ctx, name);
    String query = QueryParameters.optional(ctx, "q");
    query = query == null || query.isBlank() ? null : query.strip();
    String cursor = QueryParameters.optional(ctx, "cursor");
    String inboxPath = "/inbox/" + urlName(name);
    List<MessageSummary> messages;
    String nextPage = null; // the older page's path, if there is one
    String listNote; // what the list is, above it; "" for none
    String emptyNote; // the sentence in place of an empty list
    if (query != null) {
      MailReader.SearchPage found =
          reader.searchInbox(ctx, name, query, InboxApi.MAX_LIMIT, cursor);
      messages = found.messages();
      String q = "?q=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
      nextPage =
          found.nextCursor() == null
              ? null
              : inboxPath
                  + q
                  + "&cursor="
                  + URLEncoder.encode(found.nextCursor(), StandardCharsets.UTF_8);
      listNote = searchNote(query, messages.size(), found.searched());
      emptyNote =
          "No mail matches &ldquo;%s&rdquo;%s."
              .formatted(
                  Html.isolated(HeaderCut.cut(query, HeaderCut.LISTING)),
                  searchedNote(found.searched()));
    } else {
      InboxPage page = store.list(name, InboxApi.DEFAULT_LIMIT, cursor);
      messages = page.messages();
      nextPage =
          page.nextCursor()
              .map(c -> inboxPath + "?cursor=" + URLEncoder.encode(c, StandardCharsets.UTF_8))
              .orElse(null);
      listNote = "";
      emptyNote = cursor == null ? "No mail here yet." : "No mail here older than that.";
    }
    boolean newest = query == null && cursor == null;
    // the #live note of a page inbox.js does not add live mail to, and its way to the newest
    String frozenNote = query != null ? "Search results." : "Older mail.";
    String newestText = query != null ? "Whole inbox" : "Newest mail";
    Instant now = Instant.now();
    StringBuilder body = new StringBuilder();
    body.append(
        """
        <section class="inbox" data-inbox="%1$s" data-events="/api/v1/inboxes/%2$s/events"\
        %3$s>
        <h1>Inbox <span class="inbox-name">%1$s</span></h1>
        %5$s<p id="live" class="live" role="status" aria-live="polite">%4$s</p>
        """
            .formatted(
                escape(name.value()),
                escape(urlName(name)),
                newest ? "" : " data-older=\"true\" data-note=\"%s\"".formatted(frozenNote),
                newest
                    ? "New mail appears here without reloading."
                    : "%s <a href=\"%s\">%s</a>"
                        .formatted(frozenNote, escape(inboxPath), newestText),
                addresses(name)));
    if (name.domain() != null) {
      body.append(
          "<form class=\"sign-out\" method=\"post\" action=\"/session/end\">"
              + "<button type=\"submit\">Forget my token</button></form>\n");
    }
    body.append(searchForm(inboxPath, query)).append(listNote);
    body.append("<ol id=\"messages\" class=\"messages\">\n");
    for (MessageSummary summary : messages) {
      body.append(row(summary, now));
    }
    body.append("</ol>\n");
    if (messages.isEmpty()) {
      body.append("<p id=\"empty\" class=\"empty\">%s</p>\n".formatted(emptyNote));
    }
    if (!newest || nextPage != null) {
      body.append("<nav class=\"pages\" aria-label=\"More mail\">");
      if (!newest) {
        body.append(
            "<a class=\"newest\" href=\"%s\">%s</a>".formatted(escape(inboxPath), newestText));
      }
      if (nextPage != null) {
        body.append(newest ? "" : " ")
            .append(
                "<a class=\"older\" href=\"%s\">%s</a>"
                    .formatted(escape(nextPage), query != null ? "Older matches" : "Older mail"));
      }
      body.append("</nav>\n");
    }
    body.append("</section>\n");
    ctx.html(Html.page("Inbox " + name.value(), body.toString(), "rows.js", "inbox.js", "page.js"));
  }

  /**
   * The search box of an inbox page: a GET form to the page itself, holding {@code query} (null for
   * none).
   */
  private static String searchForm(String inboxPath, String query) {
    return """
        <form class="search" role="search" method="get" action="%s">
        <label for="q" class="visually-hidden">Search this inbox</label>
        <div class="row">
        <input id="q" name="q" type="search" value="%s" placeholder="Subject, sender or text"
               autocomplete="off" spellcheck="false">
        <button type="submit">Search</button>
        </div>
        </form>
        """
        .formatted(escape(inboxPath), escape(query));
  }

  /**
   * The sentence above what a search found: how many messages match {@code query}, "" if none do
   * (the empty list says so).
   */
  private static String searchNote(String query, int found, int searched) {
    if (found == 0) {
      return "";
    }
    String what =
        found == InboxApi.MAX_LIMIT
            ? "The newest %d messages that match".formatted(found)
            : found == 1 ? "1 message matches" : found + " messages match";
    return "<p class=\"search-note\">%s &ldquo;%s&rdquo;%s.</p>\n"
        .formatted(
            what, Html.isolated(HeaderCut.cut(query, HeaderCut.LISTING)), searchedNote(searched));
  }

  /** " among the newest 1000 messages" if the search stopped there, else "". */
  private static String searchedNote(int searched) {
    return searched >= InboxApi.MAX_SEARCHED
        ? " among the newest %d messages".formatted(InboxApi.MAX_SEARCHED)
        : "";
  }

  /**
   * One list entry, its age titled with the exact time in UTC ({@code /static/page.js} makes it the
   * reader's time); {@code /static/inbox.js} builds the same markup for live mail.
   */
  private static String row(MessageSummary summary, Instant now) {
    return """
        <li class="message" data-id="%1$s"><a href="/message/%1$s">\
        <span class="from">%2$s</span> <span class="subject">%3$s</span> \
        <time datetime="%4$s" title="%5$s">%6$s</time>%7$s</a></li>
        """
        .formatted(
            escape(summary.id().value()),
            Html.isolated(HeaderCut.cut(sender(summary), HeaderCut.LISTING)),
            Html.isolated(HeaderCut.cut(subject(summary), HeaderCut.LISTING)),
            escape(summary.receivedAt().toString()),
            escape(RECEIVED.format(summary.receivedAt())),
            escape(age(summary.receivedAt(), now)),
            SpamHtml.listed(summary.verdict()));
  }

  /** "just now", "5 min ago", "3 h ago", "2 d ago". */
  static String age(Instant then, Instant now) {
    long seconds = Math.max(0, Duration.between(then, now).toSeconds());
    if (seconds < 60) {
      return "just now";
    }
    if (seconds < 3600) {
      return seconds / 60 + " min ago";
    }
    if (seconds < 86400) {
      return seconds / 3600 + " h ago";
    }
    return seconds / 86400 + " d ago";
  }

  private void message(Context ctx) {
    OpenedMessage opened = open(ctx);
    MessageSummary summary = opened.summary();
    DecodedMail mail = opened.mail();
    StringBuilder body = new StringBuilder();
    body.append(meta(summary, mail, subjectHtml(summary)));
    if (HeaderCut.isCut(summary.subject(), HeaderCut.MESSAGE)
        || HeaderCut.isCut(sender(summary), HeaderCut.MESSAGE)) {
      body.append(cutNote(summary.id(), "Long header values are cut here"));
    }
    // deleting takes a second click, on the button that "Delete" opens
    body.append(
        """
        <div class="actions">
        <a class="button" href="/api/v1/messages/%1$s/raw" download>Raw source</a>
        <details class="delete"><summary class="button danger">Delete</summary>
        <form method="post" action="/message/%1$s/delete">\
        <span>Delete it for everyone who reads this inbox?</span> \
        <button type="submit" class="danger">Delete for good</button></form>
        </details>
        </div>
        """
            .formatted(escape(summary.id().value())));
    body.append(invitation(mail));
    // mail with HTML shows it as designed first, its text version folded below it
    if (opened.safeHtml().isEmpty()) {
      body.append("<section class=\"text-view\"><h2>Text</h2>\n")
          .append(textOf(summary.id(), mail))
          .append("</section>\n");
    } else {
      body.append(
          htmlView(
              summary.id(),
              MailHtmlSanitizer.hasRemoteImages(opened.safeHtml()),
              "1".equals(QueryParameters.optional(ctx, "images")),
              textCutNote(summary.id(), mail)));
      if (!mail.text().isEmpty()) {
        body.append("<details class=\"text-view\"><summary>Text version</summary>\n")
            .append(textOf(summary.id(), mail))
            .append("</details>\n");
      }
    }
    body.append(SpamHtml.why(summary.verdict(), scanner.explain(mail.scanParts())));
    body.append(codesAndLinks(mail));
    body.append(attachments(summary.id(), mail));
    body.append(headers(summary.id(), mail));
    body.append("</article>\n");
    ctx.html(
        Html.page(HeaderCut.cut(subject(summary), HeaderCut.LISTING), body.toString(), "page.js"));
  }

  /**
   * The message's text with the model's terms marked ("(this message has no text)" if it has none),
   * then a {@link #textCutNote} if the decoder cut it.
   */
  private String textOf(MessageId id, DecodedMail mail) {
    // each line is laid out in the direction of its first letter (burnbox.css: unicode-bidi)
    return "<pre class=\"text\" dir=\"auto\">"
        + (mail.text().isEmpty()
            ? "(this message has no text)"
            : SpamHtml.marked(mail.text(), scanner.highlight(mail.text(), Part.BODY)))
        + "</pre>\n"
        + textCutNote(id, mail);
  }

  /**
   * The subject as the message page's heading shows it, cut to {@link HeaderCut#MESSAGE}
   * characters, without bidirectional controls (as {@link Html#isolated}), with the model's subject
   * terms marked.
   */
  private String subjectHtml(MessageSummary summary) {
    if (summary.subject().isEmpty()) {
      return escape(subject(summary));
    }
    String subject = Html.withoutBidiControls(HeaderCut.cut(summary.subject(), HeaderCut.MESSAGE));
    return SpamHtml.marked(subject, scanner.highlight(subject, Part.SUBJECT));
  }

  /** A note that something shown above or below was cut, with a link to the whole raw source. */
  private static String cutNote(MessageId id, String what) {
    return "<p class=\"cut\">%s; the <a href=\"/api/v1/messages/%s/raw\" download>raw source</a>"
            .formatted(escape(what), escape(id.value()))
        + " has the message whole.</p>\n";
  }

  /**
   * A {@link #cutNote} saying that the decoder cut the message's text and HTML at its budget, for
   * the end of the text and HTML views; "" if nothing was cut.
   */
  static String textCutNote(MessageId id, DecodedMail mail) {
    OptionalLong cut = mail.textCutAt();
    return cut.isEmpty()
        ? ""
        : cutNote(id, "This message's text and HTML were cut at " + size(cut.getAsLong()));
  }

  /** "4 MiB", "512 KiB" or "1000 bytes". */
  private static String size(long bytes) {
    if (bytes > 0 && bytes % (1024 * 1024) == 0) {
      return bytes / (1024 * 1024) + " MiB";
    }
    return bytes > 0 && bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
  }

  private static String meta(MessageSummary summary, DecodedMail mail, String subjectHtml) {
    String badge = SpamHtml.badge(summary.verdict());
    String spam =
        badge.isEmpty() ? "" : "<dt>Spam</dt><dd>" + badge + " <a href=\"#why\">why?</a></dd>\n";
    return """
        <nav class="back"><a href="/inbox/%8$s">&larr; Inbox %1$s</a></nav>
        <article class="mail">
        <h1 class="subject"><bdi>%2$s</bdi></h1>
        <dl class="meta">
        <dt>From</dt><dd class="from">%3$s</dd>
        <dt>To</dt><dd class="to">%4$s</dd>
        <dt>Received</dt><dd><time class="exact" datetime="%5$s" title="%6$s">%6$s</time></dd>
        %7$s</dl>
        """
        .formatted(
            escape(summary.inbox().value()),
            subjectHtml,
            Html.isolated(HeaderCut.cut(sender(summary), HeaderCut.MESSAGE)),
            Html.isolated(recipients(summary, mail)),
            escape(summary.receivedAt().toString()),
            escape(RECEIVED.format(summary.receivedAt())),
            spam,
            escape(urlName(summary.inbox())));
  }

  /** The To line: the To header's addresses (or the inbox), cut to {@link HeaderCut#MESSAGE}. */
  private static String recipients(MessageSummary summary, DecodedMail mail) {
    if (mail.to().isEmpty()) {
      return summary.inbox().value();
    }
    StringBuilder to = new StringBuilder();
    for (String address : mail.to()) {
      if (to.length() > HeaderCut.MESSAGE) {
        break;
      }
      to.append(to.isEmpty() ? "" : ", ").append(HeaderCut.cut(address, HeaderCut.MESSAGE));
    }
    return HeaderCut.cut(to.toString(), HeaderCut.MESSAGE);
  }

  /**
   * The sandboxed frame showing {@code /message/{id}/html}, the link that toggles images if the
   * HTML has {@code remoteImages}, and {@code cutNote} (HTML, "" for none) after the frame.
   */
  private static String htmlView(
      MessageId messageId, boolean remoteImages, boolean images, String cutNote) {
    String id = escape(messageId.value());
    String toggle =
        images
            ? "Remote images are shown. <a href=\"/message/%s#html\">Hide images</a>"
            : "Remote images are blocked."
                + " <a id=\"show-images\" href=\"/message/%s?images=1#html\">Show images</a>";
    return """
        <section class="html-view" id="html"><h2>HTML</h2>
        %2$s<iframe class="mail-html" title="HTML version of the message" src="/message/%1$s/html%3$s"
                sandbox="allow-popups allow-popups-to-escape-sandbox" \
        referrerpolicy="no-referrer"></iframe>
        %4$s</section>
        """
        .formatted(
            id,
            remoteImages ? "<p class=\"images\">" + toggle.formatted(id) + "</p>\n" : "",
            images ? "?images=1" : "",
            cutNote);
  }

  /** An event's time as the invitation box writes it in UTC: {@code 2026-03-16 09:00 UTC}. */
  private static final DateTimeFormatter EVENT_UTC =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** An event's time in no zone known: {@code 2026-03-16 10:00}, as the invite wrote it. */
  private static final DateTimeFormatter EVENT_LOCAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT);

  /**
   * The box that shows the events of the mail's calendar part (an invite), near the top of its
   * page: headed "Invitation", "Cancelled event" (METHOD:CANCEL) or as its method says, then each
   * event's title, time, how it repeats, place and organizer, every value escaped and isolated (the
   * words of how it repeats are this server's: escaped only); "" if the mail has no events. Times
   * are in UTC in the received time's markup, which {@code /static/page.js} shows in the reader's
   * zone, with the zone the invite named beside them.
   */
  private static String invitation(DecodedMail mail) {
    List<CalendarEvent> events = mail.events();
    if (events.isEmpty()) {
      return "";
    }
    StringBuilder html =
        new StringBuilder("<section class=\"invitation\" id=\"invitation\"><h2>")
            .append(calendarHeading(events.getFirst().method()))
            .append("</h2>\n");
    for (CalendarEvent event : events) {
      html.append("<dl class=\"event\">\n<dt>Event</dt><dd class=\"summary\">")
          .append(event.summary().isEmpty() ? "(no title)" : Html.isolated(event.summary()))
          .append("</dd>\n<dt>When</dt><dd class=\"when\">")
          .append(when(event))
          .append("</dd>\n");
      if (!event.repeats().isEmpty()) {
        html.append("<dt>Repeats</dt><dd class=\"repeats\">")
            .append(escape(event.repeats()))
            .append("</dd>\n");
      }
      if (!event.location().isEmpty()) {
        html.append("<dt>Where</dt><dd class=\"location\">")
            .append(Html.isolated(event.location()))
            .append("</dd>\n");
      }
      String organizer = organizer(event);
      if (!organizer.isEmpty()) {
        html.append("<dt>Organizer</dt><dd class=\"organizer\">")
            .append(Html.isolated(organizer))
            .append("</dd>\n");
      }
      html.append("</dl>\n");
    }
    return html.append("</section>\n").toString();
  }

  /** What a calendar of {@code method} is, for the heading of the invitation box. */
  private static String calendarHeading(String method) {
    return switch (method) {
      case "REQUEST" -> "Invitation";
      case "CANCEL" -> "Cancelled event";
      case "REPLY" -> "Reply to an invitation";
      case "COUNTER" -> "New time proposed";
      default -> "Calendar event";
    };
  }

  /**
   * When an event is, as HTML: its days for an all-day event (the invite's end is the day after its
   * last); else its start and end, each in UTC if the invite placed it in a zone known here or as
   * written if not, and which zone the invite named.
   */
  private static String when(CalendarEvent event) {
    if (event.start().isEmpty()) {
      return "(no readable time)";
    }
    CalendarEvent.Time start = event.start().get();
    if (start.allDay()) {
      LocalDate last = event.end().map(end -> end.date().minusDays(1)).orElse(start.date());
      return escape(start.date().toString())
          + (last.isAfter(start.date()) ? " to " + escape(last.toString()) : "")
          + ", all day";
    }
    StringBuilder html = new StringBuilder(time(start));
    event.end().ifPresent(end -> html.append(" to ").append(time(end)));
    if (start.instant().isEmpty()) {
      html.append(
          start.zone().isEmpty()
              ? " <span class=\"zone\">(local time: the invite names no time zone)</span>"
              : " <span class=\"zone\">(time zone %s, not known here)</span>"
                  .formatted(Html.isolated(start.zone())));
    } else if (!start.zone().isEmpty()) {
      html.append(
          " <span class=\"zone\">(the invite's time zone: %s)</span>"
              .formatted(Html.isolated(start.zone())));
    }
    return html.toString();
  }

  /** A time of an event as HTML: in UTC, marked up for page.js, if its moment is known. */
  private static String time(CalendarEvent.Time time) {
    if (time.instant().isEmpty()) {
      return escape(EVENT_LOCAL.format(time.local()));
    }
    Instant instant = time.instant().get();
    String utc = escape(EVENT_UTC.format(instant));
    return "<time class=\"exact\" datetime=\"%s\" title=\"%s\">%s</time>"
        .formatted(escape(instant.toString()), utc, utc);
  }

  /** {@code Name <address>}, or the one of them the event gives; "" for no organizer. */
  private static String organizer(CalendarEvent event) {
    String name = event.organizerName();
    String email = event.organizerEmail();
    if (name.isEmpty() || email.isEmpty()) {
      return name + email;
    }
    return name + " <" + email + ">";
  }

  /** The likely one-time codes and the links of the mail, as the API lists them; "" if none. */
  private static String codesAndLinks(DecodedMail mail) {
    List<VerificationCodes.Code> codes = VerificationCodes.of(mail);
    List<MailLinks.Link> links = MailLinks.of(mail);
    if (codes.isEmpty() && links.isEmpty()) {
      return "";
    }
    StringBuilder html =
        new StringBuilder("<section class=\"extracted\" id=\"codes\"><h2>Codes and links</h2>\n");
    if (!codes.isEmpty()) {
      html.append("<ul class=\"codes\">\n");
      for (VerificationCodes.Code code : codes) {
        html.append(
            "<li><code>%s</code> <span class=\"context\">%s</span></li>\n"
                .formatted(escape(code.code()), Html.isolated(code.context())));
      }
      html.append("</ul>\n");
    }
    if (!links.isEmpty()) {
      html.append("<ol class=\"links\">\n");
      for (MailLinks.Link link : links.subList(0, Math.min(links.size(), MAX_LINKS_SHOWN))) {
        html.append(
            ("<li><a href=\"%s\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">%s</a>"
                    + " <span class=\"url\">%s</span> <span class=\"part\">%s</span></li>\n")
                .formatted(
                    escape(link.url()),
                    Html.isolated(
                        HeaderCut.cut(link.text().isEmpty() ? link.url() : link.text(), 120)),
                    Html.isolated(HeaderCut.cut(link.url(), 200)),
                    link.part()));
      }
      html.append("</ol>\n");
    }
    return html.append("</section>\n").toString();
  }

  /** Links listed on the message page; the API lists all. */
  private static final int MAX_LINKS_SHOWN = 100;

  /**
   * The attachments, each under the name its download gets ({@link DownloadNames#safe}: no path, no
   * control or bidirectional override characters to disguise its extension).
   */
  private static String attachments(MessageId id, DecodedMail mail) {
    if (mail.attachments().isEmpty()) {
      return "";
    }
    StringBuilder html = new StringBuilder("<section class=\"attachments\"><h2>Attachments</h2>\n");
    html.append("<ul>\n");
    for (AttachmentInfo a : mail.attachments()) {
      html.append(
          "<li><a href=\"%s\" download>%s</a> <span class=\"type\">%s, %d bytes</span></li>\n"
              .formatted(
                  escape(MailJson.attachmentPath(id.value(), a.index())),
                  Html.isolated(DownloadNames.safe(a.filename(), a.contentType(), a.index())),
                  Html.isolated(HeaderCut.cut(a.contentType(), HeaderCut.LISTING)),
                  a.size()));
    }
    return html.append("</ul></section>\n").toString();
  }

  /**
   * The header table: the first {@link HeaderCut#MESSAGE_HEADERS} fields, each value cut to {@link
   * HeaderCut#MESSAGE} characters, and a pointer to the raw source if anything was left out.
   */
  private static String headers(MessageId id, DecodedMail mail) {
    StringBuilder html =
        new StringBuilder("<details class=\"headers\"><summary>Headers</summary>\n<table>\n");
    List<MailHeader> all = mail.headers();
    boolean cut = all.size() > HeaderCut.MESSAGE_HEADERS;
    for (MailHeader header : all.subList(0, Math.min(all.size(), HeaderCut.MESSAGE_HEADERS))) {
      cut |= HeaderCut.isCut(header.name(), HeaderCut.LISTING);
      cut |= HeaderCut.isCut(header.value(), HeaderCut.MESSAGE);
      html.append(
          "<tr><th scope=\"row\">%s</th><td>%s</td></tr>\n"
              .formatted(
                  Html.isolated(HeaderCut.cut(header.name(), HeaderCut.LISTING)),
                  Html.isolated(HeaderCut.cut(header.value(), HeaderCut.MESSAGE))));
    }
    html.append("</table>\n");
    if (cut) {
      html.append(
          cutNote(
              id,
              all.size() > HeaderCut.MESSAGE_HEADERS
                  ? "Only the first %d of %d header fields are shown, long values cut"
                      .formatted(HeaderCut.MESSAGE_HEADERS, all.size())
                  : "Long header values are cut here"));
    }
    return html.append("</details>\n").toString();
  }

  private static String subject(MessageSummary summary) {
    return summary.subject().isEmpty() ? "(no subject)" : summary.subject();
  }

  /** The From header, else the envelope sender, else "(unknown sender)" (a bounce without From). */
  private static String sender(MessageSummary summary) {
    if (!summary.from().isEmpty()) {
      return summary.from();
    }
    return summary.envelopeSender().isEmpty() ? "(unknown sender)" : summary.envelopeSender();
  }

  private void mailHtml(Context ctx) {
    OpenedMessage opened = open(ctx);
    SecurityHeaders.mailView(
        ctx,
        "1".equals(QueryParameters.optional(ctx, "images")),
        opened.inlineImages() ? InlineImages.pathPrefix(opened.summary().id().value()) : "");
    ctx.html(
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>message</title></head>
        <body>
        %s
        </body></html>
        """
            .formatted(opened.safeHtml()));
  }

  /**
   * {@code /message/{id}/inline/{n}}: part {@code n} of the message as an image, for its HTML's
   * {@code cid:} URLs, if it is of a {@link InlineImages#RASTER_TYPES raster type}: served as that
   * type, inline, never sniffed; 404 for any other part. Its bytes are held against the read budget
   * like every read of a message. A private inbox's image opens with a token like any of its reads
   * or with the signature of its URL ({@link InlineImageSigner}), as the sandboxed mail view sends
   * no token cookie.
   */
  private void inlineImage(Context ctx) {
    int index = InboxApi.attachmentIndex(ctx.pathParam("n"));
    MessageId id = InboxApi.id(ctx);
    StoredMessage stored = reader.stored(ctx, id).orElseThrow(InboxApi::noSuchMessage);
    if (!signer.allows(
        id.value(),
        index,
        QueryParameters.optional(ctx, "exp"),
        QueryParameters.optional(ctx, "sig"))) {
      access.require(ctx, stored.summary().inbox());
    }
    Attachment part =
        reader
            .attachment(stored, index)
            .filter(a -> InlineImages.isRaster(a.contentType()))
            .orElseThrow(
                () -> new NotFoundResponse("no inline image " + index + " in this message"));
    ctx.contentType(part.contentType());
    ctx.header("Content-Disposition", "inline");
    ctx.result(part.content());
  }

  private void delete(Context ctx) {
    MessageId id = InboxApi.id(ctx);
    MessageSummary summary = reader.stored(ctx, id).orElseThrow(InboxApi::noSuchMessage).summary();
    access.require(ctx, summary.inbox());
    store.delete(id);
    ctx.redirect("/inbox/" + urlName(summary.inbox()), HttpStatus.SEE_OTHER);
  }

  /** The message of the {@code id} path parameter, decoded, once the request may read it. */
  private OpenedMessage open(Context ctx) {
    OpenedMessage opened = reader.open(ctx, InboxApi.id(ctx)).orElseThrow(InboxApi::noSuchMessage);
    access.require(ctx, opened.summary().inbox());
    return opened;
  }
}
