package dev.burnbox.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.server.BurnboxService;
import dev.burnbox.server.ServiceSettings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ledger's check against the real service in-process: it passes an honest record, and it
 * catches each kind of broken promise when the record and the store disagree (so a clean soak run
 * means something).
 */
class LedgerTest {
  private static final List<String> INBOXES =
      java.util.stream.IntStream.range(0, 20).mapToObj(i -> "soak-" + i).toList();

  private final SoakMails mails = new SoakMails(1);
  private final Ledger ledger = new Ledger(mails, 100);
  private BurnboxService service;
  private InboxApiClient api;

  @BeforeEach
  void start() throws Exception {
    service =
        BurnboxService.start(
            ServiceSettings.of(
                "--smtp-port=0",
                "--bind=127.0.0.1",
                "--hostname=soak.test",
                "--http-port=0",
                "--shutdown-grace=1s"));
    api = new InboxApiClient(service.httpPort());
  }

  @AfterEach
  void stop() {
    service.close();
  }

  /**
   * Sends mail {@code sequence} to {@code inboxes} as a well-behaved client; returns the attempt.
   */
  private Attempt send(long sequence, boolean bdat, String... inboxes) {
    List<String> to = List.of(inboxes);
    byte[] raw = mails.mail(sequence, to.stream().map(i -> i + "@soak.test").toList());
    SoakConnection connection =
        SoakConnection.open(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), service.smtpPort()),
            Duration.ofSeconds(10));
    try {
      return connection.send(
          sequence,
          mails.token(sequence),
          to,
          raw,
          bdat,
          Misbehaviour.NONE,
          Duration.ZERO,
          new SplittableRandom(sequence));
    } finally {
      connection.quit();
    }
  }

  private static Attempt as(Attempt a, Outcome outcome, byte[] raw) {
    return new Attempt(
        a.sequence(), a.token(), a.inboxes(), raw, a.transport(), a.behaviour(), outcome, "");
  }

  @Test
  void anHonestRecordPassesAndPruningEmptiesTheStore() throws Exception {
    for (int i = 0; i < 30; i++) {
      Attempt attempt = send(i, i % 3 == 0, "soak-" + i % 7, "soak-" + (7 + i % 5));
      assertThat(attempt.outcome()).isEqualTo(Outcome.ACKNOWLEDGED);
      ledger.record(attempt);
    }

    Ledger.CheckResult kept = ledger.check(api, INBOXES, false);
    Ledger.CheckResult pruned = ledger.check(api, INBOXES, true);

    assertThat(kept.storedEntries()).isEqualTo(60);
    assertThat(pruned.storedEntries()).isEqualTo(60);
    assertThat(ledger.violations()).isEmpty();
    assertThat(api.stats().path("messages").asLong()).isZero();
  }

  @Test
  void anAcknowledgedMailMissingFromAnInboxIsAViolation() throws Exception {
    Attempt sent = send(1, false, "soak-1");
    ledger.record(sent);
    ledger.record(
        new Attempt(
            2,
            mails.token(2),
            List.of("soak-2"),
            sent.raw(),
            "DATA",
            Misbehaviour.NONE,
            Outcome.ACKNOWLEDGED,
            "250"));

    ledger.check(api, INBOXES, false);

    assertThat(ledger.violations())
        .singleElement()
        .asString()
        .startsWith("acknowledged but missing from inbox soak-2: " + mails.token(2));
  }

  @Test
  void aStoredMailThatWasInterruptedIsAViolation() throws Exception {
    Attempt sent = send(3, true, "soak-3");
    ledger.record(as(sent, Outcome.INTERRUPTED, sent.raw()));

    ledger.check(api, INBOXES, false);

    assertThat(ledger.violations())
        .singleElement()
        .asString()
        .startsWith("stored in soak-3 although " + mails.token(3) + " INTERRUPTED");
  }

  @Test
  void storedBytesThatDifferAreAViolation() throws Exception {
    Attempt sent = send(4, false, "soak-4");
    byte[] other = sent.raw().clone();
    other[other.length - 3] ^= 1;
    ledger.record(as(sent, Outcome.ACKNOWLEDGED, other));

    ledger.check(api, INBOXES, false);

    assertThat(ledger.violations())
        .singleElement()
        .asString()
        .startsWith(
            "stored bytes differ from the bytes sent (first difference at byte "
                + (other.length - 3));
  }

  @Test
  void anUnknownMailStoredInOnlySomeOfItsInboxesIsAViolation() throws Exception {
    Attempt sent = send(5, false, "soak-5");
    ledger.record(
        new Attempt(
            5,
            sent.token(),
            List.of("soak-5", "soak-6"),
            sent.raw(),
            "DATA",
            Misbehaviour.DISCONNECT_AFTER_END,
            Outcome.UNKNOWN,
            ""));

    ledger.check(api, INBOXES, false);

    assertThat(ledger.violations()).singleElement().asString().startsWith("partly stored");
  }

  @Test
  void aMailThatComesBackAfterItWasCheckedAndDeletedIsAViolation() throws Exception {
    ledger.record(send(6, false, "soak-6"));
    ledger.check(api, INBOXES, true);

    send(6, false, "soak-6");
    ledger.check(api, INBOXES, false);

    assertThat(ledger.violations())
        .singleElement()
        .asString()
        .startsWith("came back after it was checked and deleted: " + mails.token(6));
  }
}
