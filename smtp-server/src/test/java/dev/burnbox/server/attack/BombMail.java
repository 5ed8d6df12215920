package dev.burnbox.server.attack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/**
 * Hostile messages, each a complete SMTP content (CRLF line ends, no line starting with a dot,
 * ending in CRLF) of at most the size asked for: thousands of parts, deep nesting, base64 that
 * decodes to more text than the decoder keeps plus a gzip bomb attachment, and incompressible mail
 * for filling the store. They carry no {@code Subject}: the sender writes one per message, so the
 * subject flood ban does not stop them before the decoder sees them.
 */
final class BombMail {
  private BombMail() {}

  /** A multipart/mixed message of {@code parts} tiny text parts. */
  static byte[] manyParts(int parts) {
    StringBuilder mail = headers("many parts", "multipart/mixed; boundary=\"b\"");
    for (int i = 0; i < parts; i++) {
      mail.append("--b\r\nContent-Type: text/plain\r\n\r\npart ").append(i).append(" win cash\r\n");
    }
    return mail.append("--b--\r\n").toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** Multiparts nested {@code levels} deep around one text part. */
  static byte[] deepNesting(int levels) {
    StringBuilder mail = headers("deep", "multipart/mixed; boundary=\"n0\"");
    for (int i = 1; i <= levels; i++) {
      mail.append("--n")
          .append(i - 1)
          .append("\r\nContent-Type: multipart/mixed; boundary=\"n")
          .append(i)
          .append("\"\r\n\r\n");
    }
    mail.append("--n").append(levels).append("\r\nContent-Type: text/plain\r\n\r\ndeep\r\n");
    for (int i = levels; i >= 0; i--) {
      mail.append("--n").append(i).append("--\r\n");
    }
    return mail.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * About {@code size} bytes: a base64 text part decoding to more than the decoder keeps (repeated
   * spam text), and a base64 {@code application/gzip} attachment ({@code Content-Encoding: gzip}
   * for good measure) that would inflate to {@code gzipInflatedBytes}: concatenated gzip members of
   * zeros, a valid gzip stream.
   */
  static byte[] base64Bomb(int size, long gzipInflatedBytes) {
    byte[] gzip = gzipOfZeros(gzipInflatedBytes, size / 4);
    int textBytes = Math.max(0, (size - gzip.length * 4 / 3) * 3 / 4 - 2048);
    byte[] text = "Claim your lottery prize now! ".repeat(textBytes / 30 + 1).getBytes();
    StringBuilder mail = headers("base64 bomb", "multipart/mixed; boundary=\"z\"");
    mail.append("--z\r\nContent-Type: text/plain; charset=utf-8\r\n")
        .append("Content-Transfer-Encoding: base64\r\n\r\n");
    base64Lines(mail, text, textBytes);
    mail.append("--z\r\nContent-Type: application/gzip; name=\"zeros.txt.gz\"\r\n")
        .append("Content-Encoding: gzip\r\nContent-Transfer-Encoding: base64\r\n\r\n");
    base64Lines(mail, gzip, gzip.length);
    return mail.append("--z--\r\n").toString().getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * About {@code size} bytes of plain text made of random words: zstd stores it in about a third.
   */
  static byte[] compressible(int size, Random random) {
    String[] words = {
      "mail", "burn", "box", "hello", "offer", "meeting", "report", "the", "a", "of"
    };
    StringBuilder mail = headers("compressible", "text/plain");
    int line = 0;
    while (mail.length() < size - 2) {
      String word = words[random.nextInt(words.length)];
      mail.append(word).append(' ');
      line += word.length() + 1;
      if (line > 70) {
        mail.append("\r\n");
        line = 0;
      }
    }
    return mail.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** About {@code size} bytes of random, incompressible text (base64 of random bytes). */
  static byte[] incompressible(int size, String subject, Random random) {
    byte[] noise = new byte[size * 3 / 4];
    random.nextBytes(noise);
    StringBuilder mail = headers(subject, "text/plain");
    base64Lines(mail, noise, noise.length);
    return mail.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static StringBuilder headers(String subject, String contentType) {
    return new StringBuilder(1 << 16)
        .append("From: attacker@attack.test\r\nX-Bomb: ")
        .append(subject)
        .append("\r\nMIME-Version: 1.0\r\nContent-Type: ")
        .append(contentType)
        .append("\r\n\r\n");
  }

  private static void base64Lines(StringBuilder mail, byte[] data, int length) {
    String encoded = Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(data, length));
    for (int at = 0; at < encoded.length(); at += 76) {
      mail.append(encoded, at, Math.min(encoded.length(), at + 76)).append("\r\n");
    }
  }

  /** Gzip members of 16 MiB of zeros each, repeated to inflate to about {@code inflated}. */
  private static byte[] gzipOfZeros(long inflated, int maxBytes) {
    ByteArrayOutputStream member = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(member)) {
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i < 16; i++) {
        gz.write(zeros);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] one = member.toByteArray();
    long members = Math.max(1, Math.min(inflated >> 24, maxBytes / one.length));
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (long i = 0; i < members; i++) {
      all.writeBytes(one);
    }
    return all.toByteArray();
  }
}
