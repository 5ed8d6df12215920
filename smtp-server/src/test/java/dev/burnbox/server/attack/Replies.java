package dev.burnbox.server.attack;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Replies counted by code ({@code 250}, {@code 421}, {@code EOF}, {@code IOException}...). */
final class Replies {
  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  void count(String code) {
    counts.computeIfAbsent(code, k -> new LongAdder()).increment();
  }

  long get(String code) {
    LongAdder count = counts.get(code);
    return count == null ? 0 : count.sum();
  }

  long total() {
    return counts.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /** Counts whose code does not start with one of {@code prefixes}. */
  long otherThan(String... prefixes) {
    long other = 0;
    for (var entry : counts.entrySet()) {
      boolean listed = false;
      for (String prefix : prefixes) {
        listed |= entry.getKey().startsWith(prefix);
      }
      other += listed ? 0 : entry.getValue().sum();
    }
    return other;
  }

  @Override
  public String toString() {
    Map<String, Long> sorted = new TreeMap<>();
    counts.forEach((code, count) -> sorted.put(code, count.sum()));
    return sorted.toString();
  }
}
