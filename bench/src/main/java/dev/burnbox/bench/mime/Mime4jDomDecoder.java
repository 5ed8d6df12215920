package dev.burnbox.bench.mime;

import dev.burnbox.server.mime.DecodedMail;
import dev.burnbox.server.mime.DecodedMailBuilder;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.mime.MimeLimits;
import dev.burnbox.server.mime.RawMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.util.Locale;
import org.apache.james.mime4j.MimeException;
import org.apache.james.mime4j.codec.DecodeMonitor;
import org.apache.james.mime4j.dom.Body;
import org.apache.james.mime4j.dom.Entity;
import org.apache.james.mime4j.dom.Message;
import org.apache.james.mime4j.dom.Multipart;
import org.apache.james.mime4j.dom.SingleBody;
import org.apache.james.mime4j.message.DefaultMessageBuilder;
import org.apache.james.mime4j.message.DefaultMessageWriter;
import org.apache.james.mime4j.stream.Field;
import org.apache.james.mime4j.stream.MimeConfig;

/**
 * A third side of the parser comparison (docs/benchmarks.md, "MIME decoding"): {@link
 * MailDecoder}'s job done by building mime4j-dom's message tree ({@link DefaultMessageBuilder}) and
 * walking it, instead of walking mime4j's token stream as {@link MailDecoder} does. Same {@link
 * DecodedMailBuilder}, part rules and limits. Bench only; thread-safe.
 */
public final class Mime4jDomDecoder {
  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
  private static final MimeConfig PERMISSIVE =
      MimeConfig.custom()
          .setMaxLineLen(-1)
          .setMaxHeaderCount(-1)
          .setMaxHeaderLen(-1)
          .setMaxContentLen(-1)
          .build();

  private final MimeLimits limits;

  public Mime4jDomDecoder(MimeLimits limits) {
    this.limits = limits;
  }

  /** As {@link MailDecoder#decode(byte[])}. */
  public DecodedMail decode(byte[] raw) {
    DecodedMailBuilder mail = new DecodedMailBuilder(limits);
    try {
      Message message = parse(raw);
      if (message.getHeader().getFields().isEmpty()) {
        return RawMessage.decode(
            raw, limits, "no header fields: the whole message is read as text");
      }
      for (Field field : message.getHeader().getFields()) {
        mail.header(field.getName(), MailDecoder.headerValue(field.getRaw()));
      }
      walk(message, mail, 0);
      return mail.build();
    } catch (IOException | MimeException | RuntimeException e) {
      return RawMessage.decode(raw, limits, "unreadable MIME structure: " + e);
    }
  }

  private static Message parse(byte[] raw) throws IOException, MimeException {
    DefaultMessageBuilder builder = new DefaultMessageBuilder();
    builder.setMimeEntityConfig(PERMISSIVE);
    builder.setDecodeMonitor(DecodeMonitor.SILENT);
    return builder.parseMessage(new ByteArrayInputStream(raw));
  }

  private void walk(Entity entity, DecodedMailBuilder mail, int depth)
      throws IOException, MimeException {
    Body body = entity.getBody();
    String type = entity.getMimeType().toLowerCase(Locale.ROOT);
    if (body instanceof Multipart multipart) {
      if (multipart.getCount() == 0) {
        mail.malformed("multipart boundary never occurs: its content is read as text");
        String preamble = multipart.getPreamble() == null ? "" : multipart.getPreamble();
        byte[] text = preamble.getBytes(WINDOWS_1252);
        mail.rawText(text, 0, text.length);
        return;
      }
      for (Entity part : multipart.getBodyParts()) {
        if (!mail.countPart()) {
          return;
        }
        if (depth + 1 > limits.maxDepth()) {
          mail.problem("parts nested deeper than " + limits.maxDepth() + " levels were skipped");
        } else {
          walk(part, mail, depth + 1);
        }
      }
    } else if (body instanceof Message nested) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      new DefaultMessageWriter().writeMessage(nested, bytes);
      mail.attachment(entity.getFilename(), type, new ByteArrayInputStream(bytes.toByteArray()));
      if (depth + 1 > limits.maxDepth()) {
        mail.problem("parts nested deeper than " + limits.maxDepth() + " levels were skipped");
      } else if (mail.countPart()) {
        walk(nested, mail, depth + 1);
      }
    } else if (body instanceof SingleBody single) {
      boolean attachment = "attachment".equalsIgnoreCase(entity.getDispositionType());
      if (!attachment && type.equals("text/plain")) {
        mail.text(single.getInputStream(), entity.getCharset());
      } else if (!attachment && type.equals("text/html")) {
        mail.html(single.getInputStream(), entity.getCharset());
      } else {
        mail.attachment(
            entity.getFilename(), type, "", entity.getCharset(), single.getInputStream());
      }
    }
  }
}
