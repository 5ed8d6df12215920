package dev.burnbox.server.mime;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.burnbox.server.mime.DecodedMailBuilder.DecodedBody;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;
import java.util.zip.CRC32C;
import org.apache.james.mime4j.MimeException;
import org.apache.james.mime4j.codec.DecodeMonitor;
import org.apache.james.mime4j.field.LenientFieldParser;
import org.apache.james.mime4j.message.DefaultBodyDescriptorBuilder;
import org.apache.james.mime4j.message.MaximalBodyDescriptor;
import org.apache.james.mime4j.stream.EntityState;
import org.apache.james.mime4j.stream.Event;
import org.apache.james.mime4j.stream.Field;
import org.apache.james.mime4j.stream.MimeConfig;
import org.apache.james.mime4j.stream.MimeTokenStream;
import org.apache.james.mime4j.stream.RecursionMode;
import org.apache.james.mime4j.util.ByteSequence;

/**
 * Decodes raw received messages (RFC 5322 + MIME) into {@link DecodedMail}: what the spam scanner
 * scans and the web inbox shows. Built on mime4j's streaming parser (chosen over Jakarta Mail by
 * measurement: docs/benchmarks.md, "MIME decoding").
 *
 * <p>Guarantees: {@link #decode(byte[])} returns a result for any bytes and never throws (short of
 * the JVM running out of memory); the result respects the decoder's {@link MimeLimits}.
 * Thread-safe: share one instance.
 *
 * <p>A campaign's copies are decoded once: the decoder keeps what the bodies of recent messages
 * decoded to (at most {@value #RECENT_WEIGHT} bytes and chars in all, bodies of at most {@value
 * #RECENT_BODY_MAX} bytes), keyed by the body's bytes and the top-level {@code Content-*} and
 * {@code MIME-Version} fields that say how to read them. A message whose body and those fields
 * equal a kept one's decodes its header alone and takes the kept text, HTML and attachments: the
 * same result a full decode gives, since they depend on nothing else. Only bodies that decoded
 * without a problem are kept, and a copy whose header has a problem is decoded in full.
 *
 * <p>Which parts are what: text/plain and text/html parts not marked {@code Content-Disposition:
 * attachment} are message text, except that, as mail clients show them, one that names a file (a
 * {@code filename} in its Content-Disposition, {@code inline} or none, or a {@code name} in its
 * Content-Type) is an attachment under that name, unless it is the message's first text part or a
 * part of a multipart/alternative (forms of the message's text). Such a named text part's text is
 * not shown as the message's, but the spam scan reads it as before, where it stood among the text
 * parts ({@link DecodedMail#scannedText()}). Every other leaf part is an attachment, including
 * attached messages (message/rfc822), whose own text is also decoded into the text and HTML and
 * whose attachments are listed after it. The first calendar part (an invite: {@code text/calendar},
 * {@code application/ics} or a {@code .ics} file) is an attachment too, whose events are also read
 * ({@link DecodedMail#events()}, by {@link CalendarReader}).
 */
public final class MailDecoder {
  private static final MimeConfig PERMISSIVE =
      MimeConfig.custom()
          .setMaxLineLen(-1)
          .setMaxHeaderCount(-1)
          .setMaxHeaderLen(-1)
          .setMaxContentLen(-1)
          .build();

  /** The most bytes of raw message plus chars of decoded body the kept bodies weigh in all. */
  static final int RECENT_WEIGHT = 1 << 21;

  /** The longest body, in bytes, whose decoding is kept for its copies. */
  static final int RECENT_BODY_MAX = 1 << 16;

  private static final String NO_BLANK_LINE =
      "no blank line after the header: its first line that is not a header field starts the body";

  private static final String NO_BLANK_LINE_IN_PART =
      "no blank line after a body part's header: its first line that is not a header field starts"
          + " the part's body";

  private final MimeLimits limits;
  private final LongAdder reusedBodies = new LongAdder();
  private final Cache<BodyKey, DecodedBody> recentBodies =
      Caffeine.newBuilder()
          .maximumWeight(RECENT_WEIGHT)
          .<BodyKey, DecodedBody>weigher((key, body) -> key.raw.length + body.weight())
          .executor(Runnable::run) // upkeep on the decoding thread, not the common pool
          .build();

