package dev.burnbox.server;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code burnbox} command line: the entry point of the runnable jar.
 *
 * <p>Exit codes: 0 on success, 1 when an input cannot be read, 2 on bad options (with a usage
 * message).
 */
@Command(
    name = "burnbox",
    mixinStandardHelpOptions = true,
    versionProvider = BurnboxCli.Version.class,
    description = "Burnbox: a disposable-mail service.",
    subcommands = {ScanCommand.class})
public final class BurnboxCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Runs the command line and exits the JVM with its exit code. */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line on stdout and stderr and returns its exit code. */
  public static int run(String... args) {
    return new CommandLine(new BurnboxCli()).execute(args);
  }

  /** Runs the command line writing to {@code out} and {@code err}; returns its exit code. */
  static int run(PrintWriter out, PrintWriter err, String... args) {
    return new CommandLine(new BurnboxCli()).setOut(out).setErr(err).execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The version from the jar manifest, or "development" when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = BurnboxCli.class.getPackage().getImplementationVersion();
      return new String[] {"burnbox " + (version == null ? "development" : version)};
    }
  }
}
