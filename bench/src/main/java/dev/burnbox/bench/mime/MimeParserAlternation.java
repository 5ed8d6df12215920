package dev.burnbox.bench.mime;

import dev.burnbox.server.mime.DecodedMail;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A check of {@link MimeDecodeBenchmark} for a shared, noisy machine: the parsers take turns in one
 * JVM, one corpus pass each per round, so that load from other processes falls on all of them
 * alike; prints the median and the best pass per parser over the last two thirds of the rounds. A
 * fourth contestant, {@code mime4j+scanText}, adds {@link DecodedMail#scanText()} (jsoup), the
 * scanner's whole cost per message.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar
 * dev.burnbox.bench.mime.MimeParserAlternation [ROUNDS]} (default 45, about 1 minute).
 */
public final class MimeParserAlternation {
  private MimeParserAlternation() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 45;
    MimeBenchMails corpus = MimeBenchMails.locate();
    Map<String, Function<byte[], String>> decoders = new LinkedHashMap<>();
    for (String impl : List.of("mime4j", "mime4j-dom", "jakarta")) {
      decoders.put(impl, MimeDecodeBenchmark.decoder(impl).andThen(DecodedMail::text));
    }
    decoders.put(
        "mime4j+scanText", MimeDecodeBenchmark.decoder("mime4j").andThen(DecodedMail::scanText));
    Map<String, List<Double>> millis = new LinkedHashMap<>();
    long checksum = 0;
    for (int round = 0; round < rounds; round++) {
      for (Map.Entry<String, Function<byte[], String>> decoder : decoders.entrySet()) {
        long start = System.nanoTime();
        for (byte[] mail : corpus.mails()) {
          checksum += decoder.getValue().apply(mail).length();
        }
        if (round >= rounds / 3) {
          millis
              .computeIfAbsent(decoder.getKey(), k -> new ArrayList<>())
              .add((System.nanoTime() - start) / 1e6);
        }
      }
    }
    System.out.println(corpus.describe() + "; checksum " + checksum);
    for (Map.Entry<String, List<Double>> entry : millis.entrySet()) {
      List<Double> sorted = new ArrayList<>(entry.getValue());
      Collections.sort(sorted);
      double median = sorted.get(sorted.size() / 2);
      System.out.printf(
          "%-15s median %6.1f ms/pass (%,6.0f msgs/s, %5.1f MB/s), best %6.1f ms, %d passes%n",
          entry.getKey(),
          median,
          corpus.mails().size() / (median / 1000),
          corpus.bytes() / 1e6 / (median / 1000),
          sorted.get(0),
          sorted.size());
    }
  }
}
