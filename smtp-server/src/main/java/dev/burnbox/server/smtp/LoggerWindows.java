package dev.burnbox.server.smtp;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.util.function.LongSupplier;

/**
 * What every log throttle of Burnbox shares: which events it throttles (warnings and errors of the
 * loggers under some name prefixes, not level checks) and one {@link LogWindow} per level for them.
 * Thread-safe.
 */
public final class LoggerWindows {
  /** {@link #admit}'s answer for an event these windows do not throttle. */
  public static final long NOT_THROTTLED = Long.MIN_VALUE;

  private final LogWindow warnings;
  private final LogWindow errors;
  private final LongSupplier nanoClock;
  private final String[] prefixes;

  /**
   * @param seconds the shortest time between two admitted events of one level
   * @param nanoClock the time, as {@link System#nanoTime()}
   * @param prefixes the logger names throttled start with one of these
   */
  public LoggerWindows(long seconds, LongSupplier nanoClock, String... prefixes) {
    this.warnings = new LogWindow(seconds);
    this.errors = new LogWindow(seconds);
    this.nanoClock = nanoClock;
    this.prefixes = prefixes.clone();
  }

  /**
   * For a warning or error of a throttled logger: what its level's {@link LogWindow#admit} says
   * (how many were left out since the last admitted one, or negative to leave this one out); for
   * anything else, including a level check ({@code format} null), {@link #NOT_THROTTLED}.
   */
  public long admit(Logger logger, Level level, String format) {
    if (format == null || level == null || !level.isGreaterOrEqual(Level.WARN)) {
      return NOT_THROTTLED;
    }
    for (String prefix : prefixes) {
      if (logger.getName().startsWith(prefix)) {
        LogWindow window = level.isGreaterOrEqual(Level.ERROR) ? errors : warnings;
        return window.admit(nanoClock.getAsLong());
      }
    }
    return NOT_THROTTLED;
  }
}
