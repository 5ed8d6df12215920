package dev.burnbox.server.web;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import dev.burnbox.server.smtp.LogText;
import dev.burnbox.server.smtp.LoggerWindows;
import java.util.function.LongSupplier;
import org.slf4j.Marker;
import org.slf4j.helpers.MessageFormatter;

/**
 * A logback filter for the web server's framework, Jetty ({@code org.eclipse.jetty.*}) and Javalin
 * ({@code io.javalin.*}): a client decides when they warn, and their warnings quote the client's
 * text verbatim (Jetty's {@code HostPort} logs every bad {@code Host} header, control characters
 * included). Their warnings and errors never reach the log as written: at most one per level per
 * {@link #WINDOW_SECONDS} seconds is logged again by this class's own logger, as {@code <logger>:
 * <message>} with the message, and the message of an attached exception, passed through {@link
 * LogText#printable} (control characters escaped, length bounded); its stack trace is kept. That
 * line says how many were left out since the previous one; the requests themselves are counted by
 * reason on {@code burnbox.http.refusals}. Installed by {@link dev.burnbox.server.BurnboxLogging};
 * other loggers are not affected. Thread-safe.
 */
public final class WebLogThrottle extends TurboFilter {
  /** The shortest time between two lines from the framework at one level. */
  public static final long WINDOW_SECONDS = 10;

  private static final int MAX_CAUSES = 8;

  private final LoggerWindows windows;

  /** The filter as the service's logging installs it, on {@link System#nanoTime()}. */
  public WebLogThrottle() {
    this(System::nanoTime);
  }

  WebLogThrottle(LongSupplier nanoClock) {
    this.windows = new LoggerWindows(WINDOW_SECONDS, nanoClock, "org.eclipse.jetty", "io.javalin");
  }

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    long suppressed = windows.admit(logger, level, format);
    if (suppressed == LoggerWindows.NOT_THROTTLED) {
      return FilterReply.NEUTRAL;
    }
    boolean error = level.isGreaterOrEqual(Level.ERROR);
    if (suppressed >= 0) {
      // with t null, a last parameter that is a Throwable is the exception, as logback takes it
      var formatted =
          t == null
              ? MessageFormatter.arrayFormat(format, params)
              : MessageFormatter.arrayFormat(format, params, t);
      String line =
          shortName(logger.getName())
              + ": "
              + LogText.printable(formatted.getMessage())
              + (suppressed == 0 ? "" : " [" + suppressed + " more not logged]");
      Throwable thrown = formatted.getThrowable() == null ? null : quoted(formatted.getThrowable());
      Logger own = logger.getLoggerContext().getLogger(WebLogThrottle.class);
      if (error) {
        own.error(line, thrown);
      } else {
        own.warn(line, thrown);
      }
    }
    return FilterReply.DENY;
  }

  /** {@code org.eclipse.jetty.util.HostPort} as {@code o.e.j.util.HostPort}. */
  private static String shortName(String name) {
    String[] parts = name.split("\\.");
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      boolean last = i == parts.length - 1;
      boolean kept = last || i == parts.length - 2;
      out.append(kept || parts[i].isEmpty() ? parts[i] : parts[i].substring(0, 1));
      if (!last) {
        out.append('.');
      }
    }
    return out.toString();
  }

  /**
   * A copy of {@code t} (and its causes) whose messages went through {@link LogText#printable},
   * with the same stack traces.
   */
  private static Throwable quoted(Throwable t) {
    return quoted(t, 0);
  }

  private static Throwable quoted(Throwable t, int depth) {
    Throwable cause = t.getCause();
    Quoted copy =
        new Quoted(
            t.getClass().getName() + ": " + LogText.printable(t.getMessage()),
            cause != null && cause != t && depth < MAX_CAUSES ? quoted(cause, depth + 1) : null);
    copy.setStackTrace(t.getStackTrace());
    return copy;
  }

  /** An exception shown by its (escaped) message alone, as the original class and message. */
  private static final class Quoted extends Throwable {
    Quoted(String message, Throwable cause) {
      super(message, cause, false, true);
    }

    @Override
    public String toString() {
      return getMessage();
    }
  }
}
