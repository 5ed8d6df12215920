package dev.burnbox.server.smtp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The intake's listening socket. Its connections hold replies back until the session next reads
 * from the network, the way Postfix's smtpd does: a pipelining client (RFC 2920) that sent MAIL,
 * RCPT and DATA at once gets the three replies in one write instead of three, and the server makes
 * one system call where it made three. A reply is never held while the session waits for the
 * client: every read that reaches the socket, every {@code shutdownInput} and every {@code close}
 * first sends what is held. SubEtha flushes after each reply; {@code flush} on these connections
 * only marks the end of a reply.
 *
 * <p>Replies stay in order: everything the session writes (our commands, SubEtha's own replies, TLS
 * records after STARTTLS, the stall cutter's 421) goes through the one held buffer. The buffer
 * holds at most {@value #MAX_HELD_BYTES} bytes (a client pipelining thousands of commands in one
 * read gets them in several writes) and is allocated only while it holds something, so idle
 * connections cost nothing extra. Thread-safe: the stall cutter may write while the session's
 * thread reads.
 *
 * <p>No connection is closed without a word: one closed before anything was written to it first
 * gets the reply {@code unanswered} gives for its client. Only a stop closes a connection that
 * early: SubEtha's {@code stop()} closes every session's connection, including one accepted just
 * before the listener closed whose session has not yet sent its greeting or the gate's refusal (or,
 * queued for a busy pool, never will), and closes one that its shut-down executor will not run.
 *
 * <p>{@link #accept} hands each connection out as a {@link SessionSocket}, whose output adds the
 * enhanced status codes SubEtha's own replies lack; TLS is layered over the connection underneath.
 */
final class ReplyBatchingServerSocket extends ServerSocket {
  static final int MAX_HELD_BYTES = 16 * 1024;

  private final Function<InetAddress, SmtpReply> unanswered;

  /**
   * @param unanswered the reply for a connection closed before anything was written to it, given
   *     its client's address; null from it closes the connection without one
   */
  ReplyBatchingServerSocket(Function<InetAddress, SmtpReply> unanswered) throws IOException {
    super();
    this.unanswered = Objects.requireNonNull(unanswered, "unanswered");
  }

  @Override
  public Socket accept() throws IOException {
    if (isClosed()) {
      throw new SocketException("Socket is closed");
    }
    if (!isBound()) {
      throw new SocketException("Socket is not bound yet");
    }
    Connection connection = new Connection(unanswered);
    implAccept(connection);
    return new SessionSocket(connection);
  }

  /** An accepted connection whose output is held until its input is read. */
  private static final class Connection extends Socket {
    private final Function<InetAddress, SmtpReply> unanswered;
    private HeldOutput output; // guarded by this
    private InputStream input; // guarded by this

    Connection(Function<InetAddress, SmtpReply> unanswered) {
      this.unanswered = unanswered;
    }

    @Override
    public synchronized OutputStream getOutputStream() throws IOException {
      if (output == null) {
        output = new HeldOutput(super.getOutputStream());
      }
      return output;
    }

    @Override
    public synchronized InputStream getInputStream() throws IOException {
      if (input == null) {
        getOutputStream(); // creates the held output the input sends before each read
        input = new SendingInput(super.getInputStream(), output);
      }
      return input;
    }

    private HeldOutput heldOutput() {
      synchronized (this) {
        return output;
      }
    }

    @Override
    public void shutdownInput() throws IOException {
      sendHeld();
      super.shutdownInput();
    }

    @Override
    public void shutdownOutput() throws IOException {
      sendHeld();
      super.shutdownOutput();
    }

    @Override
    public void close() throws IOException {
      answerIfUnanswered();
      sendHeld();
      super.close();
    }

    /** Writes the reply for a connection closed unanswered, if nothing was written to it yet. */
    private void answerIfUnanswered() {
      if (isClosed()) {
        return;
      }
      try {
        ((HeldOutput) getOutputStream())
            .writeIfNothingWritten(
                () -> {
                  SmtpReply reply = unanswered.apply(getInetAddress());
                  return reply == null
                      ? null
                      : (reply + "\r\n").getBytes(StandardCharsets.US_ASCII);
                });
      } catch (IOException e) {
        // the client is gone: nothing to deliver the reply to
      }
    }

    private void sendHeld() {
      HeldOutput held = heldOutput();
      if (held != null && !isClosed()) {
        try {
          held.send();
        } catch (IOException e) {
          // the client is gone: nothing to deliver the replies to
        }
      }
    }
  }

  /** Collects replies; {@link #send} writes them to the socket in one go. */
  static final class HeldOutput extends OutputStream {
    private static final byte[] NONE = new byte[0];

    private final OutputStream socket;
    private byte[] held = NONE;
    private int count;
    private boolean written;

    HeldOutput(OutputStream socket) {
      this.socket = socket;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
      written |= length > 0;
      if (count + length > MAX_HELD_BYTES) {
        send();
        socket.write(bytes, offset, length);
        return;
      }
      if (count + length > held.length) {
        held = java.util.Arrays.copyOf(held, Math.max(256, Math.max(count + length, 2 * count)));
      }
      System.arraycopy(bytes, offset, held, count, length);
      count += length;
    }

    /**
     * Writes what {@code bytes} gives if nothing was ever written here, atomically with respect to
     * other writes; a null from it writes nothing.
     */
    synchronized void writeIfNothingWritten(Supplier<byte[]> bytes) throws IOException {
      if (!written) {
        byte[] first = bytes.get();
        if (first != null) {
          write(first, 0, first.length);
        }
      }
    }

    /** Holds: the replies go out when the session next reads (see the class comment). */
    @Override
    public void flush() {}

    /** Writes what is held, if anything, and lets go of the buffer. */
    synchronized void send() throws IOException {
      if (count == 0) {
        return;
      }
      byte[] bytes = held;
      int n = count;
      held = NONE;
      count = 0;
      socket.write(bytes, 0, n);
      socket.flush();
    }

    @Override
    public void close() throws IOException {
      try {
        send();
      } finally {
        socket.close();
      }
    }
  }

  /** The socket's input: sends the held replies before each read. */
  static final class SendingInput extends FilterInputStream {
    private final HeldOutput held;

    SendingInput(InputStream socket, HeldOutput held) {
      super(socket);
      this.held = held;
    }

    @Override
    public int read() throws IOException {
      held.send();
      return in.read();
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
      held.send();
      return in.read(bytes, offset, length);
    }

    @Override
    public long skip(long n) throws IOException {
      held.send();
      return in.skip(n);
    }
  }
}
