package dev.burnbox.bench.soak;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak's mails: each one is a function of the run's seed and its sequence number, carries a
 * token unique to the run in its {@code Message-ID} and {@code Subject}, and varies in the ways
 * that stress the byte-exact path from socket to store: sizes from a hundred bytes to a few hundred
 * kilobytes, lines that start with dots (dot-stuffed on the wire), 8-bit UTF-8 text, long lines,
 * base64 attachments, multipart bodies, spam terms, and shared bodies that the store deduplicates.
 *
 * <p>Content is what the store must hand back: lines end in CRLF, and the content ends with CRLF
 * unless {@link #withoutFinalNewline} asks otherwise (possible only with BDAT, which sends bytes as
 * they are).
 */
final class SoakMails {
  /** The host part of every soak Message-ID. */
  static final String MESSAGE_ID_HOST = "ledger.burnbox.test";

  private static final Pattern MESSAGE_ID =
      Pattern.compile("(?m)^Message-ID: <([A-Za-z0-9-]+)@" + Pattern.quote(MESSAGE_ID_HOST) + ">");

  private static final List<String> WORDS =
      List.of(
          "the",
          "inbox",
          "ledger",
          "burn",
          "after",
          "reading",
          "meeting",
          "tomorrow",
          "invoice",
          "attached",
          "please",
          "confirm",
          "your",
          "account",
          "free",
          "viagra",
          "winner",
          "claim",
          "prize",
          "now",
          "déjà",
          "vu",
          "naïve",
          "café",
          "Grüße",
          "日本語",
          "тест",
          "ελληνικά",
          "émoji",
          "🙂",
          "€100",
          "unsubscribe",
          "click",
          "here",
          "lottery",
          "urgent");

  /** Bodies shared by many mails, so the store's deduplication of identical bodies is in play. */
  private static final int SHARED_BODIES = 16;

  private final long seed;

  SoakMails(long seed) {
    this.seed = seed;
  }

  /** The token of mail {@code sequence}: unique in the run, and valid in a Message-ID. */
  String token(long sequence) {
    return "s" + Long.toHexString(seed & 0xffffffffL) + "-" + sequence;
  }

