package dev.burnbox.bench.smtp;

import dev.burnbox.bench.MailCorpus;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fixed set of messages ready to follow DATA (CRLF line ends, dot-stuffed, ending with
 * CRLF.CRLF), with plain headers and bodies from the SpamAssassin corpus when {@code bench/corpus/}
 * exists (generated mail-like text otherwise). Thread-safe; {@link #next()} picks one at random,
 * and in a {@link #unique()} set gives each mail a first body line of its own.
 */
public final class LoadMessages {
  private static final int VARIANTS = 64;

  private final List<byte[]> encoded;
  private final String description;
  private final AtomicLong sent; // null unless every mail is made unique

  private LoadMessages(List<byte[]> encoded, String description) {
    this(encoded, description, null);
  }

  private LoadMessages(List<byte[]> encoded, String description, AtomicLong sent) {
    this.encoded = List.copyOf(encoded);
    this.description = description;
    this.sent = sent;
  }

  /**
   * The same messages, each one sent with a line of its own at the top of its body ({@code Ref:}
   * and a number), as a mail merge's greeting: no two mails sent are the same text.
   */
  public LoadMessages unique() {
    return new LoadMessages(
        encoded, description + ", each with a line of its own", new AtomicLong());
  }

  /**
   * {@value #VARIANTS} messages of about {@code bytes} bytes each (headers included), their bodies
   * cut from the corpus.
   */
  public static LoadMessages ofSize(int bytes) {
    MailCorpus corpus = MailCorpus.locate();
    int headerBytes = header(0).length();
    int bodyChars = Math.max(16, bytes - headerBytes);
    String[] bodies = MailCorpus.batch(mixed(corpus), VARIANTS, bodyChars);
    List<byte[]> messages = new ArrayList<>();
    for (int i = 0; i < VARIANTS; i++) {
      messages.add(encode(header(i) + bodies[i]));
    }
    String source = corpus.isReal() ? "SpamAssassin corpus text" : "generated text";
    return new LoadMessages(messages, "%,d-byte mails cut from %s".formatted(bytes, source));
  }

  /** Every mail of the corpus, whole, with the same plain headers. */
  public static LoadMessages wholeCorpus() {
    MailCorpus corpus = MailCorpus.locate();
    List<byte[]> messages = new ArrayList<>();
    List<String> bodies = mixed(corpus);
    for (int i = 0; i < bodies.size(); i++) {
      messages.add(encode(header(i) + bodies.get(i)));
    }
    long total = messages.stream().mapToLong(m -> m.length).sum();
    return new LoadMessages(
        messages,
        "%,d whole mails (mean %,d bytes) from %s"
            .formatted(messages.size(), total / messages.size(), corpus.source()));
  }

  private static List<String> mixed(MailCorpus corpus) {
    List<String> ham = corpus.hamBodies();
    List<String> spam = corpus.spamBodies();
    List<String> mixed = new ArrayList<>();
    for (int i = 0; i < Math.max(ham.size(), spam.size()); i++) {
      if (i < ham.size()) {
        mixed.add(ham.get(i));
      }
      if (i < spam.size()) {
        mixed.add(spam.get(i));
      }
    }
    return mixed;
  }

  private static String header(int variant) {
    return "From: Load Generator <load@bench.test>\r\n"
        + "To: <inbox@burnbox.test>\r\n"
        + "Subject: load test mail %04d\r\n".formatted(variant)
        + "Message-ID: <load-%04d@bench.test>\r\n".formatted(variant)
        + "MIME-Version: 1.0\r\n"
        + "Content-Type: text/plain; charset=utf-8\r\n"
        + "\r\n";
  }

  /** CRLF line ends, a leading dot doubled, CRLF.CRLF at the end. */
  static byte[] encode(String mail) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(mail.length() + 64);
    String[] lines = mail.split("\r\n|\n|\r", -1);
    int count = lines.length;
    if (count > 0 && lines[count - 1].isEmpty()) {
      count--; // the text ended with a line end
    }
    for (int i = 0; i < count; i++) {
      if (lines[i].startsWith(".")) {
        out.write('.');
      }
      out.writeBytes(lines[i].getBytes(StandardCharsets.UTF_8));
      out.write('\r');
      out.write('\n');
    }
    out.writeBytes(SmtpLoadClient.END_OF_DATA);
    return out.toByteArray();
  }

  /** One of the messages, picked at random. */
  public byte[] next() {
    byte[] message = encoded.get(ThreadLocalRandom.current().nextInt(encoded.size()));
    if (sent == null) {
      return message;
    }
    int body = bodyStart(message);
    byte[] line =
        "Ref: %012d\r\n".formatted(sent.incrementAndGet()).getBytes(StandardCharsets.US_ASCII);
    byte[] unique = new byte[message.length + line.length];
    System.arraycopy(message, 0, unique, 0, body);
    System.arraycopy(line, 0, unique, body, line.length);
    System.arraycopy(message, body, unique, body + line.length, message.length - body);
    return unique;
  }

  /** Where the body starts: just past the first empty line. */
  private static int bodyStart(byte[] message) {
    for (int i = 3; i < message.length; i++) {
      if (message[i - 3] == '\r'
          && message[i - 2] == '\n'
          && message[i - 1] == '\r'
          && message[i] == '\n') {
        return i + 1;
      }
    }
    throw new IllegalStateException("a message without a body");
  }

  /** Mean size in bytes as sent (dot-stuffed, terminator included). */
  public int meanBytes() {
    return (int) (encoded.stream().mapToLong(m -> m.length).sum() / encoded.size());
  }

  /** What the messages are, for reports. */
  public String description() {
    return description;
  }
}
