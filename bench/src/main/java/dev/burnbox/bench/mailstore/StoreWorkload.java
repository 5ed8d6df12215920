package dev.burnbox.bench.mailstore;

import dev.burnbox.mailstore.BodyCodec;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.IncomingMessage;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.mailstore.ZstdCodec;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.InternetHeaders;
import jakarta.mail.internet.MimeUtility;
import java.io.ByteArrayInputStream;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;

/**
 * The delivery stream the store benchmarks replay: real raw mails of {@link RawMailCorpus}
 * delivered one recipient at a time to {@value #INBOXES} seeded random inboxes.
 *
 * <p><b>Duplicates.</b> {@value #BULK_PERCENT}% of deliveries are bulk mail: one of {@value
 * #CAMPAIGNS} campaigns (spam test mails picked with the seed) sent to one random inbox with a
 * {@code Received:} line naming that inbox and the delivery prepended (about 130 bytes, as the
 * receiving MX adds one), so copies differ in their header block only, as real bulk mail does
 * (per-recipient {@code To:} and {@code Received:}): whole-message deduplication misses them, body
 * deduplication catches them. The other deliveries are a test mail (ham and spam in corpus
 * proportion) with such a line prepended and a line naming the delivery appended to its body
 * ({@value #UNIQUE_TRAILER_BYTES} bytes), so neither two messages nor two bodies are identical: the
 * corpus has 1,796 mails, which recur about 23 times in 60,000 deliveries, and without the trailer
 * a store deduplicating bodies would catch those repeats, which real one-off mail does not have.
 *
 * <p><b>Strings.</b> Each delivery carries the envelope sender, {@code From} and {@code Subject}
 * its mail's headers give ({@link #withItsHeaders}), as the service records them and the store
 * keeps them beside the mail (until 2026-11-27 they were a fixed sender and two empty strings, so a
 * page copied no string), each a string of its own, as the intake makes one for every message.
 *
 * <p>Thread-safe: each call takes its own {@link SplittableRandom}; sequence numbers make the
 * unique deliveries distinct.
 */
final class StoreWorkload {
  /** Distinct inbox names deliveries go to. */
  static final int INBOXES = 10_000;

  /** Share of deliveries that are bulk resends, in percent. */
  static final int BULK_PERCENT = 30;

  /** Distinct bulk campaigns. */
  static final int CAMPAIGNS = 50;

  /** Length of the line appended to the body of a unique delivery. */
  static final int UNIQUE_TRAILER_BYTES = 24;

  /** The seed of inbox and mail choices. */
  static final long SEED = 42;

  private final RawMailCorpus corpus;
  private final byte[][] unique;
  private final byte[][] campaigns;
  private final String[][] uniqueStrings; // sender, from and subject of each unique mail
  private final String[][] campaignStrings;
  private final InboxName[] inboxes;

  StoreWorkload(RawMailCorpus corpus) {
    this.corpus = corpus;
    List<byte[]> test = corpus.test();
    this.unique = test.toArray(byte[][]::new);
    SplittableRandom random = new SplittableRandom(SEED);
    int spamStart = test.size() / 2; // test mails are ham first, then spam (about half each)
    this.uniqueStrings = Arrays.stream(unique).map(StoreWorkload::strings).toArray(String[][]::new);
    this.campaigns = new byte[CAMPAIGNS][];
    this.campaignStrings = new String[CAMPAIGNS][];
    for (int i = 0; i < CAMPAIGNS; i++) {
      int mail = spamStart + random.nextInt(unique.length - spamStart);
      campaigns[i] = unique[mail];
      campaignStrings[i] = uniqueStrings[mail];
    }
    this.inboxes = new InboxName[INBOXES];
    for (int i = 0; i < INBOXES; i++) {
      inboxes[i] = InboxName.of(String.format("user%05d.%04x", i, random.nextInt(1 << 16)));
    }
  }

  /** The corpus the mails come from. */
  RawMailCorpus corpus() {
    return corpus;
  }

  /** The inbox names, in a fixed order. */
  InboxName[] inboxes() {
    return inboxes.clone();
  }

