package dev.burnbox.server.smtp;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A session's reply stream. It gives the replies that SubEtha SMTP 7.2.2 writes itself the enhanced
 * status code that EHLO's {@code ENHANCEDSTATUSCODES} promises (RFC 2034: on every reply but the
 * greeting and the replies to HELO and EHLO). Our own commands write coded replies already;
 * SubEtha's come from code we cannot reach: its command handler (unknown and empty verbs) and its
 * command loop (bare CR or LF, invalid UTF-8, a line of 998 characters or more, its connection
 * limit). It never times a read out: our sockets have none (the stall cutter ends stalled
 * sessions).
 *
 * <p>The table below is every reply text SubEtha can write in our configuration (found with {@code
 * javap} in {@code Session}, {@code CommandHandler} and {@code CRLFTerminatedReader}; SubEtha's
 * other texts belong to the commands we replace, to options we leave off, or carry a code already).
 * A write that holds one of these lines whole, at the start of a reply, is replaced by the same
 * line with the code after the reply code; every other write passes through byte for byte. SubEtha
 * writes each reply with one write (its {@code PrintWriter} is flushed after each reply, and these
 * are far below the encoder's 8 KiB buffer); a reply split across writes would pass unchanged.
 *
 * <p>The codes (RFC 3463): {@code 5.5.2} "syntax error" for a command that cannot be interpreted,
 * which covers an unknown or empty verb, bare CR or LF, bytes that are not UTF-8 and an overlong
 * line alike (Postfix answers unknown and empty verbs with 5.5.2 too); {@code 4.4.2} "bad
 * connection" for the timeout, which RFC 3463 names among its causes and which our own stall cutter
 * sends; {@code 4.7.0} for SubEtha's connection limit, which stands in for the greeting and so
 * needs none, but gets the one our gate sends with the same text.
 *
 * <p>Each of these replies that is an error (5xx: all but the connection limit's) is reported to
 * the stream's listener, for the intake's error limit ({@link SessionGate#MAX_ERRORS}): unknown and
 * empty verbs never reach the intake's own commands.
 *
 * <p>Cost: one comparison of the first byte for an ordinary reply (2xx, 3xx), a few length checks
 * for the others; no copying unless the reply is rewritten. Thread-safe: the stall cutter may write
 * while the session's thread owns the stream.
 */
final class CodedReplies extends OutputStream {
  private static final List<Known> SUBETHA =
      List.of(
          Known.fixed("500 Error: command not implemented", "5.5.2"),
          Known.fixed("500 Error: bad syntax", "5.5.2"),
          Known.numbered(
              "501 Syntax error at character position ",
              ". CR and LF must be CRLF paired.  See RFC 2821 #2.7.1.",
              "5.5.2"),
          Known.fixed("501 Syntax error: invalid character encoding.", "5.5.2"),
          Known.fixed("501 Input line length is too long!", "5.5.2"),
          Known.fixed("421 Too many connections, try again later", "4.7.0"));

  private static final int SHORTEST =
      SUBETHA.stream().mapToInt(Known::shortest).min().orElseThrow();
  private static final int LONGEST = SUBETHA.stream().mapToInt(Known::longest).max().orElseThrow();

  private final OutputStream out;
  private final Runnable onError;
  private boolean atReplyStart = true; // guarded by this

  CodedReplies(OutputStream out) {
    this(out, () -> {});
  }

  /**
   * @param onError run after each error reply (5xx) of SubEtha's is written, outside this stream's
   *     lock, on the writing thread (the session's): the intake's error limit counts them
   */
  CodedReplies(OutputStream out, Runnable onError) {
    this.out = Objects.requireNonNull(out, "out");
    this.onError = Objects.requireNonNull(onError, "onError");
  }

  @Override
  public synchronized void write(int b) throws IOException {
    out.write(b);
    atReplyStart = b == '\n';
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    if (writeCoded(bytes, offset, length)) {
      onError.run();
    }
  }

  /** Writes the bytes, coded if they are one of SubEtha's replies; true if that was an error. */
  private synchronized boolean writeCoded(byte[] bytes, int offset, int length) throws IOException {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    if (length == 0) {
      return false;
    }
    byte[] coded = atReplyStart ? coded(bytes, offset, length) : null;
    if (coded == null) {
      out.write(bytes, offset, length);
    } else {
      out.write(coded, 0, coded.length);
    }
    atReplyStart = bytes[offset + length - 1] == '\n';
    return coded != null && coded[0] == '5';
  }

  /** SubEtha's reply in these bytes with its enhanced code, or null if they are not one. */
  private static byte[] coded(byte[] bytes, int offset, int length) {
    if (length < SHORTEST || length > LONGEST || (bytes[offset] != '4' && bytes[offset] != '5')) {
      return null;
    }
    for (Known known : SUBETHA) {
      byte[] coded = known.coded(bytes, offset, length);
      if (coded != null) {
        return coded;
      }
    }
    return null;
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }

  /**
   * One reply line of SubEtha's, CRLF included: {@code before}, then a decimal number if {@code
   * numbered}, then {@code after}; {@code codedBefore} is {@code before} with the enhanced code.
   */
  private record Known(byte[] before, byte[] after, byte[] codedBefore, boolean numbered) {
    /** The longest number SubEtha puts in a reply: an int (a position in the line). */
    private static final int MAX_DIGITS = 10;

    static Known fixed(String line, String status) {
      return new Known(
          ascii(line + "\r\n"), new byte[0], ascii(withStatus(line, status) + "\r\n"), false);
    }

    static Known numbered(String before, String after, String status) {
      return new Known(
          ascii(before), ascii(after + "\r\n"), ascii(withStatus(before, status)), true);
    }

    /** {@code 500 Error...} becomes {@code 500 5.5.2 Error...}. */
    private static String withStatus(String text, String status) {
      return text.substring(0, 4) + status + " " + text.substring(4);
    }

    private static byte[] ascii(String text) {
      return text.getBytes(StandardCharsets.US_ASCII);
    }

    int shortest() {
      return before.length + after.length + (numbered ? 1 : 0);
    }

    int longest() {
      return before.length + after.length + (numbered ? MAX_DIGITS : 0);
    }

    /** The coded reply if these bytes are this reply, else null. */
    byte[] coded(byte[] bytes, int offset, int length) {
      int digits = length - before.length - after.length;
      int end = offset + length;
      if (digits < (numbered ? 1 : 0)
          || digits > (numbered ? MAX_DIGITS : 0)
          || !Arrays.equals(bytes, offset, offset + before.length, before, 0, before.length)
          || !Arrays.equals(bytes, end - after.length, end, after, 0, after.length)) {
        return null;
      }
      int number = offset + before.length;
      for (int i = number; i < number + digits; i++) {
        if (bytes[i] < '0' || bytes[i] > '9') {
          return null;
        }
      }
      byte[] coded = Arrays.copyOf(codedBefore, codedBefore.length + digits + after.length);
      System.arraycopy(bytes, number, coded, codedBefore.length, digits + after.length);
      return coded;
    }
  }
}
