package dev.burnbox.bench.smtp;

import dev.burnbox.server.smtp.IntakeSettings;
import dev.burnbox.server.smtp.SmtpIntake;
import dev.burnbox.server.smtp.SmtpReply;
import dev.burnbox.server.smtp.ThreadModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InputStream;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.subethamail.smtp.MessageContext;
import org.subethamail.smtp.MessageHandler;
import org.subethamail.smtp.server.SMTPServer;

/**
 * The load bench's reference servers without Burnbox's pipeline, run as their own process on
 * loopback until killed: {@code intake} is Burnbox's {@link SmtpIntake} with an acceptor that
 * answers 250 and keeps nothing; {@code subetha} is a bare SubEtha {@link SMTPServer} whose handler
 * reads and discards the data (no Received header, as in the intake: SubEtha's would look up each
 * client's host name). Both print {@code listening smtp=PORT} on stdout once bound.
 *
 * <p>Usage: {@code NoOpSmtpServer intake|subetha virtual|platform|pool MAX_CONNECTIONS}
 */
public final class NoOpSmtpServer {
  private NoOpSmtpServer() {}

  public static void main(String[] args) throws Exception {
    String kind = args[0];
    ThreadModel threads = ThreadModel.valueOf(args[1].toUpperCase(java.util.Locale.ROOT));
    int maxConnections = Integer.parseInt(args[2]);
    int port;
    if (kind.equals("intake")) {
      SmtpIntake intake =
          new SmtpIntake(
              IntakeSettings.of(
                  "--smtp-port=0",
                  "--hostname=noop.bench.test",
                  "--threads=" + threads,
                  "--max-connections=" + maxConnections),
              InetAddress.getLoopbackAddress(),
              (envelope, raw) -> SmtpReply.ok("ok"),
              new SimpleMeterRegistry());
      intake.start();
      port = intake.port();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> intake.stop(Duration.ofSeconds(1))));
    } else if (kind.equals("subetha")) {
      SMTPServer server =
          SMTPServer.port(0)
              .bindAddress(InetAddress.getLoopbackAddress())
              .hostName("noop.bench.test")
              .backlog(1024)
              .maxConnections(maxConnections)
              .executorService(executor(threads))
              .messageHandlerFactory(NoOpSmtpServer::discarding)
              // as the intake does; SubEtha's Received header looks up the client's host name
              .insertReceivedHeaders(false)
              .build();
      server.start();
      port = server.getPortAllocated();
    } else {
      throw new IllegalArgumentException("kind must be intake or subetha: " + kind);
    }
    System.out.println("listening smtp=" + port);
    System.out.flush();
    new CountDownLatch(1).await();
  }

  private static ExecutorService executor(ThreadModel threads) {
    return switch (threads) {
      case VIRTUAL -> Executors.newVirtualThreadPerTaskExecutor();
      case PLATFORM -> Executors.newCachedThreadPool(Thread.ofPlatform().daemon().factory());
      case POOL -> Executors.newFixedThreadPool(50, Thread.ofPlatform().daemon().factory());
    };
  }

  private static MessageHandler discarding(MessageContext context) {
    return new MessageHandler() {
      @Override
      public void from(String from) {}

      @Override
      public void recipient(String recipient) {}

      @Override
      public String data(InputStream data) throws java.io.IOException {
        data.transferTo(java.io.OutputStream.nullOutputStream());
        return null;
      }

      @Override
      public void done() {}
    };
  }
}
