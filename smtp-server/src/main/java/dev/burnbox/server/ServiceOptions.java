package dev.burnbox.server;

import dev.burnbox.server.config.OptionCatalog;
import dev.burnbox.server.config.OptionValues;
import dev.burnbox.server.config.WhenUnset;
import java.net.InetAddress;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options of {@code burnbox serve} that concern the whole service rather than one part of it,
 * each declared once here (see {@link OptionCatalog}). A picocli mixin; not thread-safe until
 * parsed.
 */
final class ServiceOptions {
  private static final ServiceOptions DEFAULTS = OptionCatalog.defaults(new ServiceOptions());

  @Option(names = "--bind", paramLabel = "ADDRESS", description = "address both servers listen on")
  @WhenUnset("every interface")
  String bind;

  @Option(
      names = "--shutdown-grace",
      paramLabel = "DURATION",
      defaultValue = "30s",
      converter = OptionValues.Durations.class,
      description = "how long sessions in flight may finish on SIGTERM")
  Duration shutdownGrace;

  /** These options without a command line or environment: every one at its default. */
  static ServiceOptions defaults() {
    return DEFAULTS;
  }

  /**
   * {@code --bind} resolved, or null for every interface.
   *
   * @throws IllegalArgumentException if the address cannot be resolved
   */
  InetAddress bindAddress() {
    return bind == null || bind.isBlank() ? null : OptionValues.parseAddress(bind);
  }
}
