package dev.burnbox.server.smtp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place refusals are counted and logged: each {@link Refusal}, the intake's own and those
 * its acceptor (the pipeline, for itself and the store) answers, on {@value #METRIC}{@code {stage,
 * reason}} (every reason registered from the start, so a dashboard sees zeros, not gaps), and in a
 * log line, at most one per reason per {@link #LOG_WINDOW_SECONDS} seconds so a flood of bad
 * clients cannot flood the log; the next line logged for a reason says how many were left out. The
 * client text in a line passes through {@link LogText#printable}, so it cannot forge or break log
 * lines. Thread-safe.
 */
final class Refusals {
  static final long LOG_WINDOW_SECONDS = 10;

  /** The counter's name; Prometheus shows it as {@code burnbox_refusals_total}. */
  static final String METRIC = "burnbox.refusals";

  private static final Logger log = LoggerFactory.getLogger(Refusals.class);

  private final Map<Refusal, Counter> counters = new EnumMap<>(Refusal.class);
  private final Map<Refusal, LogWindow> windows = new EnumMap<>(Refusal.class);
  private final LongSupplier nanoClock;

  Refusals(MeterRegistry registry, LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    for (Refusal refusal : Refusal.values()) {
      counters.put(
          refusal,
          Counter.builder(METRIC)
              .description("connections, commands and messages refused, by stage and reason")
              .tag("stage", refusal.stage().tag())
              .tag("reason", refusal.tag())
              .register(registry));
      windows.put(refusal, new LogWindow(LOG_WINDOW_SECONDS));
    }
  }

  /**
   * Records one refusal and returns its reply.
   *
   * @param detail what was refused, for the log (e.g. the recipient); may be empty
   */
  SmtpReply record(Refusal refusal, InetAddress client, String detail) {
    return record(refusal.because(detail), client);
  }

  /** Records one refusal and returns its reply, which the log line shows as sent. */
  SmtpReply record(Refused refused, InetAddress client) {
    Refusal refusal = refused.refusal();
    String detail = refused.detail();
    counters.get(refusal).increment();
    long suppressed = windows.get(refusal).admit(nanoClock.getAsLong());
    if (suppressed >= 0) {
      log.info(
          "refused {} from {}{}: {}{}",
          refusal.tag(),
          client == null ? "?" : client.getHostAddress(),
          detail.isEmpty() ? "" : " (" + LogText.printable(detail) + ")",
          refused.reply(),
          suppressed == 0
              ? ""
              : " [" + suppressed + " more " + refusal.tag() + " refusals not logged]");
    }
    return refused.reply();
  }
}
