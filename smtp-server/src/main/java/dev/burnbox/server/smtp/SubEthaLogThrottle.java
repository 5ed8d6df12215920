package dev.burnbox.server.smtp;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.function.LongSupplier;
import org.slf4j.Marker;

/**
 * A logback filter that lets through at most one warning and one error per {@link #WINDOW_SECONDS}
 * seconds from SubEtha SMTP ({@code org.subethamail.*}), and then says how many were left out. A
 * client decides when SubEtha logs: one forged TLS record after STARTTLS makes it log "Exception
 * during SMTP transaction" at WARN with a stack trace of some thirty lines, once per connection,
 * which would otherwise let anyone flood the log. Installed by {@link
 * dev.burnbox.server.BurnboxLogging}; other loggers are not affected. Thread-safe.
 */
public final class SubEthaLogThrottle extends TurboFilter {
  /** The shortest time between two lines SubEtha may log at one level. */
  public static final long WINDOW_SECONDS = 10;

  private final LoggerWindows windows;

  /** The filter as the service's logging installs it, on {@link System#nanoTime()}. */
  public SubEthaLogThrottle() {
    this(System::nanoTime);
  }

  SubEthaLogThrottle(LongSupplier nanoClock) {
    this.windows = new LoggerWindows(WINDOW_SECONDS, nanoClock, "org.subethamail");
  }

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    long suppressed = windows.admit(logger, level, format);
    if (suppressed == LoggerWindows.NOT_THROTTLED) {
      return FilterReply.NEUTRAL;
    }
    if (suppressed < 0) {
      return FilterReply.DENY;
    }
    if (suppressed > 0) {
      logger
          .getLoggerContext()
          .getLogger(SubEthaLogThrottle.class)
          .warn("{} more {} lines from SubEtha SMTP were not logged", suppressed, level);
    }
    return FilterReply.NEUTRAL;
  }
}
