package dev.burnbox.server.smtp;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * How the intake answers SMTP AUTH ({@code --smtp-auth}): not at all, by accepting any user and
 * password (so that applications configured with credentials can send), or by checking them against
 * an htpasswd file of bcrypt hashes. Immutable.
 *
 * @param mode which of the three
 * @param credentials the htpasswd file of {@link Mode#CREDENTIALS}, else null
 */
public record SmtpAuth(Mode mode, Path credentials) {
  /** Not offered: AUTH gets 502 5.5.1. */
  public static final SmtpAuth OFF = new SmtpAuth(Mode.OFF, null);

  /** Any user and password are taken; a client gains nothing by them but being able to send. */
  public static final SmtpAuth ACCEPT_ANY = new SmtpAuth(Mode.ACCEPT_ANY, null);

  /** The three ways. */
  public enum Mode {
    OFF,
    ACCEPT_ANY,
    CREDENTIALS
  }

  /**
   * @throws NullPointerException if the mode is null, or the file is null with {@link
   *     Mode#CREDENTIALS}
   * @throws IllegalArgumentException if a file is given with another mode
   */
  public SmtpAuth {
    Objects.requireNonNull(mode, "mode");
    if (mode == Mode.CREDENTIALS) {
      Objects.requireNonNull(credentials, "credentials");
    } else if (credentials != null) {
      throw new IllegalArgumentException("a credentials file goes with the credentials mode");
    }
  }

  /** {@code off}, {@code accept-any}, or the path of an htpasswd file. */
  public static SmtpAuth parse(String text) {
    String value = text.strip();
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "off" -> OFF;
      case "accept-any" -> ACCEPT_ANY;
      default -> {
        if (value.isEmpty()) {
          throw new IllegalArgumentException(
              "--smtp-auth must be off, accept-any or an htpasswd file");
        }
        yield new SmtpAuth(Mode.CREDENTIALS, Path.of(value));
      }
    };
  }

  /** As {@link #parse} reads it. */
  @Override
  public String toString() {
    return switch (mode) {
      case OFF -> "off";
      case ACCEPT_ANY -> "accept-any";
      case CREDENTIALS -> credentials.toString();
    };
  }
}
