package dev.burnbox.server.web;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxPage;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.StoredMessage;
import dev.burnbox.server.mime.Attachment;
import dev.burnbox.server.mime.MailDecoder;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Reads messages from the store for the API and the pages: decoded, with their HTML sanitized.
 * Empty results mean the message is not (or no longer) in the store. Thread-safe.
 */
final class MailReader {
  private final InboxStore store;
  private final MailDecoder decoder;
  private final MailHtmlSanitizer sanitizer;
  private final WebReadBudget budget;
  private final InlineImageSigner signer;

  MailReader(
      InboxStore store,
      MailDecoder decoder,
      MailHtmlSanitizer sanitizer,
      WebReadBudget budget,
      InlineImageSigner signer) {
    this.budget = Objects.requireNonNull(budget, "budget");
    this.signer = Objects.requireNonNull(signer, "signer");
    this.store = Objects.requireNonNull(store, "store");
    this.decoder = Objects.requireNonNull(decoder, "decoder");
    this.sanitizer = Objects.requireNonNull(sanitizer, "sanitizer");
  }

  /**
   * The message decoded, with its HTML sanitized (its {@code cid:} images made this server's URLs
   * for them, signed in a private inbox: {@link InlineImageSigner}), held against the read budget
   * until {@code ctx}'s response is complete.
   *
   * @throws WebReadBudget.Busy if the budget has no room for it
   */
  Optional<OpenedMessage> open(Context ctx, MessageId id) {
    return store
        .get(id)
        .map(
            stored -> {
              budget.holdUntilAnswered(ctx, stored.raw().length);
              var mail = decoder.decode(stored.raw());
              var inline =
                  InlineImages.urls(
                      mail.attachments(), index -> signer.url(stored.summary(), index));
              return new OpenedMessage(
                  stored.summary(),
                  mail,
                  sanitizer.sanitize(mail.html(), inline),
                  !inline.isEmpty());
            });
  }

  /**
   * Whether the text of message {@code id} (text parts and the HTML's visible text) contains {@code
   * query}, its bytes held against the read budget while it is decoded and searched; false if the
   * message is gone.
   */
  private boolean textContains(Context ctx, MessageId id, Query query) {
    return store
        .get(id)
        .map(
            stored ->
                budget.whileReading(
                    ctx,
                    stored.raw().length,
                    () -> query.foundIn(decoder.decode(stored.raw()).scanText())))
        .orElse(false);
  }

  /**
   * Whether the subject, sender or text (text parts and the HTML's visible text) of {@code
   * summary}'s message contains {@code query}, case-insensitively; decodes the message only when
   * the headers do not match. False if the message is gone.
   */
  private boolean matches(Context ctx, MessageSummary summary, Query query) {
    return query.foundIn(summary.subject())
        || query.foundIn(summary.from())
        || query.foundIn(summary.envelopeSender())
        || textContains(ctx, summary.id(), query);
  }

  /**
   * The first {@code limit} of {@code newestFirst}'s first {@code maxSearched} messages that {@link
   * #matches} {@code lowerCaseQuery}, and how many were searched.
   */
  Found search(
      Context ctx,
      Stream<MessageSummary> newestFirst,
      String lowerCaseQuery,
      int maxSearched,
      int limit) {
    AtomicInteger searched = new AtomicInteger();
    Query query = Query.of(lowerCaseQuery); // its table once for every text searched
    List<MessageSummary> found =
        newestFirst
            .limit(maxSearched)
            .peek(summary -> searched.incrementAndGet())
            .filter(summary -> matches(ctx, summary, query))
            .limit(limit)
            .toList();
    return new Found(found, searched.get());
  }

