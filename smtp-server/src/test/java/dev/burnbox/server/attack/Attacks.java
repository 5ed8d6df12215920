package dev.burnbox.server.attack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * The attacks, each from many untrusted loopback addresses ({@link #attackerAddresses}), one
 * virtual thread per connection. Each returns or keeps the replies it met, counted by code.
 */
final class Attacks {
  private Attacks() {}

  /** {@code count} attacker source addresses, 127.0.1.1 and up (Linux routes all of 127/8). */
  static List<String> attackerAddresses(int count) {
    List<String> addresses = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      addresses.add("127.0." + (1 + i / 250) + "." + (1 + i % 250));
    }
    return addresses;
  }

  /**
   * Slowloris: connections that each trickle one byte every {@code interval} (with jitter) and
   * never finish a command, or, for {@code inDataShare} of them, never finish their message
   * content. Runs until {@link #close()}.
   */
  static final class Slowloris implements AutoCloseable {
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Queue<RawSmtp> open = new ConcurrentLinkedQueue<>();
    private final Replies greetings = new Replies();
    private final AtomicInteger trickling = new AtomicInteger();
    private final AtomicLong closedByServer = new AtomicLong();
    private volatile boolean stopped;

    Slowloris(
        int port, int connections, List<String> sources, Duration interval, double inDataShare)
        throws InterruptedException {
      Semaphore connecting = new Semaphore(200); // stay within the server's listen backlog
      for (int i = 0; i < connections; i++) {
        String source = sources.get(i % sources.size());
        boolean inData = i < connections * inDataShare;
        connecting.acquire();
        threads.execute(() -> trickle(port, source, inData, interval, connecting));
      }
      connecting.acquire(200); // every connection has had its greeting
      connecting.release(200);
    }

    private void trickle(
        int port, String source, boolean inData, Duration interval, Semaphore connecting) {
      RawSmtp smtp = null;
      try {
        smtp = new RawSmtp(source, port, 60_000);
        open.add(smtp);
        String greeting = smtp.reply();
        greetings.count(greeting);
        if (!greeting.equals("220")) {
          return;
        }
        byte[] endless;
        if (inData) {
          smtp.command("EHLO slow.attack.test");
          smtp.command("MAIL FROM:<slow@attack.test>");
          smtp.command("RCPT TO:<slow@burnbox.test>");
          smtp.command("DATA");
          endless =
              "Subject: slow\r\n\r\nthis message never ends".getBytes(StandardCharsets.US_ASCII);
        } else {
          endless = "EHLO aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes();
        }
        connecting.release();
        connecting = null;
        trickling.incrementAndGet();
        for (int i = 0; !stopped; i = (i + 1) % endless.length) {
          long jitter = ThreadLocalRandom.current().nextLong(interval.toMillis() / 2 + 1);
          Thread.sleep(interval.toMillis() / 2 + jitter);
          smtp.write(new byte[] {endless[i]});
        }
      } catch (IOException e) {
        if (!stopped) {
          closedByServer.incrementAndGet();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        if (connecting != null) {
          connecting.release();
        }
        if (smtp != null) {
          smtp.close();
        }
      }
    }

    Replies greetings() {
      return greetings;
    }

    /** Connections that got their greeting and started trickling. */
    int trickling() {
      return trickling.get();
    }

    /** Trickling connections the server has cut (seen when a write fails). */
    long closedByServer() {
      return closedByServer.get();
    }

    @Override
    public void close() throws InterruptedException {
      stopped = true;
      open.forEach(RawSmtp::close);
      threads.shutdownNow();
      threads.awaitTermination(30, TimeUnit.SECONDS);
    }
  }

  /**
   * A connection flood: opens {@code connections} at once, reads each greeting, keeps the admitted
   * ones open and silent for {@code hold}, then closes them all. Returns the greetings by code.
   */
  static Replies connectionFlood(int port, int connections, List<String> sources, Duration hold)
      throws InterruptedException {
    Replies greetings = new Replies();
    Queue<RawSmtp> open = new ConcurrentLinkedQueue<>();
    Semaphore connecting = new Semaphore(200);
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < connections; i++) {
        String source = sources.get(i % sources.size());
        connecting.acquire();
        threads.execute(
            () -> {
              try {
                RawSmtp smtp = new RawSmtp(source, port, 30_000);
                open.add(smtp);
                greetings.count(smtp.reply());
              } catch (IOException e) {
                greetings.count(e.getClass().getSimpleName());
              } finally {
                connecting.release();
              }
            });
      }
    }
    Thread.sleep(hold.toMillis());
    open.forEach(RawSmtp::close);
    return greetings;
  }

  /**
   * Many connections at once, each sending {@code messagesPerConnection} messages made by {@code
   * message} (given a running number), each with a subject of its own. Returns the final reply of
   * each message by code.
   */
  static Replies mail(
      int port,
      int connections,
      int messagesPerConnection,
      List<String> sources,
      IntFunction<byte[]> message)
      throws InterruptedException {
    Replies replies = new Replies();
    AtomicInteger sequence = new AtomicInteger();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int c = 0; c < connections; c++) {
        String source = sources.get(c % sources.size());
        threads.execute(
            () -> {
              try (RawSmtp smtp = new RawSmtp(source, port, 120_000)) {
                String greeting = smtp.reply();
                if (!greeting.equals("220")) {
                  replies.count("greeting " + greeting);
                  return;
                }
                smtp.command("EHLO bomb.attack.test");
                for (int m = 0; m < messagesPerConnection; m++) {
                  int n = sequence.incrementAndGet();
                  byte[] headers =
                      ("Subject: attack " + n + "\r\n").getBytes(StandardCharsets.US_ASCII);
                  String code =
                      smtp.send("victim" + n % 50 + "@burnbox.test", headers, message.apply(n));
                  replies.count(code);
                  if (code.equals("EOF") || code.startsWith("421")) {
                    return;
                  }
                }
                smtp.command("QUIT");
              } catch (IOException e) {
                replies.count(e.getClass().getSimpleName());
              }
            });
      }
    }
    return replies;
  }
}
