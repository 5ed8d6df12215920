package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.server.mime.DecodedMail.ScanParts;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.server.smtp.SmtpScript;
import dev.burnbox.wordlists.SpamModel;
import dev.burnbox.wordlists.SpamTerms;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Delivers every message of the odd-MIME corpus ({@code mime-corpus/}) over SMTP to the running
 * service and checks what comes out: the exact bytes, the decoded subject, and the verdict the
 * naive matcher gives on the decoded text (the service itself uses Aho-Corasick).
 */
class CorpusDeliveryTest {
  private static BurnboxService service;
  private static final SpamScanner REFERENCE =
      SpamScanner.withDefaultModel(MatcherKind.NAIVE, null);
  private static final SpamScanner PLAIN_LIST =
      SpamScanner.of(
          MatcherKind.NAIVE, null, SpamModel.ofPlainTerms(SpamTerms.defaults(), "built-in list"));

  record Row(String file, String subject) {
    @Override
    public String toString() {
      return file;
    }
  }

  @BeforeAll
  static void start() throws IOException {
    service =
        BurnboxService.start(
            ServiceSettings.of(
                "--smtp-port=0",
                "--hostname=burnbox.test",
                "--http-port=0",
                "--shutdown-grace=2s"));
  }

  @AfterAll
  static void stop() {
    service.close();
  }

  static Stream<Row> corpus() throws IOException {
    List<Row> rows = new ArrayList<>();
    for (String line : resource("expectations.tsv").lines().toList()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] cells = line.split("\t", -1);
      rows.add(new Row(cells[0], cells[1]));
    }
    return rows.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void deliveredOverSmtpAndReadBackDecodedAndScanned(Row row) throws IOException {
    byte[] raw = asSent(bytes(row.file()));
    String inbox = "corpus-" + row.file().substring(0, 2);
    try (SmtpScript smtp = SmtpScript.ehlo(service.smtpPort(), "127.0.0.1")) {
      smtp.expectAfter("MAIL FROM:<corpus@example.com>", "250");
      smtp.expectAfter("RCPT TO:<" + inbox + "@any.test>", "250");
      smtp.expectAfter("DATA", "354");
      smtp.write(dotStuffed(raw));
      // 23- has a 36,016-byte line: real mail has them, and it is stored whole like the rest
      smtp.expectAfter(".", "250");
    }

    MessageSummary summary =
        service.store().list(InboxName.of(inbox), 1, null).messages().getFirst();
    byte[] stored = service.store().get(summary.id()).orElseThrow().raw();
    // byte for byte as sent, behind the trace field the intake puts in front
    String trace = new String(stored, 0, stored.length - raw.length, StandardCharsets.UTF_8);
    assertThat(trace).startsWith("Received: from ").endsWith("\r\n").doesNotContain("\r\n\r\n");
    assertThat(Arrays.copyOfRange(stored, stored.length - raw.length, stored.length))
        .isEqualTo(raw);
    assertThat(summary.subject()).isEqualTo(row.subject());

    ScanParts parts = MailDecoder.withDefaults().decode(stored).scanParts();
    SpamVerdict expected = REFERENCE.scan(parts);
    SpamVerdict verdict = summary.verdict();
    assertThat(verdict.terms()).isEqualTo(expected.terms());
    assertThat(verdict.spam()).isEqualTo(expected.spam());
    // the same counts, but a matcher counts in an order of its own (TermMatcher#count), and the
    // score sums its terms in that order: the last bit may differ on a long text (23- does)
    assertThat(verdict.score()).isCloseTo(expected.score(), within(1e-9));
    assertThat(verdict.probability()).isCloseTo(expected.probability(), within(1e-9));
    if (row.file().startsWith("32-")) {
      assertThat(PLAIN_LIST.scan(parts).terms()).contains("meds online", "without prescription");
    }
  }

  /** Dot-stuffs lines starting with '.', as an SMTP client must (RFC 5321 4.5.2). */
  private static byte[] dotStuffed(byte[] message) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    boolean lineStart = true;
    for (byte b : message) {
      if (lineStart && b == '.') {
        out.write('.');
      }
      out.write(b);
      lineStart = b == '\n';
    }
    return out.toByteArray();
  }

  /**
   * The message as an SMTP client sends it and the server stores it: bare LFs become CRLF (the
   * corpus files keep whatever line ends they were written with) and the text ends with CRLF.
   */
  private static byte[] asSent(byte[] raw) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < raw.length; i++) {
      if (raw[i] == '\n' && (i == 0 || raw[i - 1] != '\r')) {
        out.write('\r');
      }
      out.write(raw[i]);
    }
    if (raw.length == 0 || raw[raw.length - 1] != '\n') {
      out.writeBytes(new byte[] {'\r', '\n'});
    }
    return out.toByteArray();
  }

  private static byte[] bytes(String file) throws IOException {
    try (InputStream in =
        Objects.requireNonNull(
            CorpusDeliveryTest.class.getResourceAsStream("/mime-corpus/" + file), file)) {
      return in.readAllBytes();
    }
  }

  private static String resource(String file) throws IOException {
    return new String(bytes(file), StandardCharsets.UTF_8);
  }
}
