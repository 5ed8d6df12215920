package dev.burnbox.mailstore;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Seeded mail-like messages for the codec tests: shared header boilerplate, varied bodies. */
final class TestMail {
  private static final String[] WORDS = {
    "the",
    "meeting",
    "invoice",
    "please",
    "find",
    "attached",
    "free",
    "offer",
    "account",
    "click",
    "here",
    "unsubscribe",
    "regards",
    "server",
    "list",
    "update",
    "password",
    "order",
    "today",
  };

  private TestMail() {}

  /** One message of roughly {@code bodyWords} words, deterministic for {@code random}'s seed. */
  static byte[] message(Random random, int bodyWords) {
    StringBuilder mail = new StringBuilder();
    int id = random.nextInt(1_000_000);
    for (int hop = 0; hop < 3; hop++) {
      mail.append("Received: from mx")
          .append(random.nextInt(9))
          .append(".example.net (mx.example.net [192.0.2.")
          .append(random.nextInt(255))
          .append("])\r\n\tby inbound.burnbox.dev (Postfix) with ESMTP id ")
          .append(Integer.toHexString(id + hop))
          .append("\r\n\tfor <user")
          .append(id % 97)
          .append("@burnbox.dev>; Sun, 22 Nov 2026 04:0")
          .append(hop)
          .append(":00 +0000\r\n");
    }
    mail.append("From: sender")
        .append(id % 13)
        .append("@example.org\r\nTo: user")
        .append(id % 97)
        .append("@burnbox.dev\r\nSubject: ")
        .append(WORDS[random.nextInt(WORDS.length)])
        .append(" ")
        .append(id)
        .append("\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=us-ascii\r\n")
        .append("Message-ID: <")
        .append(id)
        .append("@example.org>\r\n\r\n");
    for (int i = 0; i < bodyWords; i++) {
      mail.append(WORDS[random.nextInt(WORDS.length)]).append(i % 12 == 11 ? "\r\n" : " ");
    }
    mail.append("\r\n-- \r\nTo unsubscribe, visit https://lists.example.org/unsubscribe\r\n");
    return mail.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** The dictionary id a {@link ZstdCodec} stored form names. */
  static int dictionaryId(byte[] stored) {
    StoredForm.Reader reader = new StoredForm.Reader(stored, StoredForm.ZSTD, "test");
    reader.rawLength();
    return reader.varint("dictionary id");
  }
}
