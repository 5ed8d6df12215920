package dev.burnbox.server.smtp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A raw SMTP client for tests: send lines or bytes, read whole (multi-line) replies. Replies are
 * returned as text with lines joined by {@code \n}.
 */
public final class SmtpScript implements AutoCloseable {
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  private SmtpScript(Socket socket) throws IOException {
    use(socket);
  }

  /** Connects from 127.0.0.1 and leaves the greeting unread. */
  public static SmtpScript connect(int port) throws IOException {
    return connect(port, "127.0.0.1");
  }

  /** Connects from {@code localAddress} (any 127.x.y.z works on Linux) to 127.0.0.1. */
  public static SmtpScript connect(int port, String localAddress) throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
    socket.setSoTimeout(5000);
    return new SmtpScript(socket);
  }

  /**
   * Connects from {@code localAddress} with a small receive buffer and pipelines NOOPs, reading
   * nothing (not even the greeting), until the server has taken none of them for a second: its
   * replies fill the client's receive buffer and the server's send buffer, so the session is
   * blocked writing to a client that does not read, and no longer reads what it is sent.
   */
  public static SmtpScript pipeliningWithoutReading(int port, String localAddress)
      throws IOException {
    SocketChannel channel = SocketChannel.open();
    channel.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
    channel.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
    channel.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    channel.configureBlocking(false);
    ByteBuffer noops =
        ByteBuffer.wrap("NOOP\r\n".repeat(10_000).getBytes(StandardCharsets.US_ASCII));
    long giveUp = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    for (int refused = 0; refused < 20; ) { // 20 x 50 ms
      if (System.nanoTime() > giveUp) {
        channel.close();
        throw new IOException("the server still reads after 60 s of NOOPs");
      }
      if (!noops.hasRemaining()) {
        noops.rewind();
      }
      if (channel.write(noops) > 0) {
        refused = 0;
      } else {
        refused++;
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          channel.close();
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while pipelining");
        }
      }
    }
    channel.configureBlocking(true);
    channel.socket().setSoTimeout(5000);
    return new SmtpScript(channel.socket());
  }

  private void use(Socket socket) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /** Connects, reads the greeting and says EHLO; returns the script. */
  public static SmtpScript ehlo(int port, String localAddress) throws IOException {
    SmtpScript script = connect(port, localAddress);
    script.expect("220");
    script.expectAfter("EHLO client.test", "250");
    return script;
  }

  /** Sends one command line and returns its reply. */
  public String send(String line) throws IOException {
    write(line + "\r\n");
    return reply();
  }

  /** Writes text (UTF-8) without reading anything. */
  public void write(String text) throws IOException {
    write(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Writes bytes without reading anything. */
  public void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Reads one reply, all its lines. */
  public String reply() throws IOException {
    StringBuilder reply = new StringBuilder();
    while (true) {
      String line = line();
      if (line == null) {
        throw new IOException("connection closed; reply so far: " + reply);
      }
      reply.append(reply.isEmpty() ? "" : "\n").append(line);
      if (line.length() < 4 || line.charAt(3) == ' ') {
        return reply.toString();
      }
    }
  }

  /** Sends {@code line} and fails unless its reply starts with {@code prefix}; returns it. */
  public String expectAfter(String line, String prefix) throws IOException {
    write(line + "\r\n");
    return expect(prefix);
  }

  /** Reads one reply and fails unless it starts with {@code prefix}; returns it. */
  public String expect(String prefix) throws IOException {
    String reply = reply();
    if (!reply.startsWith(prefix)) {
      throw new AssertionError("expected a reply starting with " + prefix + " but got " + reply);
    }
    return reply;
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      if (b == '\n') {
        byte[] bytes = line.toByteArray();
        int length =
            bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
      }
      line.write(b);
    }
    return null;
  }

  /** True if the server closes the connection within the read timeout without sending more. */
  public boolean closedByServer() throws IOException {
    try {
      return in.read() == -1;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset
    }
  }

  /** True if the server sends nothing (and keeps the connection open) for {@code wait}. */
  public boolean silentFor(Duration wait) throws IOException {
    int timeout = socket.getSoTimeout();
    socket.setSoTimeout((int) wait.toMillis());
    try {
      in.read(); // a byte or the end of the stream: not silent
      return false;
    } catch (SocketTimeoutException e) {
      return true;
    } finally {
      socket.setSoTimeout(timeout);
    }
  }

  /** The connection, e.g. to write to it from another thread or to set socket options. */
  public Socket socket() {
    return socket;
  }

  /** Sends STARTTLS and upgrades the connection, trusting any certificate. */
  public void startTls() throws IOException {
    String reply = send("STARTTLS");
    if (!reply.startsWith("220")) {
      throw new AssertionError("STARTTLS refused: " + reply);
    }
    SSLSocket secure =
        (SSLSocket)
            trustingEveryone()
                .getSocketFactory()
                .createSocket(socket, "localhost", socket.getPort(), true);
    secure.setUseClientMode(true);
    secure.startHandshake();
    use(secure);
  }

  /** The TLS session's protocol, e.g. TLSv1.3, or null if not under TLS. */
  public String tlsProtocol() {
    return socket instanceof SSLSocket secure ? secure.getSession().getProtocol() : null;
  }

  /** The server's certificate chain under TLS. */
  public java.security.cert.Certificate[] peerCertificates() throws IOException {
    return ((SSLSocket) socket).getSession().getPeerCertificates();
  }

  public static SSLContext trustingEveryone() {
    TrustManager everyone =
        new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {everyone}, new SecureRandom());
      return context;
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Closes the connection abruptly (no QUIT). */
  @Override
  public void close() throws IOException {
    socket.close();
  }
}
