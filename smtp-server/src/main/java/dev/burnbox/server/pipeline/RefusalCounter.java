package dev.burnbox.server.pipeline;

import dev.burnbox.server.smtp.LogText;
import dev.burnbox.server.smtp.LogWindow;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;

/**
 * Counts refusals by reason in a Micrometer counter and logs them without flooding the log: per
 * reason at most one line every {@value #LOG_INTERVAL_SECONDS} seconds, which says how many were
 * not logged since the previous line. A spammer hammering the server therefore costs a few log
 * lines a minute, not one per attempt.
 *
 * <p>Thread-safe.
 */
public final class RefusalCounter {
  /** The shortest time between two log lines for one reason. */
  public static final long LOG_INTERVAL_SECONDS = 10;

  private final MeterRegistry registry;
  private final String metricName;
  private final Logger log;
  private final ConcurrentMap<String, Reason> reasons = new ConcurrentHashMap<>();

  private record Reason(Counter counter, LogWindow logWindow) {}

  /**
   * @param metricName the counter's name; each reason is a {@code reason} tag
   * @param log where refusals are logged, at INFO
   */
  public RefusalCounter(MeterRegistry registry, String metricName, Logger log) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.metricName = Objects.requireNonNull(metricName, "metricName");
    this.log = Objects.requireNonNull(log, "log");
  }

  /**
   * Counts one refusal for {@code reason} (a short snake_case word: it becomes a metric tag) and
   * logs {@code detail} unless a line for this reason was logged recently. {@code detail} may hold
   * client text: it is escaped and shortened by {@link LogText#printable}.
   */
  public void count(String reason, String detail) {
    Reason r =
        reasons.computeIfAbsent(
            reason,
            k ->
                new Reason(
                    Counter.builder(metricName)
                        .description("refusals by reason")
                        .tag("reason", k)
                        .register(registry),
                    new LogWindow(LOG_INTERVAL_SECONDS)));
    r.counter().increment();
    long skipped = r.logWindow().admit(System.nanoTime());
    if (skipped == 0) {
      log.info("refused ({}): {}", reason, LogText.printable(detail));
    } else if (skipped > 0) {
      log.info(
          "refused ({}): {} (and {} more not logged)", reason, LogText.printable(detail), skipped);
    }
  }

  /** How many refusals were counted for {@code reason}. */
  public long total(String reason) {
    Reason r = reasons.get(reason);
    return r == null ? 0 : (long) r.counter().count();
  }
}
