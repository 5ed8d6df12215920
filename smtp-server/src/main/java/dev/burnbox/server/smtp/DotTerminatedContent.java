package dev.burnbox.server.smtp;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * The content of a DATA command (RFC 5321 4.5.2): reads the session's input up to the {@code
 * CRLF.CRLF} that ends it, without the final {@code .CRLF}, and removes the dot that senders put
 * before every line starting with a dot (the first line included). Leaves the input just after the
 * terminator, so pipelined commands that follow are read by the session as usual.
 *
 * <p>Reads in blocks when the input supports {@link InputStream#mark} (the session's buffered input
 * does): it marks, reads a block straight into the caller's buffer, removes the stuffing there in
 * place, and on finding the terminator inside the block resets and skips exactly the bytes used.
 * This replaces SubEtha's byte-at-a-time {@code DotTerminatedInputStream}, whose per-byte calls
 * into the session's locked {@code BufferedInputStream} were the largest share of intake CPU after
 * the pipeline itself (see docs/benchmarks.md). Without mark support it reads a byte at a time and
 * never reads past the terminator either.
 *
 * <p>A line that starts with a dot followed by anything but {@code CRLF} loses that dot; bare CR
 * and bare LF are content, not line ends. Input that ends before the terminator throws {@link
 * EOFException}. Not thread-safe; O(n) in the bytes read, allocating nothing.
 */
public final class DotTerminatedContent extends InputStream {
  /** The most read at once: under SubEtha's 8 KiB session input, so a mark never makes it grow. */
  private static final int BLOCK = 4096;

  /** Where the scanner is within the current line. */
  private enum State {
    /** After CRLF, or at the very start: a dot here is stuffing or the terminator. */
    LINE_START,
    /** A dot at the start of a line, held back. */
    DOT,
    /** A dot and a CR at the start of a line, held back: LF now ends the content. */
    DOT_CR,
    /** After a CR within a line. */
    CR,
    /** Anywhere else. */
    TEXT,
    /** The terminator was read. */
    END
  }

  private final InputStream in;
  private final boolean marks;
  private State state = State.LINE_START;

  /** A content byte that did not fit into the caller's buffer, or -1. */
  private int pending = -1;

  // the caller's buffer during one read
  private byte[] out;
  private int outStart;
  private int outLength;
  private int written;

  /** Reads the content from {@code in}, which should support {@link InputStream#mark}. */
  public DotTerminatedContent(InputStream in) {
    this.in = in;
    this.marks = in.markSupported();
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  /** Reads at most one block of input, more only while it yields no content. */
  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    Objects.checkFromIndexSize(offset, length, buffer.length);
    if (length == 0) {
      return 0;
    }
    out = buffer;
    outStart = offset;
    outLength = length;
    written = 0;
    if (pending >= 0) {
      emit((byte) pending);
      pending = -1;
    }
    while (written == 0 && state != State.END) {
      // a held-back ".CR" followed by anything but LF yields two bytes for one: room for it
      int room = state == State.DOT_CR ? 1 : 0;
      int want = Math.min(BLOCK, outLength - written - room);
      if (!marks || want <= 0) {
        int b = in.read();
        if (b < 0) {
          throw endedEarly();
        }
        step((byte) b);
        continue;
      }
      // the input goes where the content goes; removing stuffing only ever moves bytes back
      int from = outStart + written + room;
      in.mark(want);
      int n = in.read(out, from, want);
      if (n < 0) {
        throw endedEarly();
      }
      int end = from + n;
      int next = from;
      while (next < end && state != State.END) {
        if (state == State.TEXT) {
          next = copyText(next, end);
        }
        if (next < end) {
          step(out[next++]);
        }
      }
      if (next < end) { // the terminator ended inside the block: give the rest back
        in.reset();
        in.skipNBytes(next - from);
      }
    }
    out = null;
    return written == 0 ? -1 : written;
  }

  /**
   * Within a line nothing but a CR can change the state: moves the bytes from {@code from} up to
   * the next CR (or {@code end}) to the content's end in one go; nothing moves until a stuffed dot
   * has been removed.
   *
   * @return where the move stopped
   */
  private int copyText(int from, int end) {
    int cr = from;
    while (cr < end && out[cr] != '\r') {
      cr++;
    }
    int to = outStart + written;
    if (to != from) {
      System.arraycopy(out, from, out, to, cr - from);
    }
    written += cr - from;
    return cr;
  }

  private static EOFException endedEarly() {
    return new EOFException("connection closed before the <CRLF>.<CRLF> that ends the content");
  }

  /** Feeds one input byte. */
  private void step(byte b) {
    switch (state) {
      case LINE_START -> {
        if (b == '.') {
          state = State.DOT;
        } else {
          text(b);
        }
      }
      case DOT -> {
        if (b == '\r') {
          state = State.DOT_CR;
        } else {
          text(b); // the dot was stuffing
        }
      }
      case DOT_CR -> {
        if (b == '\n') {
          state = State.END;
        } else {
          emit((byte) '\r'); // the dot was stuffing; the CR is content
          text(b);
        }
      }
      case CR -> {
        emit(b);
        state = b == '\n' ? State.LINE_START : b == '\r' ? State.CR : State.TEXT;
      }
      default -> text(b);
    }
  }

  private void text(byte b) {
    emit(b);
    state = b == '\r' ? State.CR : State.TEXT;
  }

  /**
   * Writes a content byte, or keeps it for the next read when the buffer is full: a held-back ".CR"
   * yields its CR one byte late, so a block can yield one byte more than it holds.
   */
  private void emit(byte b) {
    if (written < outLength) {
      out[outStart + written++] = b;
    } else {
      pending = b & 0xff;
    }
  }
}
