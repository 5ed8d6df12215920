package dev.burnbox.bench.soak;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One soak run's parameters.
 *
 * @param mails how many mail attempts in all
 * @param connections concurrent client connections
 * @param restarts server restarts (SIGTERM, then start again on the same snapshot), spread evenly
 * @param pruneEvery after about this many attempts, check, then delete what was checked, so the
 *     store (and the ledger's copy of the bytes) stays small in long runs
 * @param inboxes how many inboxes the mails are spread over
 * @param seed fixes each numbered mail: its bytes, recipients, transport and misbehaviour
 * @param timeout the server's command and data timeout; stalling clients stay silent longer
 * @param stalls whether some clients stall past the timeout
 * @param serverJvmOptions the service's JVM options (heap)
 * @param storeMaxBytes the service's {@code --store-max-bytes}, sized so nothing is evicted
 * @param workDir where the snapshot and the server logs go
 */
record SoakSettings(
    int mails,
    int connections,
    int restarts,
    int pruneEvery,
    int inboxes,
    long seed,
    Duration timeout,
    boolean stalls,
    List<String> serverJvmOptions,
    String storeMaxBytes,
    Path workDir) {
  SoakSettings {
    if (mails < 1 || connections < 1 || restarts < 0 || pruneEvery < 1 || inboxes < 20) {
      throw new IllegalArgumentException("bad soak settings");
    }
    serverJvmOptions = List.copyOf(serverJvmOptions);
  }

  /** The service's options besides the ports: short timeouts, a snapshot, nothing evicted. */
  List<String> serveOptions() {
    String seconds = timeout.toMillis() + "ms";
    return List.of(
        "--hostname=soak.test",
        "--command-timeout=" + seconds,
        "--data-timeout=" + seconds,
        "--shutdown-grace=2s",
        "--snapshot=" + workDir.resolve("store.snapshot").toAbsolutePath(),
        "--inbox-cap=10000000",
        "--store-max-bytes=" + storeMaxBytes,
        "--ttl=24h");
  }
}
