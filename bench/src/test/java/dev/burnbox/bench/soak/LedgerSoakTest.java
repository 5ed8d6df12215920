package dev.burnbox.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short CI version of the nothing-lost soak: 1,000 misbehaving mails against the real service
 * in its own process, restarted twice under load on its snapshot, every reply checked against the
 * store read back over HTTP, what was checked deleted once in between (so a restart must not bring
 * it back). The long run is {@code bench/run-ledger-soak.sh}.
 */
class LedgerSoakTest {
  @Test
  void everyAcknowledgedMailIsStoredExactlyAndNothingElseIs(@TempDir Path work) throws Exception {
    SoakSettings settings =
        new SoakSettings(
            1000,
            16,
            2,
            400,
            50,
            20261123L,
            Duration.ofSeconds(2),
            true,
            List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
            "128m",
            work);

    SoakReport report = new LedgerSoak(settings).run();
    System.out.print(report.summary());

    assertThat(report.violations()).isEmpty();
    assertThat(report.violationCount()).isZero();
    assertThat(report.attempts()).isEqualTo(1000);
    assertThat(report.restarts()).isEqualTo(2);
    assertThat(report.serverExitCodes()).containsExactly(0, 0, 0);
    assertThat(report.outcomes().get(Outcome.ACKNOWLEDGED)).isGreaterThan(700);
    assertThat(report.outcomes().get(Outcome.INTERRUPTED)).isGreaterThan(40);
    assertThat(report.outcomes().get(Outcome.UNKNOWN)).isGreaterThan(15);
    assertThat(report.refusals()).containsOnlyKeys("421 4.3.2"); // only while stopping
    assertThat(report.behaviours().get(Misbehaviour.STALL_MID_DATA)).isPositive();
    assertThat(report.behaviours().get(Misbehaviour.STALL_BEFORE_DATA)).isPositive();
    assertThat(report.unknownStored() + report.unknownNotStored())
        .isEqualTo(report.outcomes().get(Outcome.UNKNOWN));
  }
}
