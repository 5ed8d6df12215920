package dev.burnbox.server.config;

import dev.burnbox.mailstore.UrlPasswords;
import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Everything derived from the declarations of {@code burnbox serve}'s options, so that each
 * option's name, default and meaning are written once. The options are the components of the
 * settings records ({@link OptionRecord}): {@code ServiceSettings} and the slices it is made of,
 * each beside the code it configures ({@code IntakeSettings}, {@code WebSettings}, {@code
 * StoreSettings}, {@code PipelineSettings}, {@code MimeSettings}, {@code Webhooks.Settings}).
 * Derived from them:
 *
 * <ul>
 *   <li>its environment variable, {@code BURNBOX_} and the option's name in upper case ({@code
 *       --smtp-port} is {@code BURNBOX_SMTP_PORT}), read as the option's default; the command line
 *       wins;
 *   <li>the option list of {@code --help}, each option with its variable and its default, its
 *       meaning as plain text (Markdown links read as their text);
 *   <li>{@code --print-settings}: every effective value and where it came from;
 *   <li>the README's option table ({@link #markdownTable}), which a test compares with the README;
 *   <li>the typed settings themselves, their defaults included: {@link OptionRecord#parse} reads
 *       the same declarations.
 * </ul>
 *
 * <p>A default that depends on the machine (the heap, the host name) has no {@code defaultValue}
 * but a {@link WhenUnset} saying it in words. Stateless; thread-safe.
 */
public final class OptionCatalog {
  private static final String PREFIX = "BURNBOX_";
  private static final String PRINT_SETTINGS = "--print-settings";

  /** A Markdown link, {@code [text](target)}: its text and its target. */
  private static final Pattern MARKDOWN_LINK = Pattern.compile("\\[([^\\]]+)\\]\\(([^)]+)\\)");

  /** Options whose values {@code --print-settings} hides, by their parameter label. */
  private static final Set<String> SECRET_LABELS = Set.of("PASSWORD", "SECRET");

  private OptionCatalog() {}

  /**
   * Makes {@code serve} read its defaults from {@code environment}, list its options with their
   * variables and defaults in {@code --help}, and report a bad value in one line naming the option
   * or variable that gave it ({@link OptionErrors}).
   */
  public static CommandLine install(CommandLine serve, Map<String, String> environment) {
    Objects.requireNonNull(environment, "environment");
    serve.setDefaultValueProvider(
        arg -> arg instanceof OptionSpec option ? fromEnvironment(option, environment) : null);
    serve.setParameterExceptionHandler(
        new OptionErrors(environment, "burnbox " + serve.getCommandName()));
    serve
        .getHelpSectionMap()
        .put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, OptionCatalog::optionList);
    return serve;
  }

  /** Whether an option of this parameter label holds a secret, which is never shown. */
  public static boolean isSecret(String paramLabel) {
    return SECRET_LABELS.contains(paramLabel);
  }

  /** The environment variable of {@code option}: {@code --smtp-port} gives BURNBOX_SMTP_PORT. */
  public static String variable(OptionSpec option) {
    return PREFIX
        + option.longestName().replaceFirst("^-+", "").replace('-', '_').toUpperCase(Locale.ROOT);
  }

  /**
   * The value {@code environment} gives {@code option} through its variable, or null when the
   * variable is unset or empty: an empty variable ({@code BURNBOX_NO_FILTERS=}) counts as unset, so
   * the option takes its default.
   */
  public static String fromEnvironment(OptionSpec option, Map<String, String> environment) {
    String value = environment.get(variable(option));
    return value == null || value.isEmpty() ? null : value;
  }

  /**
   * The options that are settings (not {@code --help}, {@code --version}, {@link #PRINT_SETTINGS}).
   */
  public static List<OptionSpec> settings(CommandSpec spec) {
    return spec.options().stream()
        .filter(o -> !o.usageHelp() && !o.versionHelp() && !o.longestName().equals(PRINT_SETTINGS))
        .toList();
  }

  /**
   * A warning for each {@code BURNBOX_*} variable of {@code environment} that is no option's
   * variable and not one of {@code others} (variables read elsewhere, such as the launcher's), in
   * name order; it names the known variable it looks like a misspelling of, if any: {@code
   * BURNBOX_SMTPPORT is no Burnbox setting and is ignored; did you mean BURNBOX_SMTP_PORT?}.
   */
  public static List<String> unknownVariables(
      CommandSpec spec, Map<String, String> environment, Set<String> others) {
    Set<String> known = new TreeSet<>(others);
    settings(spec).forEach(option -> known.add(variable(option)));
    return environment.keySet().stream()
        .filter(name -> name.startsWith(PREFIX) && !known.contains(name))
        .sorted()
        .map(
            name ->
                name
                    + " is no Burnbox setting and is ignored"
                    + closest(name, known).map(match -> "; did you mean " + match + "?").orElse(""))
        .toList();
  }

  /**
   * The name in {@code known} that {@code name} differs least from, if it differs by a few edits
   * (at most 3, and less than half the name after {@code BURNBOX_}): a misspelling, not another
   * name.
   */
  private static Optional<String> closest(String name, Set<String> known) {
    String tail = name.substring(PREFIX.length());
    String best = null;
    int bestDistance = Math.min(3, (tail.length() - 1) / 2);
    for (String candidate : known) {
      int distance = editDistance(tail, candidate.substring(PREFIX.length()));
      if (distance <= bestDistance) {
        best = candidate;
        bestDistance = distance - 1; // a later one must be strictly closer
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * Levenshtein distance: insertions, deletions and substitutions to turn {@code a} into {@code b}.
   */
  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  /** The default of {@code option} as a reader should see it: its text, or what unset means. */
  public static String defaultText(OptionSpec option) {
    String declared = option.defaultValue();
    if (declared != null) {
      return option.type() == boolean.class ? ("true".equals(declared) ? "on" : "off") : declared;
    }
    if (option.userObject() instanceof Field field && field.isAnnotationPresent(WhenUnset.class)) {
      return field.getAnnotation(WhenUnset.class).value();
    }
    return "none";
  }

  /** The meaning of {@code option}, as declared, with picocli's {@code %%} read as {@code %}. */
  public static String meaning(OptionSpec option) {
    return String.join(" ", option.description()).replace("%%", "%");
  }

  /**
   * {@code meaning} as plain text, for {@code --help}: a Markdown link is its text, followed by "in
   * the README" when it points into the README ({@code see [Metrics](#metrics)} reads "see Metrics
   * in the README").
   */
  static String plainText(String meaning) {
    return MARKDOWN_LINK
        .matcher(meaning)
        .replaceAll(
            link ->
                Matcher.quoteReplacement(
                    link.group(1) + (link.group(2).startsWith("#") ? " in the README" : "")));
  }

  /** How {@code option} is written with its value, e.g. {@code --smtp-port N}. */
  public static String synopsis(OptionSpec option) {
    return option.longestName() + (option.arity().max() > 0 ? " " + option.paramLabel() : "");
  }

  /** The README's option table: option, environment variable, default, meaning. */
  public static String markdownTable(CommandSpec spec) {
    StringBuilder out =
        new StringBuilder("| option | environment | default | meaning |\n|---|---|---|---|\n");
    for (OptionSpec option : settings(spec)) {
      out.append("| `")
          .append(synopsis(option).replace("|", "\\|"))
          .append("` | `")
          .append(variable(option))
          .append("` | ")
          .append(defaultText(option).replace("|", "\\|"))
          .append(" | ")
          .append(meaning(option).replace("|", "\\|"))
          .append(" |\n");
    }
    return out.toString();
  }

  /**
   * Prints every setting of a parsed {@code serve}: its value, and where it came from (the command
   * line, the environment, or the default). A switch shows as {@code on} or {@code off} and a
   * secret as {@code (hidden)}, or as what unset means when it is empty, as they run in {@code
   * effective} (the settings record built from the same options); passwords in URLs are masked. A
   * value given in words ({@code auto}, "this host's name", "a quarter of the heap") is followed by
   * what it resolved to in {@code effective}, where that has one, or in {@code workedOut}.
   *
   * @param workedOut what options left to the service's inputs came to, by option name, where
   *     {@code effective} cannot say: {@code --spam-threshold}, the model's own unless given
   */
  public static void printSettings(
      CommandLine serve,
      Map<String, String> environment,
      Record effective,
      Map<String, ?> workedOut,
      PrintWriter out) {
    CommandLine.ParseResult parsed = serve.getParseResult();
    TextTable table =
        TextTable.forColumns(
            Help.defaultColorScheme(Help.Ansi.OFF),
            new Column(32, 0, Column.Overflow.SPAN),
            new Column(62, 1, Column.Overflow.WRAP),
            new Column(36, 1, Column.Overflow.WRAP));
    table.addRowValues("option", "value", "from");
    for (OptionSpec option : settings(serve.getCommandSpec())) {
      String value;
      String source;
      if (parsed != null && parsed.hasMatchedOption(option)) {
        value = String.join(",", parsed.matchedOption(option.longestName()).stringValues());
        source = "command line";
      } else if (fromEnvironment(option, environment) != null) {
        value = fromEnvironment(option, environment);
        source = "environment " + variable(option);
      } else {
        value = defaultText(option);
        source = "default";
      }
      Object runs =
          workedOut.containsKey(option.longestName())
              ? workedOut.get(option.longestName())
              : inEffect(option, effective).orElse(option.getValue());
      table.addRowValues(option.longestName(), shown(option, value, runs), source);
    }
    out.print(table);
    out.flush();
  }

  /**
   * How {@link #printSettings} shows {@code option}, {@code given} as this text and running with
   * the value {@code runs}.
   */
  private static String shown(OptionSpec option, String given, Object runs) {
    if (option.type() == boolean.class) {
      return Boolean.TRUE.equals(runs) ? "on" : "off";
    }
    if (isSecret(option.paramLabel())) {
      return runs instanceof String secret && !secret.isBlank() ? "(hidden)" : defaultText(option);
    }
    String value = UrlPasswords.hide(given);
    return value.chars().noneMatch(Character::isDigit)
        ? value + resolved(option, value, runs)
        : value;
  }

  /**
   * " = VALUE": what {@code option}, {@code given} in words, resolved to ({@code runs}); "" if it
   * resolved to nothing (an optional setting left unset, an empty list), to the words themselves (a
   * list as given, its separators aside), or to a record of its own.
   */
  private static String resolved(OptionSpec option, String given, Object runs) {
    if (runs == null || runs instanceof Boolean || runs instanceof Record) {
      return "";
    }
    String text =
        switch (runs) {
          case Long bytes when "BYTES".equals(option.paramLabel()) ->
              "%d MiB (%d bytes)".formatted(bytes >> 20, bytes);
          case Collection<?> list ->
              list.stream().map(String::valueOf).collect(Collectors.joining(","));
          default -> String.valueOf(runs);
        };
    text = UrlPasswords.hide(text);
    boolean same =
        text.equalsIgnoreCase(given)
            || runs instanceof Collection<?>
                && text.equalsIgnoreCase(given.strip().replaceAll("[\\s,]+", ","));
    return text.isEmpty() || same ? "" : " = " + text;
  }

  /**
   * The value of {@code option} in {@code effective}: the component it declares, of the record in
   * {@code effective}'s tree that has it (an {@link Optional} component unwrapped); empty if there
   * is none or it is null.
   */
  private static Optional<Object> inEffect(OptionSpec option, Record effective) {
    if (!(option.userObject() instanceof Field field)) {
      return Optional.empty();
    }
    Record owner = find(effective, field.getDeclaringClass());
    if (owner == null) {
      return Optional.empty();
    }
    try {
      Object value = owner.getClass().getMethod(field.getName()).invoke(owner);
      return value instanceof Optional<?> optional
          ? optional.map(Object.class::cast)
          : Optional.ofNullable(value);
    } catch (ReflectiveOperationException e) {
      return Optional.empty();
    }
  }

  /** The record of {@code type} in the tree of records under {@code root}, or null. */
  private static Record find(Record root, Class<?> type) {
    if (type.isInstance(root)) {
      return root;
    }
    for (RecordComponent component : root.getClass().getRecordComponents()) {
      try {
        if (component.getAccessor().invoke(root) instanceof Record child) {
          Record found = find(child, type);
          if (found != null) {
            return found;
          }
        }
      } catch (ReflectiveOperationException e) {
        // not readable: not a settings record of ours
      }
    }
    return null;
  }

  private static String optionList(Help help) {
    int width = help.commandSpec().usageMessage().width();
    int left = 36;
    TextTable table =
        TextTable.forColumns(
            help.colorScheme(),
            new Column(left, 2, Column.Overflow.SPAN),
            new Column(width - left, 1, Column.Overflow.WRAP));
    List<OptionSpec> settings = settings(help.commandSpec());
    List<OptionSpec> others =
        help.commandSpec().options().stream().filter(o -> !settings.contains(o)).toList();
    for (OptionSpec option : Stream.concat(settings.stream(), others.stream()).toList()) {
      String names = String.join(", ", option.names());
      String label = option.arity().max() > 0 ? names + "=" + option.paramLabel() : names;
      String meaning = plainText(meaning(option));
      if (settings.contains(option)) {
        meaning += " (" + variable(option) + ", default " + defaultText(option) + ")";
      }
      table.addRowValues(label, meaning);
    }
    return table.toString();
  }
}
