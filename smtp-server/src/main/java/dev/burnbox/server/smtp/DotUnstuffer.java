package dev.burnbox.server.smtp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Removes the dot that SMTP senders put before every line starting with a dot (RFC 5321 4.5.2), the
 * first line included (SubEtha's own unstuffer misses that one). Reads a dot-terminated stream that
 * already ends before the final {@code .CRLF}. Not thread-safe.
 */
final class DotUnstuffer extends FilterInputStream {
  private int beforeLast = '\r';
  private int last = '\n';

  DotUnstuffer(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b == '.' && beforeLast == '\r' && last == '\n') {
      b = in.read();
    }
    beforeLast = last;
    last = b;
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    int count = 0;
    while (count < length) {
      int b = read();
      if (b < 0) {
        return count == 0 ? -1 : count;
      }
      buffer[offset + count++] = (byte) b;
    }
    return count;
  }
}
