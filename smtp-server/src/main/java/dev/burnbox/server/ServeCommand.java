package dev.burnbox.server;

import com.github.luben.zstd.util.ZstdVersion;
import dev.burnbox.server.config.BurnboxVersion;
import dev.burnbox.server.config.OptionCatalog;
import dev.burnbox.server.config.OptionErrors;
import dev.burnbox.server.config.OptionRecord;
import dev.burnbox.server.config.OptionValues;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sun.misc.Signal;

/**
 * {@code burnbox serve} (and {@code burnbox} with no arguments): runs the service until SIGTERM or
 * SIGINT, then shuts down gracefully and exits 0. SIGHUP reloads the {@code --terms} file.
 *
 * <p>Its options are the components of {@link ServiceSettings} and its slices, declared once each
 * beside the code they configure (see {@link OptionRecord}); every option can also be set by an
 * environment variable named after it ({@code --smtp-port} is {@code BURNBOX_SMTP_PORT}); an option
 * on the command line wins (see {@link OptionCatalog}).
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    versionProvider = BurnboxVersion.Provider.class,
    sortOptions = false,
    description = {
      "Run the disposable-mail service: SMTP intake, spam scanning, in-memory inboxes, web inbox.",
      "Every option can also be set by the environment variable shown with it (an empty one"
          + " counts as unset); the command line wins. Sizes take k, m, g (binary: 10MiB, 512k); durations ms, s, m, h, d (90s,"
          + " 1h30m) or ISO-8601 (PT24H)."
    })
final class ServeCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private final OptionRecord<ServiceSettings> options = new OptionRecord<>(ServiceSettings.class);

  @Option(
      names = "--print-settings",
      description =
          "Print every setting's effective value and where it came from (default, environment,"
              + " command line), and exit; a setting serve would refuse (a bad value, a file it"
              + " cannot read) is refused in the same words instead, with a non-zero exit code,"
              + " and serve's warning that the limits allow more than the heap holds is logged."
              + " Binds no port.")
  boolean printSettings;

  private final Map<String, String> environment;

  /**
   * The {@code BURNBOX_*} variables that are no option of {@code serve} but are read elsewhere, as
   * the README documents them: by the logging ({@link BurnboxLogging#LEVEL_VARIABLE}), by the
   * launcher script {@code burnbox} ({@code BURNBOX_JAVA_OPTS}, {@code BURNBOX_AOT}) and by {@code
   * compose.yaml} ({@code BURNBOX_IMAGE}). Any other that no option declares is warned of at start.
   */
  static final Set<String> OTHER_VARIABLES =
      Set.of(BurnboxLogging.LEVEL_VARIABLE, "BURNBOX_JAVA_OPTS", "BURNBOX_AOT", "BURNBOX_IMAGE");

  /** A command that reads its defaults from the process's environment. */
  ServeCommand() {
    this(System.getenv());
  }

  /** A command that reads its defaults from {@code environment} (see {@link #commandLine}). */
  ServeCommand(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  /** The command line of this command, reading defaults from its environment. */
  CommandLine commandLine() {
    CommandLine line = new CommandLine(this).setCaseInsensitiveEnumValuesAllowed(true);
    line.getCommandSpec().addMixin("settings", options.spec());
    return OptionCatalog.install(line, environment);
  }

  @Override
  public Integer call() throws InterruptedException {
    ServiceSettings settings;
    try {
      BurnboxLogging.level(environment); // the logging took INFO for a bad one: refuse it here
      settings = settings();
    } catch (IllegalArgumentException e) {
      throw OptionErrors.refusal(spec.commandLine(), e);
    }
    OptionCatalog.unknownVariables(spec, environment, OTHER_VARIABLES).forEach(log::warn);
    if (printSettings) {
      // a check of the configuration: what serve would refuse is refused, in the same words
      double spamThreshold;
      try {
        spamThreshold = BurnboxService.check(settings);
      } catch (IllegalArgumentException e) { // a file a setting names: a bad setting
        throw OptionErrors.refusal(spec.commandLine(), e);
      } catch (RuntimeException e) {
        return cannotStart(e);
      }
      OptionCatalog.printSettings(
          spec.commandLine(),
          environment,
          settings,
          Map.of("--spam-threshold", spamThreshold),
          spec.commandLine().getOut());
      return 0;
    }
    // Signal handlers go in before the service takes mail: a SIGTERM that arrives as soon as the
    // first 250 has been sent must still stop it gracefully and save the snapshot.
    CountDownLatch stop = new CountDownLatch(1);
    AtomicReference<BurnboxService> running = new AtomicReference<>();
    Signal.handle(new Signal("TERM"), signal -> stop.countDown());
    Signal.handle(new Signal("INT"), signal -> stop.countDown());
    Signal.handle(
        new Signal("HUP"),
        signal -> {
          BurnboxService started = running.get();
          if (started != null) {
            started.reloadTerms();
          }
        });
    BurnboxService service;
    try {
      service = BurnboxService.start(settings);
    } catch (IllegalArgumentException e) { // a file a setting names: a bad setting
      throw OptionErrors.refusal(spec.commandLine(), e);
    } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
      return cannotStart(e);
    }
    running.set(service);
    stop.await();
    log.info(
        "stopping: finishing sessions in flight (at most {})",
        OptionValues.formatDuration(settings.shutdownGrace()));
    service.close();
    if (service.snapshotSaveFailed()) {
      log.error("stopped, but the snapshot could not be saved: the mail it held is lost");
      return 1;
    }
    log.info("stopped");
    return 0;
  }

  /**
   * Says in one line why the service cannot start, for what is no setting's fault (a port in use,
   * Redis with another partition count, no zstd library); the exit code, 1.
   */
  private int cannotStart(Throwable e) {
    spec.commandLine().getErr().println("burnbox: cannot start: " + describe(e));
    spec.commandLine().getErr().flush();
    return 1;
  }

  /**
   * The settings these options describe.
   *
   * @throws IllegalArgumentException if a value is invalid or the values disagree
   */
  ServiceSettings settings() {
    return options.value();
  }

  /**
   * Why the service could not start, in one line; when zstd's native library is missing (the jar
   * carries it for Linux on x86-64 and arm64 only), where to put the zstd-jni jar that has it.
   */
  static String describe(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (e instanceof UnsatisfiedLinkError && message.contains("zstd-jni")) {
      return "the jar has no zstd library for "
          + System.getProperty("os.name")
          + " on "
          + System.getProperty("os.arch")
          + ": put zstd-jni-"
          + ZstdVersion.VERSION
          + ".jar (Maven Central) in the folder of burnbox.jar ("
          + message.lines().findFirst().orElse(message)
          + ")";
    }
    return message;
  }
}