  /**
   * The search of an inbox, as the API's {@code ?q=} and the inbox page's search box do it: the
   * first {@code limit} messages, newest first, that {@link #matches} {@code query} (stripped),
   * case-insensitively, among the next {@value InboxApi#MAX_SEARCHED} of the inbox from {@code
   * cursor} (a listing cursor; null for the newest). Looks on for one match more: when it finds
   * one, {@link SearchPage#nextCursor} is the listing cursor right after the last message returned,
   * from which the search goes on; else it is null.
   *
   * @throws IllegalArgumentException if {@code cursor} is malformed
   */
  SearchPage searchInbox(Context ctx, InboxName inbox, String query, int limit, String cursor) {
    Query lowerCase = Query.of(query.strip().toLowerCase(Locale.ROOT));
    List<MessageSummary> found = new ArrayList<>();
    int searched = 0;
    String pageCursor = cursor; // where the page being read starts
    String lastFoundPage = null; // where the page of the last message found starts
    int lastFoundIndex = -1; // its index in that page
    boolean more = false;
    pages:
    while (searched < InboxApi.MAX_SEARCHED) {
      InboxPage page = store.list(inbox, InboxApi.MAX_LIMIT, pageCursor);
      List<MessageSummary> messages = page.messages();
      for (int i = 0; i < messages.size() && searched < InboxApi.MAX_SEARCHED; i++) {
        searched++;
        if (matches(ctx, messages.get(i), lowerCase)) {
          if (found.size() == limit) {
            more = true;
            break pages;
          }
          found.add(messages.get(i));
          lastFoundPage = pageCursor;
          lastFoundIndex = i;
        }
      }
      if (page.nextCursor().isEmpty()) {
        break;
      }
      pageCursor = page.nextCursor().get();
    }
    String next =
        more ? cursorAfter(inbox, lastFoundPage, lastFoundIndex, found.getLast().id()) : null;
    return new SearchPage(found, searched, next);
  }

  /**
   * The listing cursor right after message {@code id}, found at {@code index} of the page that
   * starts at {@code pageCursor}. Messages deleted meanwhile only move it nearer the page's start;
   * if {@code id} itself is gone, the cursor after as many messages as it had before it.
   */
  private String cursorAfter(InboxName inbox, String pageCursor, int index, MessageId id) {
    InboxPage upTo = store.list(inbox, index + 1, pageCursor);
    List<MessageSummary> listed = upTo.messages();
    int at = -1;
    for (int i = 0; i < listed.size(); i++) {
      if (listed.get(i).id().equals(id)) {
        at = i;
      }
    }
    if (at >= 0 && at < listed.size() - 1) {
      upTo = store.list(inbox, at + 1, pageCursor);
    }
    return upTo.nextCursor().orElse(null);
  }

  /**
   * What {@link #searchInbox} found, newest first, how many messages it read, and the cursor that
   * continues the search (null when no other message it read matched).
   */
  record SearchPage(List<MessageSummary> messages, int searched, String nextCursor) {}

  /** What {@link #search} found, newest first, and how many messages it read to find it. */
  record Found(List<MessageSummary> messages, int searched) {}

  /**
   * {@code text.contains(query)} in time linear in the two however they repeat themselves
   * (Knuth-Morris-Pratt), where {@link String#contains} compares up to the whole query at each char
   * of the text: one mail of a million letters searched for 7,500 took 5 s.
   */
  static boolean containsLinear(String text, String query) {
    return Query.of(query).foundInExactly(text);
  }

  /**
   * A lower-case query with its Knuth-Morris-Pratt table, made once for a whole search.
   *
   * @param text the query
   * @param border {@code border[i]}: the length of the longest proper prefix of {@code text[0, i]}
   *     that is also its suffix
   */
  private record Query(String text, int[] border) {
    static Query of(String text) {
      int[] border = new int[text.length()];
      for (int i = 1, k = 0; i < text.length(); i++) {
        while (k > 0 && text.charAt(i) != text.charAt(k)) {
          k = border[k - 1];
        }
        k += text.charAt(i) == text.charAt(k) ? 1 : 0;
        border[i] = k;
      }
      return new Query(text, border);
    }

    /** Whether {@code searched}, lower-cased, contains the query. */
    boolean foundIn(String searched) {
      return foundInExactly(searched.toLowerCase(Locale.ROOT));
    }

    /** Whether {@code searched} contains the query, in one pass over it. */
    boolean foundInExactly(String searched) {
      if (text.isEmpty()) {
        return true;
      }
      for (int i = 0, matched = 0; i < searched.length(); i++) {
        while (matched > 0 && searched.charAt(i) != text.charAt(matched)) {
          matched = border[matched - 1];
        }
        matched += searched.charAt(i) == text.charAt(matched) ? 1 : 0;
        if (matched == text.length()) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * The message exactly as received, held against the read budget until {@code ctx}'s response is
   * complete.
   *
   * @throws WebReadBudget.Busy if the budget has no room for it
   */
  Optional<StoredMessage> stored(Context ctx, MessageId id) {
    Optional<StoredMessage> stored = store.get(id);
    stored.ifPresent(message -> budget.holdUntilAnswered(ctx, message.raw().length));
    return stored;
  }

  /** Attachment {@code index} (from 0) of {@code stored}; empty if it has no such attachment. */
  Optional<Attachment> attachment(StoredMessage stored, int index) {
    return decoder.attachment(stored.raw(), index);
  }
}
