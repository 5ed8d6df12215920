package dev.burnbox.bench.mime;

import dev.burnbox.server.mime.DecodedMail;
import dev.burnbox.server.mime.DecodedMailBuilder;
import dev.burnbox.server.mime.HeaderText;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.mime.MimeLimits;
import dev.burnbox.server.mime.RawMessage;
import dev.burnbox.server.mime.TextCharsets;
import jakarta.mail.BodyPart;
import jakarta.mail.Header;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.ContentType;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.ParseException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Locale;
import java.util.Properties;

/**
 * The losing side of the parser comparison (docs/benchmarks.md, "MIME decoding"): {@link
 * MailDecoder}'s job done with Jakarta Mail (Angus) instead of mime4j, for the benchmark only. It
 * fills the same {@link DecodedMailBuilder} with the same part rules, header decoding and limits,
 * so that the two differ only in the parser. Thread-safe.
 */
public final class JakartaMailDecoder {
  /** The property that, set, spares Jakarta Mail a ServiceLoader lookup per multipart call. */
  public static final String STREAM_PROVIDER_PROPERTY = "jakarta.mail.util.StreamProvider";

  /** Angus's implementation of {@link #STREAM_PROVIDER_PROPERTY}. */
  public static final String ANGUS_STREAM_PROVIDER =
      "org.eclipse.angus.mail.util.MailStreamProvider";

  private final MimeLimits limits;
  private final Session session;

  public JakartaMailDecoder(MimeLimits limits) {
    this.limits = limits;
    Properties lenient = new Properties();
    lenient.setProperty("mail.mime.base64.ignoreerrors", "true");
    lenient.setProperty("mail.mime.parameters.strict", "false");
    lenient.setProperty("mail.mime.multipart.ignoremissingendboundary", "true");
    lenient.setProperty("mail.mime.multipart.allowempty", "true");
    lenient.setProperty("mail.mime.decodetext.strict", "false");
    this.session = Session.getInstance(lenient);
  }

  /** As {@link MailDecoder#decode(byte[])}. */
  public DecodedMail decode(byte[] raw) {
    DecodedMailBuilder mail = new DecodedMailBuilder(limits);
    try {
      MimeMessage message = new MimeMessage(session, new ByteArrayInputStream(raw));
      Enumeration<Header> headers = message.getAllHeaders();
      if (!headers.hasMoreElements()) {
        return RawMessage.decode(
            raw, limits, "no header fields: the whole message is read as text");
      }
      while (headers.hasMoreElements()) {
        Header header = headers.nextElement();
        mail.header(header.getName(), HeaderText.unfold(asReadersSee(header.getValue())));
      }
      walk(message, mail, 0);
      return mail.build();
    } catch (MessagingException | IOException | RuntimeException e) {
      return RawMessage.decode(raw, limits, "unreadable MIME structure: " + e);
    }
  }

  private void walk(Part part, DecodedMailBuilder mail, int depth)
      throws MessagingException, IOException {
    String type = baseType(part);
    if (type.startsWith("multipart/")) {
      Object content = part.getContent();
      if (!(content instanceof Multipart multipart)) {
        mail.malformed("multipart without a boundary: its content is read as text");
        mail.text(part.getInputStream(), charset(part));
        return;
      }
      int count = multipart.getCount();
      if (count == 0) {
        mail.malformed("multipart boundary never occurs: its content is read as text");
        mail.text(part.getInputStream(), charset(part));
        return;
      }
      for (int i = 0; i < count; i++) {
        if (!mail.countPart()) {
          return;
        }
        BodyPart child = multipart.getBodyPart(i);
        if (depth + 1 > limits.maxDepth()) {
          mail.problem("parts nested deeper than " + limits.maxDepth() + " levels were skipped");
        } else {
          walk(child, mail, depth + 1);
        }
      }
      return;
    }
    boolean attachment = Part.ATTACHMENT.equalsIgnoreCase(disposition(part));
    if (!attachment && type.equals("text/plain")) {
      mail.text(decoded(part), charset(part));
    } else if (!attachment && type.equals("text/html")) {
      mail.html(decoded(part), charset(part));
    } else if (type.equals("message/rfc822") || type.equals("message/global")) {
      byte[] message = decoded(part).readAllBytes();
      mail.attachment(fileName(part), type, new ByteArrayInputStream(message));
      if (depth + 1 > limits.maxDepth()) {
        mail.problem("parts nested deeper than " + limits.maxDepth() + " levels were skipped");
      } else if (mail.countPart()) {
        walk(new MimeMessage(session, new ByteArrayInputStream(message)), mail, depth + 1);
      }
    } else {
      mail.attachment(fileName(part), type, "", charset(part), decoded(part));
    }
  }

  /** Jakarta reads header bytes as ISO-8859-1: give raw 8-bit UTF-8 the same chance as mime4j. */
  private static String asReadersSee(String value) {
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) > 0x7F) {
        byte[] bytes = value.getBytes(StandardCharsets.ISO_8859_1);
        return TextCharsets.decodeUtf8OrWindows1252(bytes, 0, bytes.length);
      }
    }
    return value;
  }

  private static String baseType(Part part) throws MessagingException {
    String declared = part.getContentType();
    if (declared == null) {
      return "text/plain";
    }
    try {
      return new ContentType(declared).getBaseType().toLowerCase(Locale.ROOT);
    } catch (ParseException e) {
      return "text/plain";
    }
  }

  private static String charset(Part part) throws MessagingException {
    String declared = part.getContentType();
    try {
      return declared == null ? null : new ContentType(declared).getParameter("charset");
    } catch (ParseException e) {
      return null;
    }
  }

  private static String disposition(Part part) {
    try {
      return part.getDisposition();
    } catch (MessagingException | RuntimeException e) {
      return null;
    }
  }

  private static String fileName(Part part) {
    try {
      return part.getFileName();
    } catch (MessagingException | RuntimeException e) {
      return null;
    }
  }

  /** The body after transfer decoding; the raw body if the encoding is unknown. */
  private static InputStream decoded(Part part) throws MessagingException, IOException {
    try {
      return part.getInputStream();
    } catch (MessagingException e) {
      if (part instanceof MimeBodyPart body) {
        return body.getRawInputStream();
      }
      if (part instanceof MimeMessage message) {
        return message.getRawInputStream();
      }
      throw e;
    }
  }
}
