package dev.burnbox.server;

import dev.burnbox.server.config.BurnboxVersion;
import java.io.PrintWriter;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterExceptionHandler;

/**
 * The {@code burnbox} command line: the entry point of the runnable jar. With no arguments it runs
 * the service on its defaults ({@code burnbox serve}).
 *
 * <p>Exit codes: 0 on success; 1 when {@code scan} cannot read an input or the service cannot start
 * for a reason that is no setting's (a port in use); 2 on bad options (for {@code serve}, one line
 * saying which and why, a file a setting names that cannot be read included; for the others, with a
 * usage message). Enum values (e.g. {@code --threads}) are case-insensitive.
 */
@Command(
    name = "burnbox",
    mixinStandardHelpOptions = true,
    versionProvider = BurnboxVersion.Provider.class,
    description =
        "Burnbox: a disposable-mail service. With no command (or only options), runs `serve`.")
public final class BurnboxCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Runs the command line and exits the JVM with its exit code. */
  public static void main(String[] args) {
    // Reflection through the JDK's native accessors instead of method handles spun for each
    // shape: picocli's options and the settings records are read by reflection once, at start,
    // and spinning those handles was a tenth of the time to /healthz (docs/benchmarks.md,
    // "Ready in 0.53 s"); nothing on the path of a mail or a page calls reflection. Set before the
    // first reflective call; a -D on the command line wins. Only here: a JVM that embeds
    // Burnbox keeps its own setting.
    if (System.getProperty("jdk.reflect.useNativeAccessorOnly") == null) {
      System.setProperty("jdk.reflect.useNativeAccessorOnly", "true");
    }
    System.exit(run(args));
  }

  /** Runs the command line on stdout and stderr and returns its exit code. */
  public static int run(String... args) {
    return commandLine().execute(withDefaultCommand(args));
  }

  /** Runs the command line writing to {@code out} and {@code err}; returns its exit code. */
  static int run(PrintWriter out, PrintWriter err, String... args) {
    return commandLine().setOut(out).setErr(err).execute(withDefaultCommand(args));
  }

  private static CommandLine commandLine() {
    CommandLine serve = new ServeCommand().commandLine();
    CommandLine burnbox =
        new CommandLine(new BurnboxCli())
            .addSubcommand("serve", serve)
            .addSubcommand(ScanCommand.class)
            .addSubcommand(StartupTrainingCommand.class)
            .setCaseInsensitiveEnumValuesAllowed(true);
    // execute() hands every bad option to the top command's handler: serve's go on to its own,
    // which says what is wrong in one line (OptionErrors)
    IParameterExceptionHandler usual = burnbox.getParameterExceptionHandler();
    IParameterExceptionHandler serveErrors = serve.getParameterExceptionHandler();
    return burnbox.setParameterExceptionHandler(
        (e, args) ->
            (e.getCommandLine() == serve ? serveErrors : usual).handleParseException(e, args));
  }

  /**
   * No command means {@code serve}: {@code ./burnbox} starts the service, and so does {@code
   * ./burnbox --smtp-port=25} (options only; {@code --help} and {@code --version} stay the whole
   * command line's).
   */
  static String[] withDefaultCommand(String[] args) {
    if (args.length > 0 && !(args[0].startsWith("-") && !HELP_AND_VERSION.contains(args[0]))) {
      return args;
    }
    String[] serve = new String[args.length + 1];
    serve[0] = "serve";
    System.arraycopy(args, 0, serve, 1, args.length);
    return serve;
  }

  private static final Set<String> HELP_AND_VERSION = Set.of("-h", "--help", "-V", "--version");

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
