package dev.burnbox.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import dev.burnbox.server.smtp.SubEthaLogThrottle;
import dev.burnbox.server.web.WebLogThrottle;
import java.util.Map;
import org.slf4j.Logger;

/**
 * The service's logging, set up in code (logback finds this class through {@code
 * META-INF/services}): one line per event on standard error, {@code HH:mm:ss.SSS LEVEL logger -
 * message}; Burnbox's own loggers at {@code BURNBOX_LOG_LEVEL} (environment variable or system
 * property, default INFO; {@code serve} refuses a value that names no level, see {@link #level}),
 * everything else at WARN; SubEtha's and the web framework's warnings throttled ({@link
 * SubEthaLogThrottle}, {@link WebLogThrottle}). Parsing a {@code logback.xml} for the same took a
 * tenth of a start.
 *
 * <p>A configuration of one's own still wins, as logback documents: {@code
 * -Dlogback.configurationFile=FILE}, or a {@code logback-test.xml} or {@code logback.xml} on the
 * class path (an application that embeds Burnbox, Burnbox's own tests).
 */
public final class BurnboxLogging extends ContextAwareBase implements Configurator {
  /** The line layout. */
  public static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n";

  /** The variable (or system property) that sets Burnbox's own log level. */
  public static final String LEVEL_VARIABLE = "BURNBOX_LOG_LEVEL";

  /**
   * The level {@value #LEVEL_VARIABLE} asks for: the system property of that name, else the
   * variable of {@code environment}; INFO when neither is set. Any case.
   *
   * @throws IllegalArgumentException if it names no level; the message names the variable and the
   *     levels
   */
  public static Level level(Map<String, String> environment) {
    String text = System.getProperty(LEVEL_VARIABLE, environment.get(LEVEL_VARIABLE));
    if (text == null || text.isBlank()) {
      return Level.INFO;
    }
    Level level = Level.toLevel(text, null);
    if (level == null) {
      throw new IllegalArgumentException(
          LEVEL_VARIABLE
              + ": not a log level: '"
              + text
              + "' (one of OFF, ERROR, WARN, INFO, DEBUG, TRACE, ALL)");
    }
    return level;
  }

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null
        || resource("logback-test.xml")
        || resource("logback.xml")) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    configureService(context);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  private static boolean resource(String name) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = BurnboxLogging.class.getClassLoader();
    }
    return loader.getResource(name) != null;
  }

  /** Sets {@code context} up as the service logs, whatever the class path holds. */
  public static void configureService(LoggerContext context) {
    for (TurboFilter filter : new TurboFilter[] {new SubEthaLogThrottle(), new WebLogThrottle()}) {
      filter.setContext(context);
      filter.start();
      context.addTurboFilter(filter);
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    Level level;
    try {
      level = level(System.getenv());
    } catch (IllegalArgumentException e) {
      level = Level.INFO; // nothing can stop here: serve refuses it (ServeCommand)
    }
    context.getLogger("dev.burnbox").setLevel(level);
    context.getLogger("org.subethamail").setLevel(Level.WARN);
    context.getLogger("org.eclipse.jetty").setLevel(Level.WARN);
    context.getLogger("io.javalin").setLevel(Level.WARN);
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(stderr);
  }
}
