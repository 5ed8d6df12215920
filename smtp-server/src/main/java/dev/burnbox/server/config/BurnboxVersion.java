package dev.burnbox.server.config;

import java.util.Objects;
import picocli.CommandLine;

/**
 * The version of this Burnbox, as the jar's manifest names it ({@code Implementation-Version}, the
 * Maven project version), or {@code development} when run from classes. One home for what {@code
 * --version} (through {@link Provider}), the SMTP greeting, the {@code Received:} field and {@code
 * /healthz} say.
 */
public final class BurnboxVersion {
  private static final String CURRENT =
      Objects.requireNonNullElse(
          BurnboxVersion.class.getPackage().getImplementationVersion(), "development");

  private BurnboxVersion() {}

  /** E.g. {@code 0.1.0-SNAPSHOT}, or {@code development}. */
  public static String current() {
    return CURRENT;
  }

  /**
   * What {@code --version} prints, {@code burnbox VERSION}: the version provider of every command
   * ({@code burnbox}, {@code serve}, {@code scan}), so each answers with the same line.
   */
  public static final class Provider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"burnbox " + current()};
    }
  }
}
