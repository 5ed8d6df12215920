package dev.burnbox.bench.smtp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The SMTP load generator's command line. {@code blast}, {@code idle-many} and {@code slow-clients}
 * run one scenario against a server already listening on loopback and print a markdown table;
 * {@code profile quick|full} starts every server mode in turn, runs all three scenarios against
 * each and writes the report (see {@link SmtpBenchProfile}); {@code stores} runs blast against the
 * service on the memory and the Redis store (see {@link StoreBlastProfile}). Every command stops by
 * itself: each point is bounded in time.
 */
@Command(
    name = "smtp-load",
    mixinStandardHelpOptions = true,
    subcommands = {
      SmtpLoadBench.Blast.class,
      SmtpLoadBench.IdleMany.class,
      SmtpLoadBench.SlowClients.class,
      SmtpLoadBench.Profile.class,
      SmtpLoadBench.Stores.class
    },
    description = "SMTP load generator for loopback servers.")
public final class SmtpLoadBench {
  private SmtpLoadBench() {}

  public static void main(String[] args) {
    System.exit(
        new CommandLine(new SmtpLoadBench())
            .setCaseInsensitiveEnumValuesAllowed(true)
            .execute(args));
  }

  /** Reads {@code 1500ms}, {@code 2s} or {@code 1m}, and ISO-8601 ({@code PT2S}). */
  static final class Durations implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("(\\d+)(ms|s|m)").matcher(value.strip());
      if (!m.matches()) {
        return Duration.parse(value);
      }
      long amount = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        default -> Duration.ofMinutes(amount);
      };
    }
  }

  /** Options shared by the single-scenario commands: which server, which mail. */
  static final class TargetOptions {
    @Option(names = "--port", required = true, description = "SMTP port on 127.0.0.1.")
    int port;

    @Option(
        names = "--server-pid",
        defaultValue = "-1",
        description = "Server process id, to read its CPU time and RSS from /proc (default none).")
    long serverPid;

    @Option(names = "--label", defaultValue = "server", description = "Server name in the table.")
    String label;

    @Option(
        names = "--size",
        defaultValue = "2048",
        description = "Mail size in bytes, text cut from the corpus (default ${DEFAULT-VALUE}).")
    int size;

    @Option(
        names = "--whole-corpus",
        description = "Send the corpus's mails whole instead of --size pieces.")
    boolean wholeCorpus;

    @Option(
        names = "--unique",
        description =
            "Make every mail sent differ from all others by a line of its own at the top of"
                + " its body, as a mail merge does: no verdict is reused for a copy.")
    boolean unique;

    @Option(
        names = "--sources",
        defaultValue = "4",
        description = "Client source addresses 127.0.0.1 to 127.0.0.N (default ${DEFAULT-VALUE}).")
    int sources;

    @Option(
        names = "--no-pipelining",
        description = "Send MAIL, RCPT and DATA one at a time even if PIPELINING is offered.")
    boolean noPipelining;

    LoadScenarios scenarios() {
      LoadTarget target =
          new LoadTarget(
              label,
              new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
              new ProcessProbe(serverPid));
      LoadMessages messages = wholeCorpus ? LoadMessages.wholeCorpus() : LoadMessages.ofSize(size);
      messages = unique ? messages.unique() : messages;
      System.err.println("mail: " + messages.description());
      LoadScenarios scenarios = new LoadScenarios(target, messages, sources);
      return noPipelining ? scenarios.withoutPipelining() : scenarios;
    }
  }

  @Command(
      name = "blast",
      mixinStandardHelpOptions = true,
      description = "C persistent connections send back to back; C swept.")
  static final class Blast implements Callable<Integer> {
    @Mixin TargetOptions target;

    @Option(
        names = "--connections",
        split = ",",
        defaultValue = "1,10,100,1000",
        description = "Connection counts to sweep (default ${DEFAULT-VALUE}).")
    List<Integer> connections;

    @Option(
        names = "--warmup",
        defaultValue = "1s",
        converter = Durations.class,
        description = "Unmeasured, per point.")
    Duration warmup;

    @Option(
        names = "--duration",
        defaultValue = "3s",
        converter = Durations.class,
        description = "Measured, per point.")
    Duration duration;

    @Override
    public Integer call() throws Exception {
      LoadScenarios scenarios = target.scenarios();
      List<LoadResult> results = new ArrayList<>();
      for (int c : connections) {
        results.add(scenarios.blast(c, warmup, duration));
      }
      System.out.print(SmtpBenchReport.resultTable(results));
      return 0;
    }
  }

  @Command(
      name = "idle-many",
      mixinStandardHelpOptions = true,
      description = "N open connections; one picked at random sends every interval.")
  static final class IdleMany implements Callable<Integer> {
    @Mixin TargetOptions target;

    @Option(
        names = "--connections",
        split = ",",
        defaultValue = "100,1000,5000",
        description = "Open connection counts to sweep (default ${DEFAULT-VALUE}).")
    List<Integer> connections;

    @Option(
        names = "--interval",
        defaultValue = "5ms",
        converter = Durations.class,
        description = "Between two sends.")
    Duration interval;

    @Option(
        names = "--settle",
        defaultValue = "5s",
        converter = Durations.class,
        description =
            "Sending as measured but unmeasured first, per point (default ${DEFAULT-VALUE}).")
    Duration settle;

    @Option(
        names = "--duration",
        defaultValue = "3s",
        converter = Durations.class,
        description = "Measured, per point.")
    Duration duration;

    @Override
    public Integer call() throws Exception {
      LoadScenarios scenarios = target.scenarios();
      List<LoadResult> results = new ArrayList<>();
      for (int n : connections) {
        results.add(scenarios.idleMany(n, settle, duration, interval));
      }
      System.out.print(SmtpBenchReport.resultTable(results));
      return 0;
    }
  }

  @Command(
      name = "slow-clients",
      mixinStandardHelpOptions = true,
      description = "Clients trickle their DATA at a fixed rate, reconnecting after each mail.")
  static final class SlowClients implements Callable<Integer> {
    @Mixin TargetOptions target;

    @Option(
        names = "--clients",
        split = ",",
        defaultValue = "500",
        description = "Client counts to sweep (default ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(
        names = "--rate",
        defaultValue = "1000",
        description = "DATA bytes per second per client (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(
        names = "--duration",
        defaultValue = "6s",
        converter = Durations.class,
        description = "Measured, per point.")
    Duration duration;

    @Override
    public Integer call() throws Exception {
      LoadScenarios scenarios = target.scenarios();
      List<LoadResult> results = new ArrayList<>();
      for (int n : clients) {
        results.add(scenarios.slowClients(n, duration, rate));
      }
      System.out.print(SmtpBenchReport.resultTable(results));
      return 0;
    }
  }

  @Command(
      name = "profile",
      mixinStandardHelpOptions = true,
      description =
          "Starts each server mode as its own process, runs the three scenarios, writes the report.")
  static final class Profile implements Callable<Integer> {
    @Parameters(index = "0", description = "quick or full")
    SmtpBenchProfile.Size size;

    @Option(
        names = "--postfix",
        description =
            "Folder holding an unpacked postfix package (usr/sbin/smtp-sink); omit to skip.")
    Path postfix;

    @Option(names = "--out", defaultValue = "bench/target/smtp-bench", description = "Raw results.")
    Path out;

    @Option(names = "--docs", defaultValue = "docs", description = "Where the report goes.")
    Path docs;

    @Option(names = "--command", defaultValue = "", description = "Command line to record.")
    String command;

    @Option(
        names = "--note",
        description = "A line added to the report, e.g. why Postfix is absent.")
    String note;

    @Override
    public Integer call() throws Exception {
      new SmtpBenchProfile(size, postfix, out, docs, command, note).run();
      return 0;
    }
  }

  @Command(
      name = "stores",
      mixinStandardHelpOptions = true,
      description =
          "Blast against the service on --store=memory and on --store=redis (a redis-server from"
              + " the PATH, started here), rounds alternating; writes the report.")
  static final class Stores implements Callable<Integer> {
    @Option(
        names = "--connections",
        split = ",",
        defaultValue = "1,10,100",
        description = "Connection counts to sweep (default ${DEFAULT-VALUE}).")
    List<Integer> connections;

    @Option(
        names = "--rounds",
        defaultValue = "3",
        description = "Rounds, each memory then redis (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
        names = "--warmup",
        defaultValue = "2s",
        converter = Durations.class,
        description = "Unmeasured, per point (default ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(
        names = "--duration",
        defaultValue = "5s",
        converter = Durations.class,
        description = "Measured, per point (default ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(
        names = "--out",
        defaultValue = "bench/target/smtp-stores",
        description = "Raw results and logs.")
    Path out;

    @Option(names = "--docs", defaultValue = "docs", description = "Where the report goes.")
    Path docs;

    @Option(names = "--command", defaultValue = "", description = "Command line to record.")
    String command;

    @Override
    public Integer call() throws Exception {
      new StoreBlastProfile(connections, rounds, warmup, duration, out, docs, command).run();
      return 0;
    }
  }
}