  /**
   * Delivery number {@code seq} of the stream (deterministic for a given {@code seq}); unique
   * deliveries differ for different {@code seq}s.
   */
  IncomingMessage delivery(long seq) {
    SplittableRandom random = new SplittableRandom(SEED * 1_000_003L + seq);
    InboxName to = inboxes[random.nextInt(INBOXES)];
    byte[] raw;
    String[] strings;
    if (random.nextInt(100) < BULK_PERCENT) {
      int campaign = random.nextInt(CAMPAIGNS);
      raw = withReceivedLine(campaigns[campaign], seq, to, false);
      strings = campaignStrings[campaign];
    } else {
      int mail = random.nextInt(unique.length);
      raw = withReceivedLine(unique[mail], seq, to, true);
      strings = uniqueStrings[mail];
    }
    return new IncomingMessage(
        raw,
        copy(strings[0]),
        List.of(to),
        Instant.now(),
        copy(strings[1]),
        copy(strings[2]),
        SpamVerdict.CLEAN);
  }

  /** A string equal to {@code s} with an array of its own ({@code new String(s)} shares it). */
  static String copy(String s) {
    return new String(s.toCharArray());
  }

  /**
   * {@code m} with the strings the service records for it, which the store keeps beside the mail:
   * its envelope sender (the {@code Return-Path} the corpus's mail has, else its {@code From}
   * address), its {@code From} and its {@code Subject}, decoded. Its verdict stays as it is.
   */
  static IncomingMessage withItsHeaders(IncomingMessage m) {
    String[] strings = strings(m.raw());
    return new IncomingMessage(
        m.raw(), strings[0], m.recipients(), m.receivedAt(), strings[1], strings[2], m.verdict());
  }

  /**
   * The envelope sender, {@code From} and {@code Subject} {@link #withItsHeaders} takes from a raw
   * mail; a fixed sender and empty strings for headers the parser refuses.
   */
  private static String[] strings(byte[] raw) {
    try {
      InternetHeaders headers = new InternetHeaders(new ByteArrayInputStream(raw));
      String from = decoded(headers.getHeader("From", null));
      String returnPath = decoded(headers.getHeader("Return-Path", null)).replaceAll("[<>\\s]", "");
      String sender = returnPath.isEmpty() ? from.replaceAll(".*<|>.*", "") : returnPath;
      return new String[] {sender, from, decoded(headers.getHeader("Subject", null))};
    } catch (MessagingException e) {
      return new String[] {"sender@example.org", "", ""};
    }
  }

  private static String decoded(String header) {
    if (header == null) {
      return "";
    }
    try {
      return MimeUtility.decodeText(MimeUtility.unfold(header)).strip();
    } catch (UnsupportedEncodingException e) {
      return header.strip();
    }
  }

  private static byte[] withReceivedLine(byte[] mail, long seq, InboxName to, boolean trailer) {
    byte[] line =
        String.format(
                "Received: from mail.example.org (mail.example.org [198.51.100.7])\r\n"
                    + "\tby mx.burnbox.dev with ESMTP id %016x for <%s@burnbox.dev>;\r\n",
                seq, to.value())
            .getBytes(StandardCharsets.US_ASCII);
    byte[] end =
        trailer
            ? String.format("\r\nref %016x\r\n", seq).getBytes(StandardCharsets.US_ASCII)
            : new byte[0];
    byte[] out = new byte[line.length + mail.length + end.length];
    System.arraycopy(line, 0, out, 0, line.length);
    System.arraycopy(mail, 0, out, line.length, mail.length);
    System.arraycopy(end, 0, out, line.length + mail.length, end.length);
    return out;
  }

  /**
   * The codecs compared: no compression (the baseline) and the store's default (zstd-6 with trained
   * dictionaries, here with the policy the default gives a budget of 64 MiB or more).
   */
  enum Codec {
    /** No compression: the baseline. */
    IDENTITY("identity"),
    /** zstd level 6 with dictionaries trained from the first mails stored: the default. */
    ZSTD_6_TRAINED("zstd-6+trained");

    private final String label;

    Codec(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }

    static Codec byLabel(String label) {
      for (Codec c : values()) {
        if (c.label.equals(label)) {
          return c;
        }
      }
      throw new IllegalArgumentException("unknown codec " + label);
    }

    /**
     * A fresh codec. The adaptive one trains on a single background thread, as a store would; it
     * starts without a dictionary and trains its first after 1,000 bodies.
     */
    BodyCodec create() {
      return switch (this) {
        case IDENTITY -> BodyCodec.identity();
        case ZSTD_6_TRAINED ->
            ZstdCodec.adaptive(
                ZstdCodec.RECOMMENDED_LEVEL,
                Executors.newSingleThreadExecutor(
                    r -> {
                      Thread t = new Thread(r, "dictionary-trainer");
                      t.setDaemon(true);
                      return t;
                    }));
      };
    }
  }
}
