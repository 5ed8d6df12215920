package dev.burnbox.server.config;

import dev.burnbox.mailstore.UrlPasswords;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * How {@code burnbox serve} reports a setting it refuses: one line, {@code burnbox: SETTING:
 * REASON}, then {@code Try 'burnbox serve --help'.}, exit code 2. SETTING is the setting as it was
 * given: its option, or its environment variable ({@code BURNBOX_TTL}) when the value came from
 * there; REASON is the converter's or the settings' own words (not picocli's "cannot convert" and
 * the exception's class), with a password in a URL hidden ({@link UrlPasswords#hide}). Other
 * mistakes (an unknown option, with picocli's suggestions; a missing value) are one line in
 * picocli's words. No usage text: {@code --help} has it. Stateless but for the environment;
 * thread-safe.
 */
public final class OptionErrors implements CommandLine.IParameterExceptionHandler {
  private final Map<String, String> environment;
  private final String command;

  /**
   * @param environment where the command reads its defaults (see {@link OptionCatalog#install})
   * @param command the command as typed, for the hint: {@code burnbox serve}
   */
  OptionErrors(Map<String, String> environment, String command) {
    this.environment = Map.copyOf(environment);
    this.command = Objects.requireNonNull(command, "command");
  }

  @Override
  public int handleParseException(ParameterException e, String[] args) {
    CommandLine line = e.getCommandLine();
    PrintWriter err = line.getErr();
    err.println("burnbox: " + describe(e, args));
    if (e instanceof UnmatchedArgumentException unmatched) {
      UnmatchedArgumentException.printSuggestions(unmatched, err);
    }
    err.println("Try '" + command + " --help'.");
    err.flush();
    return line.getCommandSpec().exitCodeOnInvalidInput();
  }

  /**
   * The refusal {@code refused} of a value the settings' constructors made, as picocli's error of
   * the option whose name begins its message ({@code --smtp-port must be 0 to 65535: 70000}), so
   * that it is reported as a bad value of that option is; a message that begins with no option's
   * name stays as it is.
   */
  public static ParameterException refusal(CommandLine serve, IllegalArgumentException refused) {
    String message = String.valueOf(refused.getMessage());
    OptionSpec named =
        OptionCatalog.settings(serve.getCommandSpec()).stream()
            .filter(option -> startsWithName(message, option.longestName()))
            .findFirst()
            .orElse(null);
    return named == null
        ? new ParameterException(serve, message, refused)
        : new ParameterException(serve, message, refused, named, null);
  }

  /**
   * The refusal of {@code file}, named by {@code option}, that cannot be read ({@code e} says why):
   * {@code OPTION: cannot read FILE: WHY} ({@link #why}). Such a setting is refused as a bad value
   * is ({@link #refusal}).
   */
  public static IllegalArgumentException unreadable(String option, Path file, IOException e) {
    return new IllegalArgumentException(option + ": cannot read " + file + ": " + why(e), e);
  }

  /**
   * Why a file could not be read, in words: "no such file", "permission denied", or the exception's
   * own (the others' name only the file).
   */
  public static String why(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** The line that says what is wrong, without the leading {@code burnbox: }. */
  String describe(ParameterException e, String[] args) {
    Throwable cause = e.getCause();
    boolean refusedValue = e.getArgSpec() instanceof OptionSpec && cause != null;
    String reason =
        refusedValue && cause.getMessage() != null ? cause.getMessage() : e.getMessage();
    if (e.getValue() != null && !e.getValue().isEmpty()) {
      reason = reason.replace(e.getValue(), UrlPasswords.hide(e.getValue()));
    }
    if (!refusedValue) {
      return reason;
    }
    OptionSpec option = (OptionSpec) e.getArgSpec();
    String name = option.longestName();
    String setting = fromEnvironment(option, args) ? OptionCatalog.variable(option) : name;
    return startsWithName(reason, name)
        ? setting + reason.substring(name.length())
        : setting + ": " + reason;
  }

  /**
   * Whether the value of {@code option} came from its environment variable: the variable is set and
   * not empty ({@link OptionCatalog#fromEnvironment}), and the command line does not give the
   * option (picocli reads a default only then).
   */
  private boolean fromEnvironment(OptionSpec option, String[] args) {
    if (OptionCatalog.fromEnvironment(option, environment) == null) {
      return false;
    }
    List<String> names = List.of(option.names());
    for (String arg : args) {
      int equals = arg.indexOf('=');
      if (names.contains(equals < 0 ? arg : arg.substring(0, equals))) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code text} begins with the option {@code name} as a whole word. */
  private static boolean startsWithName(String text, String name) {
    if (!text.startsWith(name)) {
      return false;
    }
    if (text.length() == name.length()) {
      return true;
    }
    char next = text.charAt(name.length());
    return !(Character.isLetterOrDigit(next) || next == '-');
  }
}
