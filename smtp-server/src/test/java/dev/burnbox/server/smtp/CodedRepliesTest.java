package dev.burnbox.server.smtp;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The table of SubEtha's own replies, write by write; the same replies over real sockets, plain and
 * under TLS, are in {@code SmtpIntakeAbuseTest} and {@code SmtpIntakeStalledSessionTest}.
 */
class CodedRepliesTest {
  private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
  private final CodedReplies out = new CodedReplies(sent);

  private void write(String text) throws IOException {
    out.write(text.getBytes(US_ASCII));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "500 Error: command not implemented | 500 5.5.2 Error: command not implemented",
        "500 Error: bad syntax | 500 5.5.2 Error: bad syntax",
        "501 Syntax error at character position 7. CR and LF must be CRLF paired.  See RFC 2821"
            + " #2.7.1. | 501 5.5.2 Syntax error at character position 7. CR and LF must be CRLF"
            + " paired.  See RFC 2821 #2.7.1.",
        "501 Syntax error: invalid character encoding. | 501 5.5.2 Syntax error: invalid"
            + " character encoding.",
        "501 Input line length is too long! | 501 5.5.2 Input line length is too long!",
        "421 Too many connections, try again later | 421 4.7.0 Too many connections, try again"
            + " later",
      })
  void givesEachOfSubEthasRepliesItsEnhancedCode(String subetha, String coded) throws IOException {
    write("250 2.0.0 Ok\r\n");
    write(subetha + "\r\n");
    write("250 2.0.0 Ok\r\n");
    assertThat(sent.toString(US_ASCII))
        .isEqualTo("250 2.0.0 Ok\r\n" + coded + "\r\n" + "250 2.0.0 Ok\r\n");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "500 5.5.2 Error: bad syntax\r\n", // coded already
        "500 Error: bad syntax", // no line end: not the whole reply
        "500 Error: bad syntax\r\n\r\n",
        "500 Error: bad syntaxes\r\n",
        "550 Error: bad syntax\r\n",
        "501 Syntax error at character position . CR and LF must be CRLF paired.  See RFC 2821"
            + " #2.7.1.\r\n", // no number
        "501 Syntax error at character position 4x. CR and LF must be CRLF paired.  See RFC 2821"
            + " #2.7.1.\r\n",
        "250-PIPELINING\r\n250 CHUNKING\r\n",
        "\u0017\u0003\u0003\u0000\u0010 500 Error: bad syntax\r\n", // a TLS record
      })
  void passesEverythingElseByteForByte(String write) throws IOException {
    write(write);
    assertThat(sent.toString(US_ASCII)).isEqualTo(write);
  }

  @Test
  void reportsEachOfSubEthasErrorRepliesAndNothingElse() throws IOException {
    AtomicInteger errors = new AtomicInteger();
    CodedReplies reporting = new CodedReplies(sent, errors::incrementAndGet);
    for (String reply :
        List.of(
            "500 Error: command not implemented\r\n",
            "500 Error: bad syntax\r\n",
            "421 Too many connections, try again later\r\n", // not a command's error
            "503 5.5.1 Need MAIL command first\r\n", // the intake's own: it counts them itself
            "250 2.0.0 Ok\r\n")) {
      reporting.write(reply.getBytes(US_ASCII));
    }
    assertThat(errors).hasValue(2);
  }

  @ParameterizedTest
  @ValueSource(strings = {"250-first line\r\n250 ", "250 2.0.0 Ok"})
  void codesOnlyAtTheStartOfAReply(String before) throws IOException {
    write(before);
    write("500 Error: bad syntax\r\n"); // the rest of a reply, not one of SubEtha's
    write("500 Error: bad syntax\r\n"); // a reply of its own
    assertThat(sent.toString(US_ASCII))
        .isEqualTo(before + "500 Error: bad syntax\r\n500 5.5.2 Error: bad syntax\r\n");
  }
}