  /** A decoder that keeps within {@code limits}. */
  public MailDecoder(MimeLimits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  /** A decoder with {@link MimeLimits#DEFAULTS}. */
  public static MailDecoder withDefaults() {
    return new MailDecoder(MimeLimits.DEFAULTS);
  }

  /**
   * Decodes {@code raw}. Never throws: when the MIME structure cannot be followed, the result is
   * built from the raw text, with {@link DecodedMail#malformed()} true and the reason in {@link
   * DecodedMail#problems()}. A header that no blank line ends, the message's or a body part's, ends
   * at its first line that is not a header field, which starts the body ({@link HeaderEnd}).
   */
  public DecodedMail decode(byte[] raw) {
    TopLevel top = new TopLevel(raw, true);
    PartHeaders parts = new PartHeaders();
    DecodedMail decoded = decode(raw, raw, top, parts, List.of());
    Separated separated = Separated.of(raw, top, parts);
    if (separated != null) { // rare: walk again with the blank lines the headers lack
      return decode(
          separated.message(),
          raw,
          new TopLevel(separated.message(), true),
          new PartHeaders(),
          separated.problems());
    }
    return decoded;
  }

  /**
   * Decodes {@code message}, which is {@code raw} or {@code raw} made readable; {@code problems}
   * are ones found before (a message with a problem is neither kept nor a copy).
   */
  private DecodedMail decode(
      byte[] message, byte[] raw, TopLevel top, PartHeaders parts, List<String> problems) {
    DecodedMailBuilder mail = new DecodedMailBuilder(limits, -1, message.length);
    problems.forEach(mail::problem);
    try {
      walk(message, mail, 0, top, parts);
      boolean keep = top.key != null && !top.reused && mail.problemCount() == 0;
      DecodedMail decoded = mail.build();
      if (keep) { // the built mail's strings: not a second copy of the text and HTML
        recentBodies.put(top.key, DecodedBody.of(decoded));
      }
      return decoded;
    } catch (NoHeaderBlock e) {
      return RawMessage.decode(raw, limits, "no header fields: the whole message is read as text");
    } catch (IOException | MimeException | RuntimeException | StackOverflowError e) {
      return RawMessage.decode(raw, limits, "unreadable MIME structure: " + e);
    }
  }

  /** How many messages took a kept body instead of decoding their own. */
  public long reusedBodies() {
    return reusedBodies.sum();
  }

  /**
   * The decoded content, file name and type of attachment {@code index} (as numbered in {@link
   * DecodedMail#attachments()}) of {@code raw}, parsed again; empty if there is no such attachment.
   * Never throws.
   */
  public Optional<Attachment> attachment(byte[] raw, int index) {
    if (index < 0) {
      return Optional.empty();
    }
    TopLevel top = new TopLevel(raw, false);
    PartHeaders parts = new PartHeaders();
    Optional<Attachment> found = attachment(raw, index, top, parts);
    Separated separated = Separated.of(raw, top, parts);
    if (separated != null) { // numbered as decode() numbers them
      byte[] message = separated.message();
      return attachment(message, index, new TopLevel(message, false), new PartHeaders());
    }
    return found;
  }

  private Optional<Attachment> attachment(
      byte[] message, int index, TopLevel top, PartHeaders parts) {
    DecodedMailBuilder mail = new DecodedMailBuilder(limits, index, message.length);
    try {
      walk(message, mail, 0, top, parts); // the attachment's bytes: a full walk
    } catch (IOException | MimeException | RuntimeException | StackOverflowError e) {
      return Optional.empty();
    }
    return mail.captured();
  }

  /**
   * Walks {@code raw}: a whole message ({@code top} not null) or a part of one. A whole message
   * whose header walked without a problem and whose body is a kept one's stops there, with the kept
   * body added. What the walk learns of body parts' headers goes to {@code parts}.
   */
  private void walk(
      byte[] raw, DecodedMailBuilder mail, int baseDepth, TopLevel top, PartHeaders parts)
      throws IOException, MimeException {
    ProblemMonitor monitor = new ProblemMonitor(mail, top, parts);
    MimeTokenStream stream =
        new MimeTokenStream(
            PERMISSIVE,
            monitor,
            new DefaultBodyDescriptorBuilder(null, LenientFieldParser.getParser(), monitor));
    stream.setRecursionMode(RecursionMode.M_NO_RECURSE);
    stream.parse(new ByteArrayInputStream(raw));
    try {
      walk(stream, mail, baseDepth, top, parts);
      if (top != null && top.reused && !top.multipart) {
        // mime4j gives an entity's line buffer (4 KiB and a 1 KiB table) back to its per-thread
        // recycler only when the entity ends, and stop() does not end it: a copy whose kept body
        // was taken after its header would leave them to the collector. Past a single part's
        // header (at most RECENT_BODY_MAX bytes) the rest is one read to the end.
        monitor.mute();
        finish(stream);
      }
    } finally {
      stream.stop();
    }
  }

  /** Reads {@code stream} to its end, so that its entities end and give their buffers back. */
  private static void finish(MimeTokenStream stream) {
    try {
      for (EntityState s = stream.getState();
          s != EntityState.T_END_OF_STREAM;
          s = stream.next()) {}
    } catch (IOException | MimeException | RuntimeException e) {
      // the message is decoded already: what follows its header no longer matters
    }
  }

  private void walk(
      MimeTokenStream stream,
      DecodedMailBuilder mail,
      int baseDepth,
      TopLevel top,
      PartHeaders parts)
      throws IOException, MimeException {
    boolean inTopHeader = top != null;
    boolean sawHeader = false;
    int depth = baseDepth;
    String declaredType = "";
    ByteSequence contentType = null; // the raw fields that may name a part's file
    ByteSequence disposition = null;
    Deque<Multipart> multiparts = new ArrayDeque<>();
    for (EntityState state = stream.getState();
        state != EntityState.T_END_OF_STREAM;
        state = stream.next()) {
      switch (state) {
        case T_START_HEADER -> {
          declaredType = "";
          contentType = null;
          disposition = null;
        }
        case T_FIELD -> {
          sawHeader = true;
          Field field = stream.getField();
          if (inTopHeader) {
            mail.header(field.getName(), headerValue(field.getRaw()));
            top.field(field);
          }
          if (field.getName().equalsIgnoreCase("Content-Type")) {
            declaredType = field.getBody().strip().toLowerCase(Locale.ROOT);
            contentType = field.getRaw();
          } else if (field.getName().equalsIgnoreCase("Content-Disposition")) {
            disposition = field.getRaw();
          }
        }
        case T_END_HEADER -> {
          if (inTopHeader) {
            top.headerEnded = true;
          }
          if (inTopHeader && !sawHeader) {
            throw new NoHeaderBlock();
          }
          if (inTopHeader && mail.problemCount() == 0) {
            top.multipart = declaredType.startsWith("multipart/");
            DecodedBody known = top.lookUp(recentBodies);
            if (known != null) {
              reusedBodies.increment();
              mail.body(known);
              return;
            }
          }
          inTopHeader = false;
        }
        case T_START_MULTIPART -> {
          depth++;
          multiparts.push(
              new Multipart(
                  "multipart/alternative"
                      .equals(mediaType(stream.getBodyDescriptor().getMimeType()))));
          String boundary = stream.getBodyDescriptor().getBoundary();
          if (boundary != null) {
            parts.boundaries.add(boundary);
          }
        }
        case T_PREAMBLE -> multiparts.peek().preamble = stream.getInputStream().readNBytes(1 << 16);
        case T_START_BODYPART -> {
          multiparts.peek().parts++;
          if (!mail.countPart()) {
            return;
          }
        }
        case T_END_MULTIPART -> {
          depth--;
          Multipart multipart = multiparts.pop();
          if (multipart.parts == 0) {
            mail.malformed("multipart boundary never occurs: its content is read as text");
            mail.rawText(multipart.preamble, 0, multipart.preamble.length);
          }
        }
        case T_BODY -> {
          if (depth > limits.maxDepth()) {
            mail.problem("parts nested deeper than " + limits.maxDepth() + " levels were skipped");
          } else {
            Multipart parent = multiparts.peek();
            body(
                stream,
                mail,
                depth,
                declaredType,
                new FileNameFields(contentType, disposition),
                parent != null && parent.alternative,
                parts);
          }
        }
        default -> {}
      }
    }
  }

  private void body(
      MimeTokenStream stream,
      DecodedMailBuilder mail,
      int depth,
      String declaredType,
      FileNameFields fileNameFields,
      boolean alternative,
      PartHeaders parts)
      throws IOException {
    MaximalBodyDescriptor part = (MaximalBodyDescriptor) stream.getBodyDescriptor();
    String type = mediaType(part.getMimeType());
    String charset = part.getContentTypeParameters().get("charset");
    boolean attachment = "attachment".equalsIgnoreCase(part.getContentDispositionType());
    boolean text = type.equals("text/plain") || type.equals("text/html");
    if (declaredType.startsWith("multipart/") && !type.startsWith("multipart/")) {
      multipartWithoutBoundary(stream.getInputStream().readAllBytes(), mail, depth, parts);
    } else if (text && !attachment) {
      // the message's first text part, or one of alternative forms of it, is its text all the
      // same; after it, a text part that names a file is that file
      String fileName = alternative || !mail.hasMessageText() ? null : fileNameFields.fileName();
      if (fileName == null || fileName.isBlank()) {
        messageText(stream, mail, type, charset);
      } else {
        mail.textFile(fileName, type, part.getContentId(), stream.getDecodedInputStream(), charset);
      }
    } else if (type.equals("message/rfc822") || type.equals("message/global")) {
      byte[] message = stream.getDecodedInputStream().readAllBytes();
      mail.attachment(fileNameFields.fileName(), type, new ByteArrayInputStream(message));
      attachedMessage(message, mail, depth + 1, parts);
    } else {
      mail.attachment(
          fileNameFields.fileName(),
          type,
          part.getContentId(),
          charset,
          stream.getDecodedInputStream());
    }
  }

  /** Reads a text/plain or text/html part into the message's text. */
  private static void messageText(
      MimeTokenStream stream, DecodedMailBuilder mail, String type, String charset)
      throws IOException {
    if (type.equals("text/plain")) {
      mail.text(stream.getDecodedInputStream(), charset);
    } else {
      mail.html(stream.getDecodedInputStream(), charset);
    }
  }

  /**
   * The raw Content-Type and Content-Disposition fields of a part (either may be null), which name
   * its file. Decoded here rather than by mime4j, which decodes encoded words and RFC 2231 values
   * with charsets as Java names them (ISO-8859-1 as itself and gb2312 as GB2312, not as
   * windows-1252 and GBK as browsers read them; see {@link TextCharsets}) and keeps no undecodable
   * word as written.
   */
  private record FileNameFields(ByteSequence contentType, ByteSequence disposition) {
    /** The disposition's {@code filename}, else the type's {@code name}, decoded; or null. */
    String fileName() {
      String name =
          disposition == null ? null : HeaderText.parameter(headerValue(disposition), "filename");
      if (name == null || name.isBlank()) {
        name = contentType == null ? null : HeaderText.parameter(headerValue(contentType), "name");
      }
      return name;
    }
  }

  /**
   * Walks a multipart body whose Content-Type names no boundary with the boundary of its first
   * {@code --token} line, as mail clients do; without one, keeps the body as text (malformed).
   */
  private void multipartWithoutBoundary(
      byte[] body, DecodedMailBuilder mail, int depth, PartHeaders parts) throws IOException {
    String boundary = firstDelimiter(body);
    if (boundary == null) {
      mail.malformed("multipart without a boundary: its content is read as text");
      mail.rawText(body, 0, body.length);
      return;
    }
    mail.problem("multipart without a boundary: used \"" + boundary + "\" found in its body");
    byte[] header =
        ("Content-Type: multipart/mixed; boundary=\"" + boundary + "\"\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] multipart = Arrays.copyOf(header, header.length + body.length);
    System.arraycopy(body, 0, multipart, header.length, body.length);
    try {
      walk(multipart, mail, depth, null, parts);
    } catch (MimeException e) {
      mail.malformed("unreadable multipart without a boundary: " + e);
    }
  }

  /**
   * The token of the first line that looks like a MIME delimiter ({@code --token}) and is followed
   * by a Content- header line, or null.
   */
  private static String firstDelimiter(byte[] body) {
    String text = new String(body, StandardCharsets.ISO_8859_1);
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i + 1 < lines.length; i++) {
      String token = lines[i].strip();
      boolean delimiterLike = token.length() > 2 && token.length() <= 72 && token.startsWith("--");
      if (delimiterLike
          && lines[i + 1].regionMatches(true, 0, "Content-", 0, 8)
          && token.chars().allMatch(c -> c > ' ' && c < 127 && c != '"')) {
        return token.substring(2);
      }
    }
    return null;
  }

  private void attachedMessage(
      byte[] message, DecodedMailBuilder mail, int depth, PartHeaders parts) {
    if (depth > limits.maxDepth()) {
      mail.problem("parts nested deeper than " + limits.maxDepth() + " levels were skipped");
      return;
    }
    if (!mail.countPart()) {
      return;
    }
    try {
      walk(message, mail, depth, null, parts);
    } catch (IOException | MimeException | RuntimeException e) {
      mail.problem("unreadable attached message: " + e);
    }
  }

  /** The lower-case type/subtype, cut at white space ({@code text/plain charset=...} is seen). */
  private static String mediaType(String declared) {
    String type = declared.strip().toLowerCase(Locale.ROOT);
    for (int i = 0; i < type.length(); i++) {
      if (Character.isWhitespace(type.charAt(i)) || type.charAt(i) == ',') {
        return type.substring(0, i);
      }
    }
    return type;
  }

  /** The value of a raw header field: after the colon, UTF-8 if valid, unfolded. */
  public static String headerValue(ByteSequence raw) {
    byte[] bytes = raw.toByteArray();
    int colon = 0;
    while (colon < bytes.length && bytes[colon] != ':') {
      colon++;
    }
    int start = Math.min(colon + 1, bytes.length);
    return HeaderText.unfold(
        TextCharsets.decodeUtf8OrWindows1252(bytes, start, bytes.length - start));
  }

  /**
   * What a whole message's walk knows of its top level: the fields that say how to read its body,
   * collected as the walk meets them, and the key its body is kept under.
   */
  private static final class TopLevel {
    private final byte[] raw;
    private final boolean reuse;
    private final ByteArrayOutputStream bodyFields = new ByteArrayOutputStream();
    BodyKey key; // set at the end of the header, if the body may be kept or reused
    boolean reused;
    boolean multipart; // its declared type, set at the end of the header
    boolean headerEnded;
    boolean skippedHeaderLine; // mime4j skipped a line of the header that was not a field

    TopLevel(byte[] raw, boolean reuse) {
      this.raw = raw;
      this.reuse = reuse;
    }

    void field(Field field) {
      String name = field.getName();
      if (reuse
          && (name.regionMatches(true, 0, "Content-", 0, 8)
              || name.equalsIgnoreCase("MIME-Version"))) {
        bodyFields.writeBytes(field.getRaw().toByteArray());
        bodyFields.write('\n');
      }
    }

    /** The kept body of this message's body, if any; sets {@link #key} when it may be kept. */
    DecodedBody lookUp(Cache<BodyKey, DecodedBody> recent) {
      int bodyStart = reuse ? bodyStart(raw) : -1;
      if (bodyStart < 0 || raw.length - bodyStart > RECENT_BODY_MAX) {
        return null;
      }
      key = new BodyKey(bodyFields.toByteArray(), raw, bodyStart);
      DecodedBody known = recent.getIfPresent(key);
      reused = known != null;
      return known;
    }

    /** Just past the first empty line (LF or CRLF), where the header ends; -1 if there is none. */
    private static int bodyStart(byte[] raw) {
      for (int i = 0; i + 1 < raw.length; i++) {
        if (raw[i] == '\n') {
          if (raw[i + 1] == '\n') {
            return i + 2;
          }
          if (raw[i + 1] == '\r' && i + 2 < raw.length && raw[i + 2] == '\n') {
            return i + 3;
          }
        }
      }
      return -1;
    }
  }

  /**
   * A body as its message holds it ({@code raw} from {@code bodyStart}) with the fields that say
   * how to read it; equal when both are byte for byte, so a hash collision cannot share a body.
   */
  private static final class BodyKey {
    final byte[] fields;
    final byte[] raw;
    final int bodyStart;
    final int hash;

    BodyKey(byte[] fields, byte[] raw, int bodyStart) {
      this.fields = fields;
      this.raw = raw;
      this.bodyStart = bodyStart;
      CRC32C crc = new CRC32C();
      crc.update(fields);
      crc.update(raw, bodyStart, raw.length - bodyStart);
      this.hash = (int) crc.getValue();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof BodyKey other
          && hash == other.hash
          && Arrays.equals(fields, other.fields)
          && Arrays.equals(
              raw, bodyStart, raw.length, other.raw, other.bodyStart, other.raw.length);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /**
   * What the walks of one message learn of its body parts' headers: the boundaries of the
   * multiparts met (attached messages' too), and whether a part's header had a line mime4j skipped
   * as no header field, which takes the part's text with it.
   */
  private static final class PartHeaders {
    final Set<String> boundaries = new LinkedHashSet<>();
    boolean skippedLine;
  }

  /** A message with the blank lines its headers lack put in, and the problems that says. */
  private record Separated(byte[] message, List<String> problems) {
    /**
     * {@code raw} separated where its walk found a header that no blank line ends ({@link
     * HeaderEnd}), or null if the walk found none or there is no line to put one before.
     */
    static Separated of(byte[] raw, TopLevel top, PartHeaders parts) {
      if (!top.skippedHeaderLine && !parts.skippedLine) {
        return null; // nearly every mail: nothing to look for, on every decode
      }
      IntStream.Builder bodies = IntStream.builder(); // where the bodies start
      List<String> problems = new ArrayList<>();
      int body = top.skippedHeaderLine ? HeaderEnd.firstLineNotAField(raw) : -1;
      if (body >= 0) {
        bodies.add(body);
        problems.add(NO_BLANK_LINE);
      }
      int[] partBodies =
          parts.skippedLine
              ? HeaderEnd.firstLinesNotAFieldInParts(raw, parts.boundaries)
              : new int[0];
      if (partBodies.length > 0) {
        Arrays.stream(partBodies).forEach(bodies);
        problems.add(NO_BLANK_LINE_IN_PART);
      }
      int[] lines = bodies.build().sorted().distinct().toArray();
      return lines.length == 0
          ? null
          : new Separated(HeaderEnd.withLineBreaksBefore(raw, lines), problems);
    }
  }

  /** Thrown when the top-level message has no header field: it is not MIME at all. */
  private static final class NoHeaderBlock extends RuntimeException {
    NoHeaderBlock() {
      super(null, null, false, false);
    }
  }

  /**
   * A multipart being walked: whether it is multipart/alternative, its body parts so far and the
   * start of its preamble.
   */
  private static final class Multipart {
    final boolean alternative;
    int parts;
    byte[] preamble = new byte[0];

    Multipart(boolean alternative) {
      this.alternative = alternative;
    }
  }

  /**
   * Turns mime4j's warnings (bad base64, stray header lines...) into problems; never throws. Tells
   * a whole message's {@link TopLevel} when its header had a line that is not a field, and {@link
   * PartHeaders} when a body part's header had one.
   */
  private static final class ProblemMonitor extends DecodeMonitor {
    /** Warnings about what is normal here: messages are stored with LF line ends. */
    private static final Set<String> NORMAL =
        Set.of("Found LF without CR", "Found non-standard soft line break");

    private static final String NOT_A_FIELD = Event.INVALID_HEADER.toString();

    private final DecodedMailBuilder mail;
    private final TopLevel top; // null for a part
    private final PartHeaders parts;
    private boolean muted;

    ProblemMonitor(DecodedMailBuilder mail, TopLevel top, PartHeaders parts) {
      this.mail = mail;
      this.top = top;
      this.parts = parts;
    }

    /** Reports nothing more: the mail is decoded, and the parser only reads on to its end. */
    void mute() {
      muted = true;
    }

    @Override
    public boolean warn(String error, String dropDesc) {
      if (error.endsWith(NOT_A_FIELD)) {
        if (top != null && !top.headerEnded) {
          top.skippedHeaderLine = true;
        } else {
          parts.skippedLine = true;
        }
      }
      if (!muted && !NORMAL.contains(error)) {
        mail.problem(error);
      }
      return false;
    }

    @Override
    public boolean isListening() {
      return true;
    }
  }
}