  /** The sequence number in {@code token}, or -1 if it is not a token of this run. */
  long sequence(String token) {
    String prefix = "s" + Long.toHexString(seed & 0xffffffffL) + "-";
    if (!token.startsWith(prefix)) {
      return -1;
    }
    try {
      return Long.parseLong(token.substring(prefix.length()));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The token in a stored message's raw bytes, or null if it has no soak Message-ID. */
  static String tokenIn(byte[] raw) {
    int headerEnd = Math.min(raw.length, 4096);
    Matcher m = MESSAGE_ID.matcher(new String(raw, 0, headerEnd, StandardCharsets.ISO_8859_1));
    return m.find() ? m.group(1) : null;
  }

  /** Mail {@code sequence} addressed to {@code recipients}, ending with CRLF, fit for DATA. */
  byte[] mail(long sequence, List<String> recipients) {
    return build(sequence, recipients, false);
  }

  /**
   * Mail {@code sequence} as only BDAT can carry it exactly: like {@link #mail}, or (one in four)
   * with a binary part holding every byte value, bare CR and LF, NULs and a {@code CRLF.CRLF} that
   * DATA would read as the end, or (one in ten) without a final CRLF.
   */
  byte[] binaryMail(long sequence, List<String> recipients) {
    return build(sequence, recipients, true);
  }

  private byte[] build(long sequence, List<String> recipients, boolean binary) {
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + sequence);
    String token = token(sequence);
    StringBuilder text = new StringBuilder(1024);
    text.append("Message-ID: <").append(token).append('@').append(MESSAGE_ID_HOST).append(">\r\n");
    text.append("Date: Mon, 23 Nov 2026 18:00:00 +0000\r\n");
    text.append("From: Soak Sender <sender").append(random.nextInt(50)).append("@soak.test>\r\n");
    text.append("To: ").append(String.join(", ", recipients)).append("\r\n");
    text.append("Subject: ledger ").append(token);
    if (random.nextInt(4) == 0) {
      text.append(" claim your free prize now");
    }
    text.append("\r\n");
    int shape = random.nextInt(100);
    if (shape < 2) { // headers only: no empty line to split the message at
      text.append("X-Shape: headers-only\r\n");
    } else if (shape < 4) { // blank lines wherever the store might split
      text.append("\r\n\r\n\r\n").append(line(random)).append("\r\n\r\n");
    } else if (shape < 10) {
      text.append("Content-Type: text/plain; charset=utf-8\r\n\r\n");
      text.append(sharedBody(random.nextInt(SHARED_BODIES)));
    } else if (shape < 25) {
      multipart(text, random);
    } else {
      text.append("Content-Type: text/plain; charset=utf-8\r\n");
      text.append("Content-Transfer-Encoding: 8bit\r\n\r\n");
      int lines = random.nextInt(100) < 3 ? 2000 + random.nextInt(4000) : 1 + random.nextInt(80);
      for (int i = 0; i < lines; i++) {
        text.append(line(random)).append("\r\n");
      }
    }
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    if (!binary) {
      return bytes;
    }
    int kind = random.nextInt(20);
    ByteArrayOutputStream mail = new ByteArrayOutputStream(bytes.length + 1024);
    if (kind < 5) {
      mail.writeBytes(bytes);
      mail.writeBytes(BINARY_TRAPS);
      byte[] noise = new byte[random.nextInt(2000)];
      for (int i = 0; i < noise.length; i++) {
        noise[i] = (byte) random.nextInt(256);
      }
      mail.writeBytes(noise);
    } else if (kind < 7) {
      mail.write(bytes, 0, bytes.length - 2);
      mail.writeBytes(" (no final newline)".getBytes(StandardCharsets.US_ASCII));
    } else {
      mail.writeBytes(bytes);
    }
    return mail.toByteArray();
  }

  /** Bytes that a line-based reader would change or stop at; BDAT must store them as they are. */
  private static final byte[] BINARY_TRAPS =
      "\r\n.\r\n..\r\n.\nbare LF\nbare CR\rNUL\0\0end\r\n\r\n.\r\n"
          .getBytes(StandardCharsets.ISO_8859_1);

  /** A line of text, sometimes one that DATA must dot-stuff or one near the 998-byte limit. */
  private static String line(SplittableRandom random) {
    int kind = random.nextInt(100);
    if (kind < 4) {
      return ".";
    }
    if (kind < 8) {
      return ".." + words(random, 3);
    }
    if (kind < 12) {
      return "." + words(random, 5);
    }
    if (kind < 14) {
      return "";
    }
    if (kind < 16) {
      return "x".repeat(900 + random.nextInt(90));
    }
    return words(random, 3 + random.nextInt(12));
  }

  private static String words(SplittableRandom random, int count) {
    StringBuilder words = new StringBuilder();
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        words.append(' ');
      }
      words.append(WORDS.get(random.nextInt(WORDS.size())));
    }
    return words.toString();
  }

  private static String sharedBody(int which) {
    SplittableRandom random = new SplittableRandom(which);
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < 40 + which * 10; i++) {
      body.append(line(random)).append("\r\n");
    }
    return body.toString();
  }

  private static void multipart(StringBuilder text, SplittableRandom random) {
    String boundary = "b" + Long.toHexString(random.nextLong());
    text.append("MIME-Version: 1.0\r\n");
    text.append("Content-Type: multipart/mixed; boundary=\"").append(boundary).append("\"\r\n");
    text.append("\r\n");
    text.append("--").append(boundary).append("\r\n");
    text.append("Content-Type: text/html; charset=utf-8\r\n\r\n");
    text.append("<p>").append(words(random, 20)).append("</p>\r\n");
    text.append("--").append(boundary).append("\r\n");
    text.append("Content-Type: application/octet-stream; name=\"a.bin\"\r\n");
    text.append("Content-Transfer-Encoding: base64\r\n\r\n");
    byte[] attachment = new byte[random.nextInt(100) < 5 ? 100_000 + random.nextInt(200_000) : 300];
    for (int i = 0; i < attachment.length; i++) {
      attachment[i] = (byte) random.nextInt(256);
    }
    text.append(Base64.getMimeEncoder().encodeToString(attachment)).append("\r\n");
    text.append("--").append(boundary).append("--\r\n");
  }
}
