package dev.burnbox.server.mime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Collects what a MIME walk finds, within {@link MimeLimits}, into a {@link DecodedMail}; the walk
 * itself belongs to the parser. Also captures the bytes of one wanted attachment. One per decode;
 * not thread-safe.
 *
 * <p>Public so that another MIME parser (the benchmarks' Jakarta Mail and mime4j-dom decoders)
 * fills a {@link DecodedMail} by the same rules and limits as {@link MailDecoder}: the same header
 * decoding, text budget, part count and problem list.
 */
public final class DecodedMailBuilder {
  static final int MAX_PROBLEMS = 20;

  private final MimeLimits limits;
  private final int wantedAttachment;
  private final List<MailHeader> headers = new ArrayList<>();
  private final Gathered text = new Gathered();
  private final Gathered html = new Gathered();
  // what the spam scan reads: null while it is text and html, until a text part is a file
  private Gathered scannedText;
  private Gathered scannedHtml;
  private boolean hasMessageText; // a text or HTML part (or raw text) came as the message's text
  private final List<AttachmentInfo> attachments = new ArrayList<>();
  private List<CalendarEvent> events; // those of the first calendar part, null until one is read
  private final Set<String> problems = new LinkedHashSet<>();
  private String subject;
  private String from;
  private final List<String> to = new ArrayList<>();
  private Optional<Instant> date = Optional.empty();
  private long budget;
  private final int scratchSize; // the first size of scratch
  private byte[] scratch; // a text or HTML part's bytes as read (readUpToBudget); null until then
  private int parts;
  private boolean malformed;
  private Attachment captured;

  /**
   * @param wantedAttachment the index of the attachment whose bytes {@link #captured()} returns, or
   *     -1 for none
   * @param rawLength the raw message's length, or 0 if unknown: no text part decodes to more bytes
   *     than its encoded form, so a part's bytes are read into an array of this size (at most 64
   *     KiB) that seldom has to grow
   */
  DecodedMailBuilder(MimeLimits limits, int wantedAttachment, int rawLength) {
    this.limits = limits;
    this.wantedAttachment = wantedAttachment;
    this.budget = limits.maxDecodedBytes();
    this.scratchSize = rawLength > 0 ? Math.max(256, Math.min(rawLength, 64 << 10)) : 4096;
  }

  /** A builder within {@code limits} that keeps no attachment's bytes. */
  public DecodedMailBuilder(MimeLimits limits) {
    this(limits, -1, 0);
  }

  /** Adds a top-level header field; {@code rawValue} is unfolded but not yet decoded. */
  public void header(String name, String rawValue) {
    headers.add(new MailHeader(name, HeaderText.decodeEncodedWords(rawValue)));
    if (subject == null && name.equalsIgnoreCase("Subject")) {
      subject = headers.getLast().value();
    } else if (from == null && name.equalsIgnoreCase("From")) {
      from = String.join(", ", HeaderText.addresses(rawValue));
    } else if (name.equalsIgnoreCase("To")) {
      to.addAll(HeaderText.addresses(rawValue));
    } else if (date.isEmpty() && name.equalsIgnoreCase("Date")) {
      date = HeaderText.date(rawValue);
    }
  }

  /** Counts one more body part; false once {@link MimeLimits#maxParts()} is passed. */
  public boolean countPart() {
    if (++parts > limits.maxParts()) {
      problem("more than " + limits.maxParts() + " parts: the rest are ignored");
      return false;
    }
    return true;
  }

  /** Reads a text/plain body, decoded with its declared charset (null: sniffed). */
  public void text(InputStream body, String charsetName) throws IOException {
    append(text, scannedText, body, charsetName);
  }

  /** Reads a text/html body. */
  public void html(InputStream body, String charsetName) throws IOException {
    append(html, scannedHtml, body, charsetName);
  }

  /** Whether a text or HTML part came before as the message's own text, shown as its body. */
  boolean hasMessageText() {
    return hasMessageText;
  }

  /**
   * Lists a text/plain or text/html part that is a file (it names one) as an attachment, and reads
   * its text, decoded with its charset and within the text budget, into what the spam scan reads
   * ({@link DecodedMail#scannedText()} or {@link DecodedMail#scannedHtml()}) but not into the text
   * shown: the scan reads such a part as it read it when it was shown as body text.
   */
  void textFile(
      String filename, String contentType, String contentId, InputStream body, String charsetName)
      throws IOException {
    if (attachments.size() == wantedAttachment) {
      attachment(filename, contentType, contentId, body); // its bytes: no text is built
      return;
    }
    if (scannedText == null) { // the first: what the scan read so far is the text shown
      scannedText = new Gathered();
      scannedText.addLines(text.value());
      scannedHtml = new Gathered();
      scannedHtml.addLines(html.value());
    }
    Charset charset = charset(charsetName);
    int length = readUpToBudget(body);
    budget -= length;
    long rest = body.transferTo(OutputStream.nullOutputStream());
    if (budget == 0 && rest > 0) {
      problem(DecodedMail.textCutProblem(limits.maxDecodedBytes()));
    }
    if (length > 0) {
      String decoded = TextCharsets.decode(scratch, 0, length, charset);
      (contentType.equals("text/html") ? scannedHtml : scannedText).add(decoded);
    }
    list(filename, contentType, length + rest, contentId);
  }

  /** Appends raw text (of a message that could not be walked) to the text parts. */
  public void rawText(byte[] bytes, int offset, int length) {
    int kept = (int) Math.min(length, budget);
    if (kept < length) {
      problem(DecodedMail.textCutProblem(limits.maxDecodedBytes()));
    }
    budget -= kept;
    hasMessageText = true;
    add(text, scannedText, TextCharsets.decodeUtf8OrWindows1252(bytes, offset, kept));
  }

  /**
   * Reads a part of the message's text into {@code shown}, and into {@code scanned} too unless it
   * is null (the scan then reads what is shown).
   */
  private void append(Gathered shown, Gathered scanned, InputStream body, String charsetName)
      throws IOException {
    hasMessageText = true;
    Charset charset = charset(charsetName);
    int length = readUpToBudget(body);
    budget -= length;
    if (budget == 0 && body.read() >= 0) {
      problem(DecodedMail.textCutProblem(limits.maxDecodedBytes()));
    }
    if (length > 0) {
      add(shown, scanned, TextCharsets.decode(scratch, 0, length, charset));
    }
  }

  private static void add(Gathered shown, Gathered scanned, String part) {
    String lines = part.replace("\r\n", "\n"); // the part itself if it has no CRLF
    shown.addLines(lines);
    if (scanned != null) {
      scanned.addLines(lines);
    }
  }

  /** The charset named {@code charsetName}, or null to sniff (said as a problem if unknown). */
  private Charset charset(String charsetName) {
    Charset charset = TextCharsets.lookup(charsetName);
    if (charset == null && !TextCharsets.isKnown(charsetName)) {
      problem("unknown charset \"" + charsetName + "\": read as UTF-8 or windows-1252");
    }
    return charset;
  }

  /**
   * Reads {@code body} into {@link #scratch} until its end or the budget, whichever comes first;
   * returns how many bytes. One array for all of a message's parts, grown by doubling: where {@code
   * InputStream.readNBytes} takes a 16 KiB buffer and then a copy for each part.
   */
  private int readUpToBudget(InputStream body) throws IOException {
    int max = (int) Math.min(Integer.MAX_VALUE - 16, budget);
    if (scratch == null) {
      scratch = new byte[scratchSize];
    }
    int length = 0;
    while (length < max) {
      if (length == scratch.length) {
        scratch = Arrays.copyOf(scratch, (int) Math.min(max, 2L * scratch.length));
      }
      int n = body.read(scratch, length, Math.min(scratch.length, max) - length);
      if (n < 0) {
        break;
      }
      length += n;
    }
    return length;
  }

  /**
   * Lists an attachment; reads {@code body} to measure it, or to keep it if it is the wanted one.
   */
  public void attachment(String filename, String contentType, InputStream body) throws IOException {
    attachment(filename, contentType, "", body);
  }

  /**
   * Lists an attachment with its Content-ID ({@code <logo@x>} or {@code logo@x}; null or "" for
   * none); reads {@code body} to measure it, or to keep it if it is the wanted one.
   */
  public void attachment(String filename, String contentType, String contentId, InputStream body)
      throws IOException {
    attachment(filename, contentType, contentId, null, body);
  }

  /**
   * Lists an attachment with its Content-ID as {@link #attachment(String, String, String,
   * InputStream)} does; {@code charsetName} is its Content-Type's charset parameter (null for
   * none), in which a calendar part's events are read.
   */
  public void attachment(
      String filename, String contentType, String contentId, String charsetName, InputStream body)
      throws IOException {
    if (attachments.size() == wantedAttachment) {
      byte[] content = body.readAllBytes();
      AttachmentInfo info = list(filename, contentType, content.length, contentId);
      captured = new Attachment(info.filename(), info.contentType(), content);
    } else if (events == null
        && wantedAttachment < 0 // a download needs the bytes of one part, not the events
        && CalendarReader.isCalendar(
            contentType == null ? null : contentType.toLowerCase(Locale.ROOT), filename)) {
      calendar(filename, contentType, contentId, charset(charsetName), body);
    } else {
      list(filename, contentType, body.transferTo(OutputStream.nullOutputStream()), contentId);
    }
  }

  /**
   * Lists the message's first calendar part as an attachment, and reads the events of its first
   * {@link CalendarReader#MAX_BYTES} bytes ({@link DecodedMail#events()}), written in {@code
   * charset} (null: UTF-8 if valid, else windows-1252).
   */
  private void calendar(
      String filename, String contentType, String contentId, Charset charset, InputStream body)
      throws IOException {
    byte[] read = body.readNBytes(CalendarReader.MAX_BYTES);
    long rest = body.transferTo(OutputStream.nullOutputStream());
    if (rest > 0) {
      problem(
          "calendar part beyond " + CalendarReader.MAX_BYTES + " bytes was not read for events");
    }
    try {
      events = CalendarReader.events(read, read.length, charset, this::problem);
    } catch (RuntimeException e) { // a bug of the reader's: the rest of the mail still shows
      events = List.of();
      problem("unreadable calendar part: " + e);
    }
    list(filename, contentType, read.length + rest, contentId);
  }

  /** Lists the next attachment: its file name decoded, its type in lower case. */
  private AttachmentInfo list(String filename, String contentType, long size, String contentId) {
    String type = contentType == null ? "application/octet-stream" : contentType;
    String name = filename == null ? "" : HeaderText.decodeEncodedWords(filename).strip();
    AttachmentInfo info =
        new AttachmentInfo(
            attachments.size(),
            name,
            type.toLowerCase(Locale.ROOT),
            size,
            bareContentId(contentId));
    attachments.add(info);
    return info;
  }

  /** {@code <logo@x>} as {@code logo@x}: the Content-ID as a {@code cid:} URL names it. */
  static String bareContentId(String contentId) {
    String id = contentId == null ? "" : contentId.strip();
    if (id.length() >= 2 && id.startsWith("<") && id.endsWith(">")) {
      id = id.substring(1, id.length() - 1).strip();
    }
    return id;
  }

  /** Records a problem; the first {@value #MAX_PROBLEMS} distinct ones are kept. */
  public void problem(String description) {
    if (problems.size() < MAX_PROBLEMS) {
      problems.add(description);
    }
  }

  /** Marks the message as one whose structure could not be followed. */
  public void malformed(String description) {
    malformed = true;
    problem(description);
  }

  /** Problems recorded so far. */
  int problemCount() {
    return problems.size();
  }

  /**
   * Adds what another message's body decoded to (kept from its {@link #build()}): its text and HTML
   * as they are, not copied, when no text or HTML came before them.
   */
  void body(DecodedBody body) {
    text.addLines(body.text());
    html.addLines(body.html());
    if (body.scannedText() != body.text() || body.scannedHtml() != body.html()) {
      scannedText = new Gathered();
      scannedText.addLines(body.scannedText());
      scannedHtml = new Gathered();
      scannedHtml.addLines(body.scannedHtml());
    }
    attachments.addAll(body.attachments());
    if (events == null && !body.events().isEmpty()) {
      events = body.events();
    }
  }

  /**
   * One kind of a message's text (plain or HTML), gathered part by part: CRLF line ends made LF (as
   * quoted-printable decoding gives them), a line feed between two parts unless the first ends in
   * one. A message's only part stays the string it was decoded to, or was kept as for a copy: no
   * builder and no copy out of one. A builder comes with a second part.
   */
  private static final class Gathered {
    private String only = ""; // all there is while joined is null
    private StringBuilder joined;

    /** Adds a decoded part. */
    void add(String part) {
      addLines(part.replace("\r\n", "\n")); // the part itself if it has no CRLF
    }

    /** Adds text whose line ends are LF already (a kept body's), as it is. */
    void addLines(String lines) {
      if (joined == null && only.isEmpty()) {
        only = lines;
        return;
      }
      if (joined == null) {
        joined = new StringBuilder(only);
      }
      joined.ensureCapacity(joined.length() + 1 + lines.length()); // one array, not a doubling
      if (!joined.isEmpty() && joined.charAt(joined.length() - 1) != '\n') {
        joined.append('\n');
      }
      joined.append(lines);
    }

    String value() {
      return joined == null ? only : joined.toString();
    }
  }

  /**
   * What a message's body decoded to, apart from its header; its scanned text and HTML are the very
   * strings of its text and HTML when the scan reads what is shown.
   */
  record DecodedBody(
      String text,
      String html,
      String scannedText,
      String scannedHtml,
      List<AttachmentInfo> attachments,
      List<CalendarEvent> events) {
    /** What {@code mail}'s body decoded to. */
    static DecodedBody of(DecodedMail mail) {
      return new DecodedBody(
          mail.text(),
          mail.html(),
          mail.scannedText(),
          mail.scannedHtml(),
          mail.attachments(),
          mail.events());
    }

    /** About what it holds, in chars, for weighing a cache of them. */
    int weight() {
      int scanned =
          (scannedText == text ? 0 : scannedText.length())
              + (scannedHtml == html ? 0 : scannedHtml.length());
      int calendar = events.stream().mapToInt(CalendarEvent::weight).sum();
      return text.length() + html.length() + scanned + 64 * attachments.size() + calendar;
    }
  }

  /** The wanted attachment, if the walk met it. */
  Optional<Attachment> captured() {
    return Optional.ofNullable(captured);
  }

  /** The decoded mail: everything added so far. */
  public DecodedMail build() {
    String shownText = text.value();
    String shownHtml = html.value();
    return new DecodedMail(
        subject == null ? "" : subject,
        from == null ? "" : from,
        to,
        date,
        headers,
        shownText,
        shownHtml,
        scannedText == null ? shownText : scannedText.value(),
        scannedHtml == null ? shownHtml : scannedHtml.value(),
        attachments,
        events == null ? List.of() : events,
        malformed,
        List.copyOf(problems));
  }
}
