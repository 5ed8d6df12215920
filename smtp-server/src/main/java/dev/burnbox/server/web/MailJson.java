package dev.burnbox.server.web;

import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.server.mime.AttachmentInfo;
import dev.burnbox.server.mime.CalendarEvent;
import dev.burnbox.server.mime.MailHeader;
import dev.burnbox.server.mime.MailLinks;
import dev.burnbox.server.mime.VerificationCodes;
import dev.burnbox.server.pipeline.SpamExplanation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON bodies of the API, as maps in documented field order (see {@code /api/openapi.json}).
 * Instants are ISO-8601 strings in UTC. Header text from a mail is bounded as {@link HeaderCut}
 * says: a listing entry's sender and subject by {@link HeaderCut#LISTING}, a message's header
 * values by {@link HeaderCut#MESSAGE} and its header fields by {@link HeaderCut#MESSAGE_HEADERS},
 * so no body grows with what a sender puts in a header.
 */
final class MailJson {
  private MailJson() {}

  /**
   * An inbox entry: what a listing and a new-mail event carry. No body; sender and subject cut to
   * {@link HeaderCut#LISTING} characters.
   *
   * @param threshold the spam threshold in use now, reported next to the stored verdict
   */
  static Map<String, Object> summary(MessageSummary s, double threshold) {
    return summary(s, threshold, HeaderCut.LISTING);
  }

  private static Map<String, Object> summary(MessageSummary s, double threshold, int cut) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("id", s.id().value());
    json.put("from", HeaderCut.cut(s.from(), cut));
    json.put("to", s.inbox().value());
    json.put("envelopeSender", HeaderCut.cut(s.envelopeSender(), cut));
    json.put("subject", HeaderCut.cut(s.subject(), cut));
    json.put("receivedAt", s.receivedAt().toString());
    json.put("size", s.size());
    Map<String, Object> spam = verdict(s.verdict(), threshold);
    spam.put("terms", s.verdict().terms());
    json.put("spam", spam);
    return json;
  }

  /**
   * The most terms a message's explanation lists: a long mail hits a thousand of the model's
   * n-grams, most of them weighing next to nothing; they come strongest first.
   */
  static final int MAX_TERMS = 200;

  /**
   * A whole message: the summary's fields, then the decoded content, its attachments and the events
   * of its calendar part (an invite's; see {@link #event}). Its {@code spam} holds the verdict
   * stored at delivery, with the terms hit as {@code why} (the model in use now) explains them
   * instead of the stored top terms: the {@link #MAX_TERMS} strongest, and {@code termsOmitted}
   * says how many more. Header values (sender, subject, recipients, each header field) are cut to
   * {@link HeaderCut#MESSAGE} characters, and only the first {@link HeaderCut#MESSAGE_HEADERS}
   * header fields and recipients are listed; {@code headersOmitted} and {@code recipientsOmitted}
   * say how many more there are.
   */
  static Map<String, Object> message(OpenedMessage m, SpamExplanation why) {
    Map<String, Object> json = summary(m.summary(), why.threshold(), HeaderCut.MESSAGE);
    Map<String, Object> spam = verdict(m.summary().verdict(), why.threshold());
    List<Map<String, Object>> terms = new ArrayList<>();
    for (SpamExplanation.TermHit hit :
        why.terms().subList(0, Math.min(MAX_TERMS, why.terms().size()))) {
      Map<String, Object> term = new LinkedHashMap<>();
      term.put("term", hit.term());
      term.put("part", hit.part());
      term.put("count", hit.count());
      term.put("weight", hit.weight());
      term.put("contribution", hit.contribution());
      term.put("word", hit.word());
      terms.add(term);
    }
    spam.put("terms", terms);
    spam.put("termsOmitted", Math.max(0, why.terms().size() - MAX_TERMS));
    json.put("spam", spam);
    List<String> recipients = m.mail().to();
    json.put(
        "recipients",
        recipients.stream()
            .limit(HeaderCut.MESSAGE_HEADERS)
            .map(to -> HeaderCut.cut(to, HeaderCut.MESSAGE))
            .toList());
    json.put("recipientsOmitted", Math.max(0, recipients.size() - HeaderCut.MESSAGE_HEADERS));
    json.put("date", m.mail().date().map(Object::toString).orElse(null));
    json.put("text", m.mail().text());
    json.put("html", m.safeHtml());
    json.put("htmlText", m.mail().htmlText());
    List<Map<String, Object>> headers = new ArrayList<>();
    List<MailHeader> all = m.mail().headers();
    for (MailHeader header : all.subList(0, Math.min(all.size(), HeaderCut.MESSAGE_HEADERS))) {
      Map<String, Object> h = new LinkedHashMap<>();
      h.put("name", HeaderCut.cut(header.name(), HeaderCut.LISTING));
      h.put("value", HeaderCut.cut(header.value(), HeaderCut.MESSAGE));
      headers.add(h);
    }
    json.put("headers", headers);
    json.put("headersOmitted", Math.max(0, all.size() - HeaderCut.MESSAGE_HEADERS));
    List<Map<String, Object>> attachments = new ArrayList<>();
    for (AttachmentInfo a : m.mail().attachments()) {
      Map<String, Object> att = new LinkedHashMap<>();
      att.put("index", a.index());
      att.put("name", HeaderCut.cut(a.filename(), HeaderCut.MESSAGE));
      att.put("type", HeaderCut.cut(a.contentType(), HeaderCut.LISTING));
      att.put("size", a.size());
      att.put("url", attachmentPath(m.summary().id().value(), a.index()));
      attachments.add(att);
    }
    json.put("attachments", attachments);
    json.put("events", m.mail().events().stream().map(MailJson::event).toList());
    return json;
  }

  /**
   * A calendar event of the message (an invite's), in documented field order: times as {@link
   * CalendarEvent.Time#iso()} writes them, null when absent or unreadable; {@code timeZone} the
   * start's TZID as written, null for none; {@code repeats} how it repeats, in words, null if it
   * does not; {@code organizer} null for none.
   */
  private static Map<String, Object> event(CalendarEvent event) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("method", event.method());
    json.put("summary", event.summary());
    json.put("start", event.start().map(CalendarEvent.Time::iso).orElse(null));
    json.put("end", event.end().map(CalendarEvent.Time::iso).orElse(null));
    json.put("allDay", event.allDay());
    String zone = event.start().map(CalendarEvent.Time::zone).orElse("");
    json.put("timeZone", zone.isEmpty() ? null : zone);
    json.put("repeats", event.repeats().isEmpty() ? null : event.repeats());
    json.put("location", event.location());
    Map<String, Object> organizer = null;
    if (!event.organizerName().isEmpty() || !event.organizerEmail().isEmpty()) {
      organizer = new LinkedHashMap<>();
      organizer.put("name", event.organizerName());
      organizer.put("email", event.organizerEmail());
    }
    json.put("organizer", organizer);
    return json;
  }

  /** A message's links as the API and the webhooks list them: url, text, part, in order. */
  static List<Map<String, Object>> links(List<MailLinks.Link> links) {
    List<Map<String, Object>> json = new ArrayList<>(links.size());
    for (MailLinks.Link link : links) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("url", link.url());
      entry.put("text", link.text());
      entry.put("part", link.part());
      json.add(entry);
    }
    return json;
  }

  /**
   * A message's likely one-time codes as the API and the webhooks list them: code (as written),
   * value (what a form asks for), context, best first.
   */
  static List<Map<String, Object>> codes(List<VerificationCodes.Code> codes) {
    List<Map<String, Object>> json = new ArrayList<>(codes.size());
    for (VerificationCodes.Code code : codes) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("code", code.code());
      entry.put("value", code.value());
      entry.put("context", code.context());
      json.add(entry);
    }
    return json;
  }

  /** The verdict's fields common to a listing and a message, in documented order. */
  private static Map<String, Object> verdict(SpamVerdict verdict, double threshold) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("probability", verdict.probability());
    json.put("threshold", threshold);
    json.put("spam", verdict.spam());
    json.put("score", verdict.score());
    return json;
  }

  /** Where attachment {@code index} of message {@code id} is downloaded. */
  static String attachmentPath(String id, int index) {
    return "/api/v1/messages/" + id + "/attachments/" + index;
  }
}
