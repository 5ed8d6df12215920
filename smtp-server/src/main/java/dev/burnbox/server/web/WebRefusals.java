package dev.burnbox.server.web;

import dev.burnbox.server.smtp.LogText;
import dev.burnbox.server.smtp.LogWindow;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts each {@link WebRefusal} on {@value #METRIC}{@code {stage="web", reason}} (every reason
 * registered from the start, so a dashboard sees zeros, not gaps) and logs it, at most one line per
 * reason per {@link #LOG_WINDOW_SECONDS} seconds; the next line logged for a reason says how many
 * were left out. A line names the reason, the client's address and a detail written by Burnbox,
 * passed through {@link LogText#printable}; it never quotes the request. Thread-safe.
 */
final class WebRefusals {
  /** The shortest time between two log lines for one reason. */
  static final long LOG_WINDOW_SECONDS = 10;

  /**
   * The counter's name, shared with the SMTP side; Prometheus shows {@code burnbox_refusals_total}.
   */
  static final String METRIC = "burnbox.refusals";

  private static final Logger log = LoggerFactory.getLogger(WebRefusals.class);

  private final Map<WebRefusal, Counter> counters = new EnumMap<>(WebRefusal.class);
  private final Map<WebRefusal, LogWindow> windows = new EnumMap<>(WebRefusal.class);
  private final LongSupplier nanoClock;

  WebRefusals(MeterRegistry registry, LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    for (WebRefusal refusal : WebRefusal.values()) {
      counters.put(
          refusal,
          Counter.builder(METRIC)
              .description("connections, commands and messages refused, by stage and reason")
              .tag("stage", WebRefusal.STAGE)
              .tag("reason", refusal.tag())
              .register(registry));
      windows.put(refusal, new LogWindow(LOG_WINDOW_SECONDS));
    }
  }

  /**
   * Records one refusal.
   *
   * @param client the client's address, or null if unknown
   * @param detail what happened, for the log; may be empty
   */
  void record(WebRefusal refusal, InetAddress client, String detail) {
    counters.get(refusal).increment();
    long suppressed = windows.get(refusal).admit(nanoClock.getAsLong());
    if (suppressed >= 0) {
      log.info(
          "refused {} from {}{}{}",
          refusal.tag(),
          client == null ? "?" : client.getHostAddress(),
          detail.isEmpty() ? "" : ": " + LogText.printable(detail),
          suppressed == 0
              ? ""
              : " [" + suppressed + " more " + refusal.tag() + " refusals not logged]");
    }
  }

  /** How many refusals for {@code refusal} were counted. */
  long count(WebRefusal refusal) {
    return (long) counters.get(refusal).count();
  }
}
