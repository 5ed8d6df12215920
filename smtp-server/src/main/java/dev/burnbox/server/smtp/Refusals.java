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
 * Counts each refusal on {@code burnbox.smtp.refusals{reason}} and logs it, at most one line per
 * reason per {@link #LOG_WINDOW_SECONDS} seconds so a flood of bad clients cannot flood the log;
 * the next line logged for a reason says how many were left out. The client text in a line passes
 * through {@link LogText#printable}, so it cannot forge or break log lines. Thread-safe.
 */
final class Refusals {
  static final long LOG_WINDOW_SECONDS = 10;
  private static final Logger log = LoggerFactory.getLogger(Refusals.class);

  private final Map<Refusal, Counter> counters = new EnumMap<>(Refusal.class);
  private final Map<Refusal, LogWindow> windows = new EnumMap<>(Refusal.class);
  private final LongSupplier nanoClock;

  Refusals(MeterRegistry registry, LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    for (Refusal refusal : Refusal.values()) {
      counters.put(
          refusal,
          Counter.builder("burnbox.smtp.refusals")
              .description("SMTP commands and connections refused by the intake")
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
    counters.get(refusal).increment();
    long suppressed = windows.get(refusal).admit(nanoClock.getAsLong());
    if (suppressed >= 0) {
      log.info(
          "refused {} from {}{}: {}{}",
          refusal.tag(),
          client == null ? "?" : client.getHostAddress(),
          detail.isEmpty() ? "" : " (" + LogText.printable(detail) + ")",
          refusal.reply(),
          suppressed == 0
              ? ""
              : " [" + suppressed + " more " + refusal.tag() + " refusals not logged]");
    }
    return refusal.reply();
  }
}
