package dev.burnbox.bench.smtp;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * What one scenario measured, safe to record into from many threads at once: every transaction's
 * latency (microseconds, 3 significant digits, up to 10 minutes), every time to greeting, and a
 * count per outcome: the reply code ({@code 250}, {@code 421}, ...) or the client-side failure
 * ({@code io}, {@code timeout}).
 */
public final class TransactionTally {
  private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(10);

  private final Histogram latency = new ConcurrentHistogram(MAX_MICROS, 3);
  private final Histogram greeting = new ConcurrentHistogram(MAX_MICROS, 3);
  private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
  private final LongAdder accepted = new LongAdder();

  /** Records one finished transaction: its final reply code and how long it took. */
  public void transaction(int code, long nanos) {
    latency.recordValue(Math.min(MAX_MICROS, Math.max(0, nanos / 1000)));
    if (code / 100 == 2) {
      accepted.increment();
    }
    outcome(Integer.toString(code));
  }

  /** Records how long a connection waited for its greeting. */
  public void greeting(long nanos) {
    greeting.recordValue(Math.min(MAX_MICROS, Math.max(0, nanos / 1000)));
  }

  /** Counts one outcome that is not a transaction's reply, e.g. {@code io} or a greeting's 421. */
  public void outcome(String outcome) {
    outcomes.computeIfAbsent(outcome, k -> new LongAdder()).increment();
  }

  /** Transactions the server accepted (2xx). */
  public long accepted() {
    return accepted.sum();
  }

  /** Every outcome with its count, sorted by name. */
  public Map<String, Long> outcomes() {
    Map<String, Long> counts = new TreeMap<>();
    outcomes.forEach((k, v) -> counts.put(k, v.sum()));
    return counts;
  }

  /** A copy of the transaction latencies (microseconds). */
  public Histogram latency() {
    return latency.copy();
  }

  /** A copy of the times to greeting (microseconds). */
  public Histogram greetings() {
    return greeting.copy();
  }
}
