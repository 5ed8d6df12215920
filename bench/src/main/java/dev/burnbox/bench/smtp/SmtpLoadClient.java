package dev.burnbox.bench.smtp;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;

/**
 * One SMTP client connection on a blocking socket, as the load generator drives it: greeting, EHLO,
 * then any number of one-recipient transactions, pipelining MAIL, RCPT and DATA when the server
 * advertises PIPELINING (RFC 2920). Every method returns the server's reply code; a transaction
 * that fails is reset with RSET so the connection stays usable. Not thread-safe: one thread drives
 * a client at a time.
 */
public final class SmtpLoadClient implements Closeable {
  /** The line that ends message content, after the content's last CRLF. */
  static final byte[] END_OF_DATA = ".\r\n".getBytes(StandardCharsets.US_ASCII);

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final StringBuilder line = new StringBuilder(128);
  private boolean pipelining;
  private boolean pipeliningOff;

  private SmtpLoadClient(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream(), 4096);
    this.out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
  }

  /**
   * Connects from {@code localAddress} (null: any) to {@code server}; the greeting is left unread.
   *
   * @param readTimeoutMillis how long one read may block before a {@link
   *     java.net.SocketTimeoutException}
   */
  public static SmtpLoadClient connect(
      InetAddress localAddress, InetSocketAddress server, int readTimeoutMillis)
      throws IOException {
    Socket socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      if (localAddress != null) {
        socket.bind(new InetSocketAddress(localAddress, 0));
      }
      socket.connect(server, 10_000);
      socket.setSoTimeout(readTimeoutMillis);
      return new SmtpLoadClient(socket);
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  /** Reads the greeting; returns its code (220 when the server takes the session). */
  public int greeting() throws IOException {
    return readReply();
  }

  /** Says EHLO and notes whether the server offers PIPELINING; returns the reply code. */
  public int ehlo(String name) throws IOException {
    writeLine("EHLO " + name);
    out.flush();
    pipelining = false;
    while (true) {
      String reply = readLine();
      if (reply.regionMatches(true, 4, "PIPELINING", 0, 10)) {
        pipelining = true;
      }
      if (reply.length() < 4 || reply.charAt(3) != '-') {
        return code(reply);
      }
    }
  }

  /** Whether MAIL, RCPT and DATA go in one write: the server offered PIPELINING and it is on. */
  public boolean pipelining() {
    return pipelining && !pipeliningOff;
  }

  /** Sends MAIL, RCPT and DATA one at a time even if the server offers PIPELINING. */
  public void turnPipeliningOff() {
    pipeliningOff = true;
  }

  /**
   * Sends one message to one recipient; returns 250 (or another 2xx) if the server took it,
   * otherwise the first failing reply's code.
   *
   * @param data the message, dot-stuffed, ending with CRLF.CRLF
   */
  public int send(String from, String recipient, byte[] data) throws IOException {
    return send(from, recipient, data, 0);
  }

  /**
   * As {@link #send(String, String, byte[])}, but writes the message content at about {@code
   * bytesPerSecond} (in 10 chunks a second) when that is positive, as a slow client does.
   */
  public int send(String from, String recipient, byte[] data, int bytesPerSecond)
      throws IOException {
    int dataCode = envelope(from, recipient);
    if (dataCode != 354) {
      return dataCode;
    }
    if (bytesPerSecond <= 0) {
      out.write(data);
    } else {
      trickle(data, bytesPerSecond);
    }
    out.flush();
    return readReply();
  }

  /** MAIL, RCPT, DATA; returns 354 or the first failing code (after a RSET). */
  private int envelope(String from, String recipient) throws IOException {
    if (pipelining()) {
      writeLine("MAIL FROM:<" + from + ">");
      writeLine("RCPT TO:<" + recipient + ">");
      writeLine("DATA");
      out.flush();
      int mail = readReply();
      int rcpt = readReply();
      int data = readReply();
      if (data == 354 && (mail / 100 != 2 || rcpt / 100 != 2)) {
        out.write(END_OF_DATA); // a server that accepted DATA anyway gets an empty message
        out.flush();
        readReply();
      }
      int failure = mail / 100 != 2 ? mail : rcpt / 100 != 2 ? rcpt : data;
      if (failure != 354) {
        reset();
      }
      return failure;
    }
    int[] codes = new int[3];
    String[] commands = {"MAIL FROM:<" + from + ">", "RCPT TO:<" + recipient + ">", "DATA"};
    for (int i = 0; i < 3; i++) {
      writeLine(commands[i]);
      out.flush();
      codes[i] = readReply();
      boolean ok = i < 2 ? codes[i] / 100 == 2 : codes[i] == 354;
      if (!ok) {
        reset();
        return codes[i];
      }
    }
    return 354;
  }

  private void trickle(byte[] data, int bytesPerSecond) throws IOException {
    int chunk = Math.max(1, bytesPerSecond / 10);
    long next = System.nanoTime();
    for (int offset = 0; offset < data.length; offset += chunk) {
      out.write(data, offset, Math.min(chunk, data.length - offset));
      out.flush();
      next += 100_000_000L;
      long wait = next - System.nanoTime();
      if (wait > 0 && offset + chunk < data.length) {
        LockSupport.parkNanos(wait);
      }
    }
  }

  private void reset() throws IOException {
    writeLine("RSET");
    out.flush();
    readReply();
  }

  /** Says QUIT and reads the reply; returns its code. */
  public int quit() throws IOException {
    writeLine("QUIT");
    out.flush();
    return readReply();
  }

  /** Closes the socket; a thread blocked in a read on it gets an exception. Idempotent. */
  @Override
  public void close() throws IOException {
    socket.close();
  }

  private void writeLine(String command) throws IOException {
    out.write(command.getBytes(StandardCharsets.US_ASCII));
    out.write('\r');
    out.write('\n');
  }

  private int readReply() throws IOException {
    while (true) {
      String reply = readLine();
      if (reply.length() < 4 || reply.charAt(3) != '-') {
        return code(reply);
      }
    }
  }

  private static int code(String reply) throws IOException {
    if (reply.length() < 3) {
      throw new IOException("malformed reply: " + reply);
    }
    try {
      return Integer.parseInt(reply, 0, 3, 10);
    } catch (NumberFormatException e) {
      throw new IOException("malformed reply: " + reply, e);
    }
  }

  private String readLine() throws IOException {
    line.setLength(0);
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("connection closed by the server");
      }
      if (b == '\n') {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') {
          line.setLength(end - 1);
        }
        return line.toString();
      }
      line.append((char) b);
    }
  }
}
