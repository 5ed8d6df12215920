package dev.burnbox.server.mime;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A received message decoded for the spam scanner and the web inbox. Immutable; no component is
 * null. Built by {@link MailDecoder#decode(byte[])}, which returns one for any input.
 *
 * @param subject the decoded subject, "" if absent
 * @param from the decoded sender, e.g. {@code Ann Example <ann@example.com>}, "" if absent
 * @param to the decoded recipients of the To header, one entry per address
 * @param date the Date header, if present and readable
 * @param headers every top-level header field, in order, unfolded and decoded
 * @param text the text/plain parts that are the message's text, each decoded with its charset, each
 *     starting on a new line; line ends are LF
 * @param html the text/html parts that are the message's text, as decoded HTML, each starting on a
 *     new line; unsanitized: the web layer must sanitize it before showing it
 * @param scannedText what the spam scan reads of the text/plain parts: those of {@code text} and
 *     the named text parts listed as attachments but not attached by {@code Content-Disposition:
 *     attachment} (see {@link MailDecoder}), in the message's order; the very string of {@code
 *     text} when there are none
 * @param scannedHtml the same of the text/html parts: {@code html} and the named HTML parts
 * @param attachments the parts that are files rather than message text, in order
 * @param events the events of the message's first calendar part (a {@code text/calendar} or {@code
 *     .ics} part, inline or attached, which stays listed in {@code attachments}): what an invite
 *     says, at most {@value CalendarReader#MAX_EVENTS}; empty if it has none
 * @param malformed true if the MIME structure could not be followed and the content comes from the
 *     raw text instead
 * @param problems what was wrong with the message or which limit cut it short, for logs and tests;
 *     at most the first 20 distinct ones
 */
public record DecodedMail(
    String subject,
    String from,
    List<String> to,
    Optional<Instant> date,
    List<MailHeader> headers,
    String text,
    String html,
    String scannedText,
    String scannedHtml,
    List<AttachmentInfo> attachments,
    List<CalendarEvent> events,
    boolean malformed,
    List<String> problems) {

  public DecodedMail {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(from, "from");
    to = List.copyOf(to);
    Objects.requireNonNull(date, "date");
    headers = List.copyOf(headers);
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(html, "html");
    Objects.requireNonNull(scannedText, "scannedText");
    Objects.requireNonNull(scannedHtml, "scannedHtml");
    attachments = List.copyOf(attachments);
    events = List.copyOf(events);
    problems = List.copyOf(problems);
  }

  /**
   * The problem recorded when the decoded-text budget ({@code --mime-max-decoded-size}, shared by
   * the text and the HTML) of {@code budget} bytes ran out; {@link #textCutAt} reads it back.
   */
  static String textCutProblem(long budget) {
    return "decoded text beyond " + budget + " bytes was cut";
  }

  private static final Pattern TEXT_CUT_PROBLEM =
      Pattern.compile("decoded text beyond (\\d+) bytes was cut");

  /** The budget in bytes at which the decoder cut the text and HTML, if it cut them. */
  public OptionalLong textCutAt() {
    for (String problem : problems) {
      Matcher cut = TEXT_CUT_PROBLEM.matcher(problem);
      if (cut.matches()) {
        return OptionalLong.of(Long.parseLong(cut.group(1)));
      }
    }
    return OptionalLong.empty();
  }

  /**
   * What the spam matcher scans (and inbox search and verification codes read): the subject, a
   * newline, the scanned text parts ({@link #scannedText()}), then the visible text of the scanned
   * HTML parts (tags, comments, scripts and styles dropped, entities resolved, block elements
   * ending lines so that words do not run together). Zero-width characters and soft hyphens, which
   * spam uses to split words, are removed. Computed on each call.
   */
  public String scanText() {
    String text = scannedText;
    String html = scannedHtml;
    StringBuilder scan =
        new StringBuilder(subject.length() + text.length() + html.length() / 2 + 2);
    scan.append(subject).append('\n').append(text);
    if (!html.isEmpty()) {
      if (!text.isEmpty()) {
        scan.append('\n');
      }
      HtmlText.appendVisibleText(html, scan);
    }
    return HtmlText.withoutInvisibleCharacters(scan);
  }

  /**
   * The visible text of the HTML parts (tags, comments, scripts and styles dropped, entities
   * resolved, block elements ending lines), "" without HTML: what a reader sees of HTML-only mail,
   * for clients that read it as text. Computed on each call.
   */
  public String htmlText() {
    if (html.isEmpty()) {
      return "";
    }
    StringBuilder visible = new StringBuilder(html.length() / 2);
    HtmlText.appendVisibleText(html, visible);
    return HtmlText.withoutInvisibleCharacters(visible);
  }

  /**
   * The text of each part the spam model scores, as decoded (not yet normalised): the subject; the
   * body, the scanned text parts then the visible text of the scanned HTML parts (as in {@link
   * #scanText()}); and the markup of the scanned HTML parts, which a reader does not see (tag and
   * attribute names, presentation values, link and image hosts). Computed on each call; parses the
   * HTML once.
   */
  public ScanParts scanParts() {
    String text = scannedText;
    String html = scannedHtml;
    if (html.isEmpty()) {
      return new ScanParts(subject, text, ""); // no HTML to read: the body is the text as it is
    }
    StringBuilder body = new StringBuilder(text.length() + html.length() / 2 + 1).append(text);
    StringBuilder markup = new StringBuilder(html.isEmpty() ? 0 : html.length() / 8);
    if (!html.isEmpty()) {
      if (!text.isEmpty()) {
        body.append('\n');
      }
      HtmlText.appendTextAndMarkup(html, body, markup);
    }
    return new ScanParts(subject, body.toString(), markup.toString());
  }

  /**
   * The texts of a mail that the spam model scores, one per part.
   *
   * @param subject the decoded subject
   * @param body the scanned text parts, then the visible text of the scanned HTML parts: what a
   *     reader sees of the message's text and of its named text parts listed as attachments
   * @param markup what the HTML says that a reader does not see
   */
  public record ScanParts(String subject, String body, String markup) {
    public ScanParts {
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(body, "body");
      Objects.requireNonNull(markup, "markup");
    }
  }
}
