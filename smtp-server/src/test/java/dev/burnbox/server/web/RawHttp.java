package dev.burnbox.server.web;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A bare HTTP/1.x client for hostile requests: connects from a chosen loopback address, writes
 * exactly the bytes given (ISO-8859-1, so {@code \u0085} is the byte 0x85), and reads one response
 * at a time (status, headers, body by Content-Length, chunks or end of stream). Not thread-safe.
 */
public final class RawHttp implements AutoCloseable {
  /** One response as read off the wire; header names in lower case. */
  public record Reply(int status, Map<String, String> headers, String body) {
    /** The value of header {@code name} (any case), or null. */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private final Socket socket;
  private final InputStream in;

  private RawHttp(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream());
  }

  /** A connection to {@code port} on 127.0.0.1 from {@code source}, reads waiting {@code ms}. */
  public static RawHttp connect(String source, int port, int readTimeoutMillis) throws IOException {
    Socket socket = new Socket();
    try {
      socket.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
      socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      socket.setSoTimeout(readTimeoutMillis);
      return new RawHttp(socket);
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  /** A connection to {@code port} from 127.0.0.1, reads waiting 10 s. */
  public static RawHttp connect(int port) throws IOException {
    return connect("127.0.0.1", port, 10_000);
  }

  /** Writes {@code text} as ISO-8859-1 bytes. */
  public RawHttp send(String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    socket.getOutputStream().flush();
    return this;
  }

  /** Sends one request and reads its response. */
  public static Reply exchange(int port, String request) throws IOException {
    try (RawHttp http = connect(port)) {
      return http.send(request).reply();
    }
  }

  /** The next response. */
  public Reply reply() throws IOException {
    Reply head = replyHead();
    Map<String, String> headers = head.headers();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (headers.containsKey("content-length")) {
      body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
    } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      for (int size = Integer.parseInt(line().strip(), 16); size > 0; ) {
        body.write(in.readNBytes(size));
        line();
        size = Integer.parseInt(line().strip(), 16);
      }
      line();
    } else {
      body.write(in.readAllBytes());
    }
    return new Reply(head.status(), headers, body.toString(StandardCharsets.UTF_8));
  }

  /** The status line and headers of the next response, its body left unread (a stream's). */
  public Reply replyHead() throws IOException {
    String statusLine = line();
    if (statusLine == null) {
      throw new IOException("connection closed before a response");
    }
    String[] parts = statusLine.split(" ", 3);
    int status = Integer.parseInt(parts[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = line(); line != null && !line.isEmpty(); line = line()) {
      int colon = line.indexOf(':');
      headers.put(
          line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).strip());
    }
    return new Reply(status, headers, "");
  }

  /** True if at least one more byte arrives within the read timeout (not the end of stream). */
  public boolean readsWithin() {
    try {
      return in.read() != -1;
    } catch (IOException e) {
      return false;
    }
  }

  /** Sets how long a read waits. */
  public void readTimeout(int millis) throws IOException {
    socket.setSoTimeout(millis);
  }

  /** True if the server closes the connection within the read timeout (end of stream or reset). */
  public boolean closedByServer() {
    try {
      return in.read() == -1;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      if (b == '\n') {
        return line.toString(StandardCharsets.ISO_8859_1).stripTrailing();
      }
      line.write(b);
    }
    return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
