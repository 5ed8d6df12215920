package dev.burnbox.server.config;

import java.util.Objects;

/**
 * The version of this Burnbox, as the jar's manifest names it ({@code Implementation-Version}, the
 * Maven project version), or {@code development} when run from classes. One home for what {@code
 * --version}, the SMTP greeting, the {@code Received:} field and {@code /healthz} say.
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
}
