package dev.burnbox.server.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;

/**
 * Parsers for the human-friendly values of command-line options and environment variables: byte
 * sizes ({@code 10MiB}, {@code 512k}, {@code 1048576}), whole numbers in decimal, durations ({@code
 * 24h}, {@code 90s}, {@code 1h30m}, ISO-8601 {@code PT24H}) and bind addresses. Stateless and
 * thread-safe; errors are {@link IllegalArgumentException}s whose message picocli shows next to the
 * option.
 */
public final class OptionValues {
  private static final Pattern SIZE =
      Pattern.compile("(\\d+)\\s*(|b|k|kb|kib|m|mb|mib|g|gb|gib)", Pattern.CASE_INSENSITIVE);
  private static final Pattern WHOLE_NUMBER = Pattern.compile("[+-]?\\d+");
  private static final Pattern DURATION_PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private OptionValues() {}

  /**
   * Bytes from {@code 1048576}, {@code 512k}, {@code 10MiB}, {@code 2g}; k, m and g are binary
   * (1024-based) whatever the spelling, as for JVM heap sizes.
   */
  public static long parseBytes(String text) {
    return parseBytes(text, Long.MAX_VALUE);
  }

  /**
   * Bytes as {@link #parseBytes(String)} reads them, at most {@code max}.
   *
   * @throws IllegalArgumentException if it is no size, or a larger one; the message says the limit
   */
  private static long parseBytes(String text, long max) {
    Matcher m = SIZE.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "not a byte size: '" + text + "' (examples: 1048576, 512k, 10MiB, 2g)");
    }
    int shift =
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
          case "", "b" -> 0;
          case "k", "kb", "kib" -> 10;
          case "m", "mb", "mib" -> 20;
          default -> 30;
        };
    long value;
    try {
      value = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) { // only digits: too many of them
      throw tooLarge(text, max);
    }
    if (value > (max >> shift)) {
      throw tooLarge(text, max);
    }
    return value << shift;
  }

  private static IllegalArgumentException tooLarge(String size, long max) {
    return new IllegalArgumentException(
        "byte size too large: '" + size + "' (at most " + max + " bytes)");
  }

  /**
   * A whole number in decimal ({@code 010} is ten), as an {@code int} holds it.
   *
   * @throws IllegalArgumentException if it is not one, or out of the range of an {@code int}; the
   *     message says the limit
   */
  public static int parseInt(String text) {
    String digits = text.strip();
    if (!WHOLE_NUMBER.matcher(digits).matches()) {
      throw new IllegalArgumentException("not a whole number: '" + text + "'");
    }
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) { // only digits: too many of them
      throw new IllegalArgumentException(
          digits.startsWith("-")
              ? "too small: '" + text + "' (at least " + Integer.MIN_VALUE + ")"
              : "too large: '" + text + "' (at most " + Integer.MAX_VALUE + ")");
    }
  }

  /** A duration from {@code 24h}, {@code 90s}, {@code 1h30m}, {@code 250ms} or {@code PT24H}. */
  public static Duration parseDuration(String text) {
    String s = text.strip().toLowerCase(Locale.ROOT);
    if (s.startsWith("pt") || s.startsWith("p")) {
      try {
        return Duration.parse(s.toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        boolean overflow =
            e.getCause() instanceof ArithmeticException // digits it cannot hold
                || e.getCause() instanceof NumberFormatException;
        throw overflow ? durationTooLarge(text) : badDuration(text);
      }
    }
    Matcher m = DURATION_PART.matcher(s);
    Duration total = Duration.ZERO;
    int at = 0;
    while (at < s.length()) {
      if (!m.find(at) || m.start() != at) {
        throw badDuration(text);
      }
      try {
        long n = Long.parseLong(m.group(1));
        total =
            total.plus(
                switch (m.group(2)) {
                  case "ms" -> Duration.ofMillis(n);
                  case "s" -> Duration.ofSeconds(n);
                  case "m" -> Duration.ofMinutes(n);
                  case "h" -> Duration.ofHours(n);
                  default -> Duration.ofDays(n);
                });
      } catch (NumberFormatException | ArithmeticException e) { // digits a long cannot hold
        throw durationTooLarge(text);
      }
      at = m.end();
    }
    if (at == 0) {
      throw badDuration(text);
    }
    return total;
  }

  /**
   * {@code duration} as {@link #parseDuration} reads it, in its largest units: {@code 30s}, {@code
   * 1m30s}, {@code 1d2h}, {@code 250ms}, {@code 0s}; in ISO-8601 ({@code PT0.0001S}) if it is
   * negative or has a part below a millisecond.
   */
  public static String formatDuration(Duration duration) {
    if (duration.isNegative() || duration.getNano() % 1_000_000 != 0) {
      return duration.toString();
    }
    if (duration.isZero()) {
      return "0s";
    }
    StringBuilder out = new StringBuilder();
    long[] amounts = {
      duration.toDaysPart(),
      duration.toHoursPart(),
      duration.toMinutesPart(),
      duration.toSecondsPart(),
      duration.toMillisPart()
    };
    String[] units = {"d", "h", "m", "s", "ms"};
    for (int i = 0; i < units.length; i++) {
      if (amounts[i] != 0) {
        out.append(amounts[i]).append(units[i]);
      }
    }
    return out.toString();
  }

  /**
   * The address of a bind option: an IP literal or a host name, resolved.
   *
   * @throws IllegalArgumentException if it cannot be resolved
   */
  public static InetAddress parseAddress(String text) {
    try {
      return InetAddress.getByName(text.strip());
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("unknown bind address: " + text);
    }
  }

  private static IllegalArgumentException durationTooLarge(String text) {
    return new IllegalArgumentException("duration too large: '" + text + "'");
  }

  private static IllegalArgumentException badDuration(String text) {
    return new IllegalArgumentException(
        "not a duration: '" + text + "' (examples: 24h, 90s, 1h30m, 250ms, PT24H)");
  }

  /** Picocli converter for byte sizes. */
  public static final class Bytes implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      return parseBytes(value);
    }
  }

  /**
   * Picocli converter for a byte size or {@code auto}, which gives {@link #AUTO_BYTES}: the
   * setting's owner works the size out.
   */
  public static final class BytesOrAuto implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      return "auto".equalsIgnoreCase(value.strip()) ? AUTO_BYTES : parseBytes(value);
    }
  }

  /** What {@link BytesOrAuto} makes of {@code auto}. */
  public static final long AUTO_BYTES = -1;

  /**
   * Picocli converter for byte sizes held in an int, up to {@link #MAX}; a larger one is refused,
   * naming the limit.
   */
  public static final class IntBytes implements ITypeConverter<Integer> {
    /** The largest size it takes: the largest int but one, just under 2 GiB. */
    public static final int MAX = Integer.MAX_VALUE - 1;

    @Override
    public Integer convert(String value) {
      return (int) parseBytes(value, MAX);
    }
  }

  /** Picocli converter for bind addresses ({@link #parseAddress}); blank gives null. */
  public static final class Addresses implements ITypeConverter<InetAddress> {
    @Override
    public InetAddress convert(String value) {
      try {
        return value.isBlank() ? null : parseAddress(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** Picocli converter for durations. */
  public static final class Durations implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return parseDuration(value);
    }
  }
}
