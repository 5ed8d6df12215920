package dev.burnbox.bench.soak;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a soak run did and found: counts by outcome and behaviour, restarts, checks, the rate, and
 * every violation (the first ones in full). A run with no violation kept every promise.
 */
record SoakReport(
    SoakSettings settings,
    Duration elapsed,
    Duration checking,
    long attempts,
    Map<Outcome, Long> outcomes,
    Map<Misbehaviour, Long> behaviours,
    Map<String, Long> refusals,
    Map<String, Long> wellBehavedNotAcknowledged,
    Map<String, Long> stallReplies,
    long bdat,
    long recipients,
    long unknownStored,
    long unknownNotStored,
    int restarts,
    List<Integer> serverExitCodes,
    int checks,
    long entriesRead,
    long refusedConnections,
    long violationCount,
    List<String> violations) {

  /** Attempts per second of wall time spent sending (checks excluded; restarts included). */
  double mailsPerSecond() {
    double seconds = (elapsed.toMillis() - checking.toMillis()) / 1000.0;
    return seconds <= 0 ? 0 : attempts / seconds;
  }

  /** A plain-text summary, one fact per line. */
  String summary() {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "ledger soak: %,d mail attempts over %d connections, %d restarts, seed %d%n",
            attempts,
            settings.connections(),
            restarts,
            settings.seed()));
    s.append(
        String.format(
            Locale.ROOT,
            "elapsed %.1f s (checking %.1f s): %.0f mails/s while sending%n",
            elapsed.toMillis() / 1000.0,
            checking.toMillis() / 1000.0,
            mailsPerSecond()));
    s.append("outcomes: ").append(outcomes).append('\n');
    s.append(
        String.format(
            Locale.ROOT, "unknown: %,d stored, %,d not stored%n", unknownStored, unknownNotStored));
    s.append("refusals by reply: ").append(refusals).append('\n');
    s.append("behaviours: ").append(behaviours).append('\n');
    s.append("well-behaved attempts not acknowledged: ")
        .append(wellBehavedNotAcknowledged)
        .append('\n');
    s.append("replies after a stall: ").append(stallReplies).append('\n');
    s.append(
        String.format(
            Locale.ROOT,
            "BDAT %,d; recipients %,d; connections turned away or refused %,d%n",
            bdat,
            recipients,
            refusedConnections));
    s.append(
        String.format(
            Locale.ROOT,
            "checks %d, inbox entries read back %,d, server exit codes %s%n",
            checks,
            entriesRead,
            serverExitCodes));
    s.append(String.format(Locale.ROOT, "VIOLATIONS: %,d%n", violationCount));
    for (String v : violations) {
      s.append("  ").append(v).append('\n');
    }
    return s.toString();
  }
}
