package dev.burnbox.bench.soak;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One soak client connection on a blocking socket: sends mails one command at a time, misbehaving
 * as told, and classifies each attempt by what it saw on the wire. The classification is the
 * ledger's promise: an attempt is {@link Outcome#UNKNOWN} exactly when the end of the content may
 * have reached the server but no reply was read, and {@link Outcome#INTERRUPTED} only when the end
 * was never written. Not thread-safe.
 */
final class SoakConnection implements Closeable {
  private static final byte[] END_OF_DATA = ".\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final String SENDER = "sender@soak.test";
  private static final String DOMAIN = "soak.test";

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private String lastReply = "";
  private boolean open = true;

  private SoakConnection(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream(), 4096);
    this.out = socket.getOutputStream();
  }

  /**
   * Connects, reads the greeting and says EHLO.
   *
   * @return the connection, or null if the server turned it away (a 421 while stopping, or no
   *     listener)
   */
  static SoakConnection open(InetSocketAddress server, Duration readTimeout) {
    Socket socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      socket.connect(server, 5_000);
      socket.setSoTimeout((int) readTimeout.toMillis());
      SoakConnection connection = new SoakConnection(socket);
      if (connection.reply() != 220 || connection.command("EHLO soak.client") != 250) {
        connection.close();
        return null;
      }
      return connection;
    } catch (IOException e) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // nothing to release
      }
      return null;
    }
  }

  /** Whether another mail may be sent on this connection. */
  boolean isOpen() {
    return open;
  }

  /**
   * Tries to deliver {@code raw} to {@code inboxes} behaving as {@code behaviour} says, and returns
   * the attempt as the ledger records it. Never throws: a broken connection is an outcome.
   *
   * @param stall how long a stalling client stays silent (longer than the server's timeout)
   */
  Attempt send(
      long sequence,
      String token,
      List<String> inboxes,
      byte[] raw,
      boolean bdat,
      Misbehaviour behaviour,
      Duration stall,
      SplittableRandom random) {
    String transport = bdat ? "BDAT" : "DATA";
    List<String> accepted = new ArrayList<>();
    try {
      int mail = command("MAIL FROM:<" + SENDER + ">");
      if (mail != 250) {
        return ended(sequence, token, accepted, raw, transport, behaviour, Outcome.REFUSED);
      }
      for (String inbox : inboxes) {
        if (command("RCPT TO:<" + inbox + "@" + DOMAIN + ">") == 250) {
          accepted.add(inbox);
        } else if (!open) {
          break;
        }
      }
      if (accepted.isEmpty()) {
        if (open) {
          command("RSET");
        }
        return ended(sequence, token, accepted, raw, transport, behaviour, Outcome.REFUSED);
      }
      switch (behaviour) {
        case DISCONNECT_BEFORE_DATA -> {
          close();
          return ended(sequence, token, accepted, raw, transport, behaviour, Outcome.INTERRUPTED);
        }
        case RSET_MID_TRANSACTION -> {
          command("RSET");
          return ended(sequence, token, accepted, raw, transport, behaviour, Outcome.INTERRUPTED);
        }
        case STALL_BEFORE_DATA -> {
          sleep(stall);
          readUntilClosed();
          return ended(sequence, token, accepted, raw, transport, behaviour, Outcome.INTERRUPTED);
        }
        default -> {}
      }
      Outcome outcome =
          bdat
              ? sendChunks(raw, behaviour, stall, random)
              : sendData(raw, behaviour, stall, random);
      if (outcome == Outcome.ACKNOWLEDGED && behaviour == Misbehaviour.DISCONNECT_AFTER_250) {
        close();
      }
      return ended(sequence, token, accepted, raw, transport, behaviour, outcome);
    } catch (IOException e) {
      lastReply = "connection lost: " + e;
      close();
      return ended(sequence, token, accepted, raw, transport, behaviour, Outcome.INTERRUPTED);
    }
  }

  /** DATA: 354, the dot-stuffed content, the final dot, the reply. */
  private Outcome sendData(
      byte[] raw, Misbehaviour behaviour, Duration stall, SplittableRandom random)
      throws IOException {
    int data = command("DATA");
    if (data != 354) {
      return Outcome.REFUSED;
    }
    byte[] stuffed = dotStuffed(raw);
    if (behaviour == Misbehaviour.DISCONNECT_MID_DATA || behaviour == Misbehaviour.STALL_MID_DATA) {
      writeCut(stuffed, behaviour, stall, random);
      return Outcome.INTERRUPTED;
    }
    out.write(stuffed);
    out.flush();
    return finish(END_OF_DATA, behaviour);
  }

  /**
   * BDAT: the content in one to four chunks, each answered; the LAST one's reply is the verdict.
   */
  private Outcome sendChunks(
      byte[] raw, Misbehaviour behaviour, Duration stall, SplittableRandom random)
      throws IOException {
    int chunks = 1 + random.nextInt(4);
    int cutChunk = random.nextInt(chunks);
    int from = 0;
    for (int i = 0; i < chunks; i++) {
      boolean last = i == chunks - 1;
      int to = last ? raw.length : from + random.nextInt(raw.length - from + 1);
      byte[] chunk = Arrays.copyOfRange(raw, from, to);
      byte[] header =
          ("BDAT " + chunk.length + (last ? " LAST" : "") + "\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      if (i == cutChunk
          && (behaviour == Misbehaviour.DISCONNECT_MID_DATA
              || behaviour == Misbehaviour.STALL_MID_DATA)) {
        // cut inside the command and its bytes: an empty LAST chunk's command alone ends the mail
        writeCut(concat(header, chunk), behaviour, stall, random);
        return Outcome.INTERRUPTED;
      }
      if (last) { // the header of an empty LAST chunk already ends the message
        return finish(concat(header, chunk), behaviour);
      }
      out.write(header);
      out.write(chunk);
      out.flush();
      int code = reply();
      if (code != 250) {
        if (open) {
          command("RSET");
        }
        return Outcome.REFUSED;
      }
      from = to;
    }
    throw new AssertionError("the last chunk returns");
  }

  /**
   * Writes the bytes that end the content; from the first of them on, a lost connection makes the
   * attempt UNKNOWN.
   */
  private Outcome finish(byte[] end, Misbehaviour behaviour) {
    try {
      out.write(end);
      out.flush();
      if (behaviour == Misbehaviour.DISCONNECT_AFTER_END) {
        lastReply = "(hung up after the end of the content)";
        close();
        return Outcome.UNKNOWN;
      }
      int code = reply();
      if (code == 250) {
        return Outcome.ACKNOWLEDGED;
      }
      if (open && code < 500 && code != 421) {
        command("RSET");
      }
      return Outcome.REFUSED;
    } catch (IOException e) {
      lastReply = "connection lost after the end of the content: " + e;
      close();
      return Outcome.UNKNOWN;
    }
  }

  /** Writes a strict prefix of {@code bytes} (never all of them), then hangs up or stalls. */
  private void writeCut(
      byte[] bytes, Misbehaviour behaviour, Duration stall, SplittableRandom random)
      throws IOException {
    int cut = bytes.length <= 1 ? 0 : random.nextInt(bytes.length);
    out.write(bytes, 0, cut);
    out.flush();
    if (behaviour == Misbehaviour.STALL_MID_DATA) {
      sleep(stall);
      readUntilClosed();
    } else {
      lastReply = "(hung up after " + cut + " of " + bytes.length + " content bytes)";
      close();
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  /** After a stall: reads the server's timeout reply, if any, and closes. */
  private void readUntilClosed() {
    try {
      reply();
    } catch (IOException e) {
      lastReply = "(no reply after the stall: " + e.getClass().getSimpleName() + ")";
    }
    close();
  }

  /** Sends one command line and returns the reply code. */
  int command(String line) throws IOException {
    out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return reply();
  }

  /** Reads one (possibly multi-line) reply; 421 closes the connection. */
  private int reply() throws IOException {
    while (true) {
      String line = readLine();
      if (line.length() < 3) {
        throw new IOException("malformed reply: " + line);
      }
      if (line.length() == 3 || line.charAt(3) != '-') {
        lastReply = line;
        int code = Integer.parseInt(line.substring(0, 3));
        if (code == 421) {
          close();
        }
        return code;
      }
    }
  }

  private String readLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(128);
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("connection closed by the server");
      }
      if (b == '\n') {
        byte[] bytes = line.toByteArray();
        int length = bytes.length;
        if (length > 0 && bytes[length - 1] == '\r') {
          length--;
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
      }
      line.write(b);
    }
  }

  /** Content as DATA carries it: every line that starts with a dot gets one more. */
  static byte[] dotStuffed(byte[] raw) {
    ByteArrayOutputStream stuffed = new ByteArrayOutputStream(raw.length + 64);
    boolean lineStart = true;
    for (byte b : raw) {
      if (lineStart && b == '.') {
        stuffed.write('.');
      }
      stuffed.write(b);
      lineStart = b == '\n';
    }
    return stuffed.toByteArray();
  }

  private Attempt ended(
      long sequence,
      String token,
      List<String> accepted,
      byte[] raw,
      String transport,
      Misbehaviour behaviour,
      Outcome outcome) {
    return new Attempt(sequence, token, accepted, raw, transport, behaviour, outcome, lastReply);
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Says QUIT if the connection is still open, then closes it. */
  void quit() {
    if (open) {
      try {
        command("QUIT");
      } catch (IOException ignored) {
        // closing anyway
      }
    }
    close();
  }

  @Override
  public void close() {
    open = false;
    try {
      socket.close();
    } catch (IOException ignored) {
      // nothing more to do
    }
  }
}
