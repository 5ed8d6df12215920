package dev.burnbox.server.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.server.smtp.SmtpIntake;
import dev.burnbox.server.smtp.SmtpScript;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a stored summary keeps of a mail's {@code From} and {@code Subject}, delivered over SMTP to
 * the pipeline with a real decoder, scanner and store.
 */
class IntakePipelineSummaryTest {
  private final InboxStore store = InboxStore.memory().build();
  private SmtpIntake intake;

  @BeforeEach
  void start() throws Exception {
    intake = PipelineIntake.start(SpamScanner.withDefaultModel(null, null), store);
  }

  @AfterEach
  void stop() {
    intake.stop(Duration.ofSeconds(2));
    store.close();
  }

  private MessageSummary deliver(String inbox, String headers) throws Exception {
    try (SmtpScript smtp = SmtpScript.ehlo(intake.port(), "127.0.0.1")) {
      smtp.expectAfter("MAIL FROM:<ann@example.com>", "250");
      smtp.expectAfter("RCPT TO:<" + inbox + "@burnbox.test>", "250");
      smtp.expectAfter("DATA", "354");
      smtp.write(headers + "\r\nbody\r\n.\r\n");
      smtp.expect("250");
    }
    return store.list(InboxName.of(inbox), 1, null).messages().getFirst();
  }

  @Test
  void aSubjectAsLongAsAMessageIsKeptByItsFirstCharsAndTheRawSourceWhole() throws Exception {
    StringBuilder folded = new StringBuilder("Subject: Win");
    StringBuilder from = new StringBuilder("From: ");
    while (folded.length() < 300_000) {
      folded.append("\r\n ").append("prize ".repeat(12));
      from.append("Very Long Name ".repeat(5)).append("\r\n ");
    }
    MessageSummary summary = deliver("big", folded + "\r\n" + from + "<flood@attack.test>\r\n");

    assertThat(summary.subject())
        .hasSize(IntakePipeline.SUMMARY_HEADER_CHARS)
        .startsWith("Win prize");
    assertThat(summary.from()).hasSize(IntakePipeline.SUMMARY_HEADER_CHARS);
    byte[] raw = store.get(summary.id()).orElseThrow().raw();
    assertThat(new String(raw, StandardCharsets.US_ASCII)).contains(folded);
  }

  @Test
  void realHeadersAreKeptWhole() throws Exception {
    String subject = "Your order #123 \u2014 \uD83D\uDCE6 on its way";
    MessageSummary summary =
        deliver(
            "small",
            "From: Shop <shop@example.com>\r\nSubject: =?UTF-8?B?"
                + Base64.getEncoder().encodeToString(subject.getBytes(StandardCharsets.UTF_8))
                + "?=\r\n");
    assertThat(summary.subject()).isEqualTo(subject);
    assertThat(summary.from()).isEqualTo("Shop <shop@example.com>");
  }

  @Test
  void aCutNeverSplitsASurrogatePair() {
    String pairAtTheCut = "x".repeat(IntakePipeline.SUMMARY_HEADER_CHARS - 1) + "\uD83D\uDCE6 more";
    assertThat(IntakePipeline.forSummary(pairAtTheCut))
        .isEqualTo("x".repeat(IntakePipeline.SUMMARY_HEADER_CHARS - 1));
    String fits = "y".repeat(IntakePipeline.SUMMARY_HEADER_CHARS);
    assertThat(IntakePipeline.forSummary(fits)).isSameAs(fits);
  }
}
