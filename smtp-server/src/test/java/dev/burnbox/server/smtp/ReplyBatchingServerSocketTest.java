package dev.burnbox.server.smtp;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReplyBatchingServerSocketTest {

  /** Records each write the held output makes to the socket. */
  private static final class Writes extends OutputStream {
    final List<String> writes = new ArrayList<>();

    @Override
    public void write(int b) {
      writes.add(String.valueOf((char) b));
    }

    @Override
    public void write(byte[] b, int off, int len) {
      writes.add(new String(b, off, len, US_ASCII));
    }
  }

  @Test
  void repliesWrittenBeforeTheNextReadLeaveInOneWrite() throws IOException {
    Writes socket = new Writes();
    ReplyBatchingServerSocket.HeldOutput out = new ReplyBatchingServerSocket.HeldOutput(socket);
    InputStream in =
        new ReplyBatchingServerSocket.SendingInput(
            new ByteArrayInputStream("QUIT\r\n".getBytes(US_ASCII)), out);

    for (String reply : List.of("250 2.1.0 ok\r\n", "250 2.1.5 ok\r\n", "354 go\r\n")) {
      out.write(reply.getBytes(US_ASCII));
      out.flush();
    }
    assertThat(socket.writes).isEmpty();

    in.read();
    assertThat(socket.writes).containsExactly("250 2.1.0 ok\r\n250 2.1.5 ok\r\n354 go\r\n");
  }

  @Test
  void moreThanTheBoundGoesOutInOrderWithoutWaitingForARead() throws IOException {
    Writes socket = new Writes();
    ReplyBatchingServerSocket.HeldOutput out = new ReplyBatchingServerSocket.HeldOutput(socket);
    String reply = "250 2.0.0 Ok\r\n";
    StringBuilder sent = new StringBuilder();
    while (sent.length() <= ReplyBatchingServerSocket.MAX_HELD_BYTES) {
      out.write(reply.getBytes(US_ASCII));
      sent.append(reply);
    }

    assertThat(socket.writes).isNotEmpty();
    assertThat(String.join("", socket.writes)).isEqualTo(sent.toString());
  }

  @Test
  void aHeldReplyReachesTheClientAsSoonAsTheServerWaitsToRead() throws Exception {
    try (ReplyBatchingServerSocket server = new ReplyBatchingServerSocket(client -> null)) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
          Socket accepted = server.accept()) {
        accepted.getOutputStream().write("220 hello\r\n".getBytes(US_ASCII));
        accepted.getOutputStream().flush();
        CompletableFuture<Integer> serverRead =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return accepted.getInputStream().read();
                  } catch (IOException e) {
                    throw new RuntimeException(e);
                  }
                });

        client.setSoTimeout(5000);
        assertThat(new String(client.getInputStream().readNBytes(11), US_ASCII))
            .isEqualTo("220 hello\r\n");
        client.getOutputStream().write('Q');
        assertThat(serverRead.get(5, TimeUnit.SECONDS)).isEqualTo((int) 'Q');
      }
    }
  }

  @Test
  void closingTheConnectionSendsWhatIsHeld() throws Exception {
    try (ReplyBatchingServerSocket server = new ReplyBatchingServerSocket(client -> null)) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
        Socket accepted = server.accept();
        accepted.getOutputStream().write("221 2.0.0 Bye\r\n".getBytes(US_ASCII));
        accepted.getOutputStream().flush();
        accepted.close();

        client.setSoTimeout(5000);
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        client.getInputStream().transferTo(received);
        assertThat(received.toString(US_ASCII)).isEqualTo("221 2.0.0 Bye\r\n");
      }
    }
  }

  /**
   * A connection closed before anything was written to it (as SubEtha's stop closes one whose
   * session has not yet answered) gets the listener's reply for it; one that was answered gets
   * nothing more.
   */
  @Test
  void aConnectionClosedBeforeAnythingWasWrittenGetsTheUnansweredReplyFirst() throws Exception {
    List<InetAddress> asked = new ArrayList<>();
    SmtpReply shuttingDown = new SmtpReply(421, "4.3.2", "Service shutting down, try again later");
    try (ReplyBatchingServerSocket server =
        new ReplyBatchingServerSocket(
            client -> {
              asked.add(client);
              return shuttingDown;
            })) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      try (Socket silent = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
          Socket answered = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
        server.accept().close();
        Socket second = server.accept();
        second.getOutputStream().write("220 hello\r\n".getBytes(US_ASCII));
        second.close();

        for (Socket client : List.of(silent, answered)) {
          client.setSoTimeout(5000);
        }
        assertThat(new String(silent.getInputStream().readAllBytes(), US_ASCII))
            .isEqualTo("421 4.3.2 Service shutting down, try again later\r\n");
        assertThat(new String(answered.getInputStream().readAllBytes(), US_ASCII))
            .isEqualTo("220 hello\r\n");
        assertThat(asked).containsExactly(InetAddress.getLoopbackAddress());
      }
    }
  }

  /**
   * A thread blocked writing to a client that does not read holds the connection's output; a close
   * from another thread (SubEtha's stop, the session's own end) used to wait for it, as long as the
   * client kept its connection. It closes at once, which ends the blocked write.
   */
  @Test
  void aCloseDoesNotWaitForAWriteBlockedOnAClientThatDoesNotRead() throws Exception {
    try (ReplyBatchingServerSocket server = new ReplyBatchingServerSocket(client -> null)) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      try (Socket client = new Socket()) {
        client.setReceiveBufferSize(4096);
        client.connect(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
        Socket accepted = server.accept();
        OutputStream out = accepted.getOutputStream();
        byte[] replies = "250 2.0.0 Ok\r\n".repeat(2000).getBytes(US_ASCII);
        AtomicLong writes = new AtomicLong();
        CompletableFuture<Void> writing =
            CompletableFuture.runAsync(
                () -> {
                  try {
                    while (true) {
                      out.write(replies); // more than is held: each goes to the socket
                      writes.incrementAndGet();
                    }
                  } catch (IOException e) {
                    // the close ended it
                  }
                },
                task -> Thread.ofPlatform().daemon().name("writing").start(task));
        long seen;
        do { // until the client's buffers are full and the write blocks
          seen = writes.get();
          Thread.sleep(500);
        } while (writes.get() != seen);

        CompletableFuture<Void> closing =
            CompletableFuture.runAsync(
                () -> {
                  try {
                    accepted.close();
                  } catch (IOException e) {
                    throw new RuntimeException(e);
                  }
                },
                task -> Thread.ofPlatform().daemon().name("closing").start(task));
        // liveness, not speed: the close used to wait until the client left
        closing.get(10, TimeUnit.SECONDS);
        writing.get(10, TimeUnit.SECONDS);
      }
    }
  }
}
