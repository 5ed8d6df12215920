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
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

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
 * <p>No client can hold a thread that closes its connection: what is held is sent at {@code close},
 * {@code shutdownInput} and {@code shutdownOutput} only if no other thread is writing to the
 * connection, and within {@link #PARTING_WRITE_TIME}; the stall cutter's and the stop's replies are
 * written within the same time ({@link Connection#writeOrClose}). A client that does not read loses
 * them, and its connection closes all the same. A session blocked writing to such a client is the
 * stall cutter's to end ({@link Connection#writeBlockedNanos}, {@link Connection#closeAtOnce}).
 *
 * <p>{@link #accept} hands each connection out as a {@link SessionSocket}, whose output adds the
 * enhanced status codes SubEtha's own replies lack; TLS is layered over the connection underneath.
 */
final class ReplyBatchingServerSocket extends ServerSocket {
  static final int MAX_HELD_BYTES = 16 * 1024;

  /**
   * How long a write on the way out may take (see the class comment). A client that reads takes a
   * reply at once unless the replies before it have filled its window and the server's send buffer,
   * that is unless it has stopped reading.
   */
  static final Duration PARTING_WRITE_TIME = Duration.ofSeconds(1);

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

  /**
   * An accepted connection whose output is held until its input is read. Nothing on the way out
   * waits on a client that does not read: {@code close}, {@code shutdownInput} and {@code
   * shutdownOutput} send what is held only if no other thread is writing here (that thread may be
   * blocked on such a client), and only within {@link #PARTING_WRITE_TIME}; past it the connection
   * is closed without them.
   */
  static final class Connection extends Socket {
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

    /**
     * How long the write to the client in progress, if any, has been blocked: a client that does
     * not read blocks it until the connection closes. 0 when nothing is being written.
     */
    long writeBlockedNanos(long now) {
      HeldOutput held = heldOutput();
      return held == null ? 0 : held.writeBlockedNanos(now);
    }

    @Override
    public void shutdownInput() throws IOException {
      sendOnTheWayOut(false);
      super.shutdownInput();
    }

    @Override
    public void shutdownOutput() throws IOException {
      sendOnTheWayOut(false);
      super.shutdownOutput();
    }

    @Override
    public void close() throws IOException {
      sendOnTheWayOut(true);
      super.close();
    }

    /**
     * Closes the connection without sending what is held, at once, whoever is writing to it: a
     * write blocked on it ends with an exception.
     */
    void closeAtOnce() {
      try {
        super.close();
      } catch (IOException e) {
        // closed all the same
      }
    }

    /**
     * Sends what is held once the write in progress, if any, is over; closes the connection at once
     * if that takes longer than {@link #PARTING_WRITE_TIME} (a client that does not read).
     */
    void sendHeldOrClose() throws IOException {
      HeldOutput held = heldOutput();
      if (held != null) {
        writeOrClose(held::send);
      }
    }

    /**
     * Runs {@code write}, which writes to this connection, on this thread, and closes the
     * connection at once if it has not finished within {@link #PARTING_WRITE_TIME}, which ends it
     * with an exception: how a reply on the way out (a cut's, or what is held at close) is written
     * without waiting longer on a client that does not read.
     */
    void writeOrClose(Write write) throws IOException {
      Thread deadline =
          Thread.ofVirtual()
              .name("smtp-parting-write")
              .start(
                  () -> {
                    try {
                      Thread.sleep(PARTING_WRITE_TIME);
                    } catch (InterruptedException e) {
                      return; // written in time
                    }
                    closeAtOnce();
                  });
      try {
        write.run();
      } finally {
        deadline.interrupt();
      }
    }

    /**
     * Sends what is held, after the reply for a connection closed unanswered if {@code answer} and
     * nothing was written to it yet: only if no other thread holds the output, and within {@link
     * #PARTING_WRITE_TIME}.
     */
    private void sendOnTheWayOut(boolean answer) {
      if (isClosed()) {
        return;
      }
      try {
        HeldOutput held = answer ? (HeldOutput) getOutputStream() : heldOutput();
        if (held == null) {
          return; // nothing was ever written
        }
        held.ifFree(
            () -> {
              boolean unanswered = answer && !held.written();
              if (unanswered || held.holdsReplies()) {
                writeOrClose(
                    () -> {
                      byte[] reply = unanswered ? unansweredReply() : null;
                      if (reply != null) {
                        held.write(reply);
                      }
                      held.send();
                    });
              }
            });
      } catch (IOException e) {
        // the client is gone: nothing to deliver the replies to
      }
    }

    private byte[] unansweredReply() {
      SmtpReply reply = unanswered.apply(getInetAddress());
      return reply == null ? null : (reply + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }
  }

  /** A write to a connection. */
  @FunctionalInterface
  interface Write {
    void run() throws IOException;
  }

  /**
   * Collects replies; {@link #send} writes them to the socket in one go. Notes when a write to the
   * socket began, so that one blocked on a client that does not read can be told from a quick one.
   */
  static final class HeldOutput extends OutputStream {
    private static final byte[] NONE = new byte[0];

    private final OutputStream socket;
    private final ReentrantLock lock = new ReentrantLock();
    private byte[] held = NONE; // guarded by lock
    private int count; // guarded by lock
    private boolean written; // guarded by lock
    private volatile boolean writing;
    private volatile long writeStartedNanos;

    HeldOutput(OutputStream socket) {
      this.socket = socket;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      lock.lock();
      try {
        written |= length > 0;
        if (count + length > MAX_HELD_BYTES) {
          send();
          writeToSocket(bytes, offset, length);
          return;
        }
        if (count + length > held.length) {
          held = Arrays.copyOf(held, Math.max(256, Math.max(count + length, 2 * count)));
        }
        System.arraycopy(bytes, offset, held, count, length);
        count += length;
      } finally {
        lock.unlock();
      }
    }

    /** Holds: the replies go out when the session next reads (see the class comment). */
    @Override
    public void flush() {}

    /** Writes what is held, if anything, and lets go of the buffer. */
    void send() throws IOException {
      lock.lock();
      try {
        if (count == 0) {
          return;
        }
        byte[] bytes = held;
        int n = count;
        held = NONE;
        count = 0;
        writeToSocket(bytes, 0, n);
        socket.flush();
      } finally {
        lock.unlock();
      }
    }

    private void writeToSocket(byte[] bytes, int offset, int length) throws IOException {
      writeStartedNanos = System.nanoTime();
      writing = true;
      try {
        socket.write(bytes, offset, length);
      } finally {
        writing = false;
      }
    }

    /** How long the socket write in progress has been blocked; 0 if none is. */
    long writeBlockedNanos(long now) {
      if (!writing) {
        return 0;
      }
      // read after writing: the start of this write or of a later one, never of an earlier one
      return Math.max(now - writeStartedNanos, 1);
    }

    /**
     * Runs {@code write} holding this output if no other thread holds it; does nothing otherwise
     * (the thread holding it may be blocked writing to a client that does not read).
     */
    void ifFree(Write write) throws IOException {
      if (!lock.tryLock()) {
        return;
      }
      try {
        write.run();
      } finally {
        lock.unlock();
      }
    }

    /** Whether replies are held; for {@link #ifFree}, which holds the output. */
    boolean holdsReplies() {
      lock.lock();
      try {
        return count > 0;
      } finally {
        lock.unlock();
      }
    }

    /** Whether anything was ever written here; for {@link #ifFree}, which holds the output. */
    boolean written() {
      lock.lock();
      try {
        return written;
      } finally {
        lock.unlock();
      }
    }

    /**
     * Closes the socket, which sends what is held first if it can do so without waiting (see {@link
     * Connection}).
     */
    @Override
    public void close() throws IOException {
      socket.close();
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
