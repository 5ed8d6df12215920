package dev.burnbox.bench.smtp;

import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One measured point of one scenario on one server. Immutable. Latencies are in milliseconds;
 * figures that could not be measured (server CPU and RSS of a server without a local process id,
 * greeting times when nobody was greeted) are NaN.
 *
 * @param scenario {@code blast}, {@code blast-unpipelined}, {@code idle-many} or {@code
 *     slow-clients}
 * @param server the server's label, e.g. {@code virtual} or {@code smtp-sink}
 * @param load connections (blast), open connections (idle-many) or clients (slow-clients)
 * @param seconds length of the measured window
 * @param accepted transactions the server accepted (2xx) within the window
 * @param messagesPerSecond {@code accepted / seconds}
 * @param p50 median transaction latency
 * @param p99 99th percentile
 * @param p999 99.9th percentile
 * @param max longest transaction
 * @param outcomes every outcome with its count: reply codes, {@code io}, {@code not-greeted}, ...
 * @param serverCpuPercent server CPU time over the window, in percent of one core
 * @param serverRssMebibytes server resident set size at the end of the window
 * @param greetingP50 median time to greeting
 * @param greetingP99 99th percentile time to greeting, among the greeted
 * @param greetingMax longest time to greeting, among the greeted
 * @param notGreeted connections still waiting for their greeting when the window closed
 */
public record LoadResult(
    String scenario,
    String server,
    int load,
    double seconds,
    long accepted,
    double messagesPerSecond,
    double p50,
    double p99,
    double p999,
    double max,
    Map<String, Long> outcomes,
    double serverCpuPercent,
    double serverRssMebibytes,
    double greetingP50,
    double greetingP99,
    double greetingMax,
    long notGreeted) {

  /** Summarises {@code tally} over a window of {@code seconds}. */
  static LoadResult of(
      String scenario,
      String server,
      int load,
      double seconds,
      TransactionTally tally,
      double serverCpuSeconds,
      double serverRssMebibytes) {
    Histogram latency = tally.latency();
    Histogram greetings = tally.greetings();
    Map<String, Long> outcomes = tally.outcomes();
    return new LoadResult(
        scenario,
        server,
        load,
        seconds,
        tally.accepted(),
        tally.accepted() / seconds,
        millis(latency, 50),
        millis(latency, 99),
        millis(latency, 99.9),
        millis(latency, 100),
        outcomes,
        100 * serverCpuSeconds / seconds,
        serverRssMebibytes,
        millis(greetings, 50),
        millis(greetings, 99),
        millis(greetings, 100),
        outcomes.getOrDefault(NOT_GREETED, 0L));
  }

  /** The outcome counted for a connection whose greeting had not come when the window closed. */
  public static final String NOT_GREETED = "not-greeted";

  private static double millis(Histogram histogram, double percentile) {
    if (histogram.getTotalCount() == 0) {
      return Double.NaN;
    }
    long micros =
        percentile >= 100 ? histogram.getMaxValue() : histogram.getValueAtPercentile(percentile);
    return micros / 1000.0;
  }

  /** The same figures under another scenario name. */
  LoadResult as(String otherScenario) {
    return new LoadResult(
        otherScenario,
        server,
        load,
        seconds,
        accepted,
        messagesPerSecond,
        p50,
        p99,
        p999,
        max,
        outcomes,
        serverCpuPercent,
        serverRssMebibytes,
        greetingP50,
        greetingP99,
        greetingMax,
        notGreeted);
  }

  /** Outcomes other than 2xx replies, e.g. {@code 421: 3, io: 1}; "none" if there were none. */
  public String errors() {
    StringBuilder text = new StringBuilder();
    outcomes.forEach(
        (outcome, count) -> {
          if (!outcome.startsWith("2")) {
            text.append(text.isEmpty() ? "" : ", ").append(outcome).append(": ").append(count);
          }
        });
    return text.isEmpty() ? "none" : text.toString();
  }
}
