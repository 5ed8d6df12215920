package dev.burnbox.bench.mime;

import dev.burnbox.server.mime.MailDecoder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What decoding a campaign's copy costs against decoding a message first seen, on the corpus's real
 * mail, by this thread's CPU time: for each mail, a fresh {@link MailDecoder} decodes a copy of it
 * (nothing kept), and another decoder that has just decoded the mail decodes the copy (its body
 * kept). The copy is the mail with two header fields in front, as a relay's trace field differs
 * from copy to copy. The mbox {@code From } line the corpus files start with is dropped, as mail
 * arrives over SMTP without it. Prints µs per mail for both, round by round (the first rounds warm
 * the JIT), and how many copies took a kept body.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar dev.burnbox.bench.mime.CopyDecodeCpuTime
 * [ROUNDS]} (default 6).
 */
public final class CopyDecodeCpuTime {
  private CopyDecodeCpuTime() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
    List<byte[]> mails = MimeBenchMails.locate().mails().stream().map(m -> withoutMbox(m)).toList();
    byte[] fields =
        "Received: from relay.test by burnbox.test; Fri, 27 Nov 2026 01:00:00 +0000\nX-Copy: 2\n"
            .getBytes(StandardCharsets.US_ASCII);
    List<byte[]> copies =
        mails.stream()
            .map(
                m -> {
                  byte[] copy = Arrays.copyOf(fields, fields.length + m.length);
                  System.arraycopy(m, 0, copy, fields.length, m.length);
                  return copy;
                })
            .toList();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int round = 1; round <= rounds; round++) {
      long firstSeen = 0;
      long copy = 0;
      long reused = 0;
      for (int i = 0; i < mails.size(); i++) {
        MailDecoder fresh = MailDecoder.withDefaults();
        long start = threads.getCurrentThreadCpuTime();
        fresh.decode(copies.get(i));
        firstSeen += threads.getCurrentThreadCpuTime() - start;
        MailDecoder warmed = MailDecoder.withDefaults();
        warmed.decode(mails.get(i));
        start = threads.getCurrentThreadCpuTime();
        warmed.decode(copies.get(i));
        copy += threads.getCurrentThreadCpuTime() - start;
        reused += warmed.reusedBodies();
      }
      System.out.printf(
          Locale.ROOT,
          "round %d: %,d mails, first seen %.1f µs a mail, copy %.1f µs (%.2fx), %,d copies took"
              + " a kept body%n",
          round,
          mails.size(),
          firstSeen / 1e3 / mails.size(),
          copy / 1e3 / mails.size(),
          (double) copy / firstSeen,
          reused);
    }
  }

  private static byte[] withoutMbox(byte[] mail) {
    if (mail.length < 5 || !new String(mail, 0, 5, StandardCharsets.US_ASCII).equals("From ")) {
      return mail;
    }
    int lineEnd = 0;
    while (lineEnd < mail.length && mail[lineEnd] != '\n') {
      lineEnd++;
    }
    return Arrays.copyOfRange(mail, Math.min(lineEnd + 1, mail.length), mail.length);
  }
}
