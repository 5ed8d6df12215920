package dev.burnbox.bench.soak;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ledger-soak}: runs {@link LedgerSoak} from the command line, prints its summary, and exits
 * 0 when no promise was broken, 1 when the ledger found a violation.
 */
@Command(
    name = "ledger-soak",
    mixinStandardHelpOptions = true,
    description =
        "Send mails with random disconnects, resets, stalls and server restarts; check every reply"
            + " against the store read back through the HTTP API.")
public final class LedgerSoakCommand implements Callable<Integer> {
  @Option(names = "--mails", defaultValue = "100000", description = "Mail attempts in all.")
  int mails;

  @Option(names = "--connections", defaultValue = "32", description = "Concurrent connections.")
  int connections;

  @Option(
      names = "--restarts",
      defaultValue = "10",
      description = "Server restarts under load (SIGTERM, start again on the snapshot).")
  int restarts;

  @Option(
      names = "--prune-every",
      defaultValue = "25000",
      description = "Check and delete what was checked every this many mails.")
  int pruneEvery;

  @Option(names = "--inboxes", defaultValue = "200", description = "Inboxes the mail goes to.")
  int inboxes;

  @Option(names = "--seed", defaultValue = "7", description = "Seed of the mails and behaviours.")
  long seed;

  @Option(
      names = "--timeout-ms",
      defaultValue = "2000",
      description = "The server's command and data timeout; stalling clients wait 1 s longer.")
  long timeoutMillis;

  @Option(names = "--no-stalls", description = "No client stalls past the timeouts.")
  boolean noStalls;

  @Option(names = "--server-heap", defaultValue = "1g", description = "The service's -Xmx.")
  String serverHeap;

  @Option(
      names = "--store-max-bytes",
      defaultValue = "512m",
      description = "The service's store budget; the run fails if anything is evicted.")
  String storeMaxBytes;

  @Option(
      names = "--work-dir",
      defaultValue = "bench/target/ledger-soak",
      description = "Snapshot file and server logs.")
  Path workDir;

  public static void main(String[] args) {
    System.exit(new CommandLine(new LedgerSoakCommand()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    SoakSettings settings =
        new SoakSettings(
            mails,
            connections,
            restarts,
            pruneEvery,
            inboxes,
            seed,
            Duration.ofMillis(timeoutMillis),
            !noStalls,
            List.of("-Xmx" + serverHeap),
            storeMaxBytes,
            workDir);
    SoakReport report = new LedgerSoak(settings).run();
    System.out.print(report.summary());
    return report.violationCount() == 0 ? 0 : 1;
  }
}
