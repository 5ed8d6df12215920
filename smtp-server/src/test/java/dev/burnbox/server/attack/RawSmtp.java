package dev.burnbox.server.attack;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A bare SMTP client for attackers: connects from a chosen loopback address, sends lines or bytes,
 * and reads whole replies, returning their three-digit code ({@code "EOF"} if the server closed).
 */
final class RawSmtp implements AutoCloseable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  RawSmtp(String sourceAddress, int port, int readTimeoutMillis) throws IOException {
    socket = new Socket();
    try {
      socket.bind(new InetSocketAddress(InetAddress.getByName(sourceAddress), 0));
      socket.connect(new InetSocketAddress("127.0.0.1", port), 30_000);
      socket.setSoTimeout(readTimeoutMillis);
    } catch (IOException e) {
      socket.close();
      throw e;
    }
    in = new BufferedInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  /** The code of the next whole reply, or {@code "EOF"}. */
  String reply() throws IOException {
    while (true) {
      String line = line();
      if (line == null) {
        return "EOF";
      }
      if (line.length() < 4 || line.charAt(3) != '-') {
        return line.length() < 3 ? line : line.substring(0, 3);
      }
    }
  }

  String command(String line) throws IOException {
    write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
    return reply();
  }

  void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /**
   * One message to {@code recipient}: MAIL, RCPT, DATA, the extra header lines and the content
   * (dot-stuffed by the caller, ending in CRLF) and the final dot; the first refused step's code,
   * else the final reply's.
   */
  String send(String recipient, byte[] headers, byte[] content) throws IOException {
    String code = command("MAIL FROM:<attacker@attack.test>");
    if (!code.equals("250")) {
      return code;
    }
    code = command("RCPT TO:<" + recipient + ">");
    if (!code.equals("250")) {
      command("RSET");
      return code;
    }
    code = command("DATA");
    if (!code.equals("354")) {
      return code;
    }
    write(headers);
    write(content);
    write(".\r\n".getBytes(StandardCharsets.US_ASCII));
    return reply();
  }

  /** True once the server has closed the connection (a read returns end of stream or fails). */
  boolean closedByServer() {
    try {
      return in.read() == -1;
    } catch (IOException e) {
      return !(e instanceof java.net.SocketTimeoutException);
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      if (b == '\n') {
        return line.toString(StandardCharsets.US_ASCII).strip();
      }
      line.write(b);
    }
    return null;
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing an already broken socket
    }
  }
}
