package dev.burnbox.server.attack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An honest sender and reader: one whole SMTP transaction (greeting, EHLO, MAIL, RCPT, DATA, QUIT)
 * to a fresh inbox, then an HTTP read of that inbox that must list the message; the time of both
 * together is one sample. {@link #runUntilStopped} repeats this on its own thread, alternating
 * between source addresses so the per-IP message rate of an honest sender is never reached.
 */
final class HonestClient {
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final AttackedService service;
  private final List<String> sourceAddresses;
  private volatile boolean stopped;
  private volatile boolean mayBeEvicted;

  HonestClient(AttackedService service, List<String> sourceAddresses) {
    this.service = service;
    this.sourceAddresses = List.copyOf(sourceAddresses);
  }

  /** What one honest transaction saw. */
  record Sample(boolean ok, long millis, String failure, String steps) {}

  /** Samples of one phase, thread-safe to add to. */
  static final class Samples {
    private final List<Sample> samples = Collections.synchronizedList(new ArrayList<>());

    void add(Sample sample) {
      samples.add(sample);
    }

    List<Sample> all() {
      synchronized (samples) {
        return List.copyOf(samples);
      }
    }

    int count() {
      return samples.size();
    }

    List<String> failures() {
      return all().stream().filter(s -> !s.ok()).map(Sample::failure).toList();
    }

    /** The q-quantile (0..1) of the successful samples' times, in ms; -1 if there are none. */
    long quantileMillis(double q) {
      List<Long> times = all().stream().filter(Sample::ok).map(Sample::millis).sorted().toList();
      if (times.isEmpty()) {
        return -1;
      }
      return times.get((int) Math.min(times.size() - 1, Math.ceil(q * times.size()) - 1));
    }

    long maxMillis() {
      return quantileMillis(1.0);
    }

    /** The slowest sample's steps. */
    String slowest() {
      return all().stream()
          .max(java.util.Comparator.comparingLong(Sample::millis))
          .map(Sample::steps)
          .orElse("");
    }

    @Override
    public String toString() {
      return "%d transactions, %d failed, p50 %d ms, p99 %d ms, max %d ms (slowest: %s)"
          .formatted(
              count(),
              failures().size(),
              quantileMillis(0.5),
              quantileMillis(0.99),
              maxMillis(),
              slowest());
    }
  }

  /** One transaction plus the read-back, from the next source address. */
  Sample once() {
    int n = SEQUENCE.incrementAndGet();
    String inbox = "honest-" + n;
    String subject = "honest mail " + n;
    long start = System.nanoTime();
    Steps steps = new Steps(start);
    try {
      String source = sourceAddresses.get(n % sourceAddresses.size());
      try (Socket socket = new Socket()) {
        socket.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
        socket.connect(new InetSocketAddress("127.0.0.1", service.smtpPort()), 10_000);
        socket.setSoTimeout(30_000);
        var in =
            new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        OutputStream out = socket.getOutputStream();
        steps.mark("connect");
        expect(in, "220");
        steps.mark("greeting");
        say(out, "EHLO honest.test");
        expect(in, "250");
        say(out, "MAIL FROM:<sender@honest.test>");
        expect(in, "250");
        say(out, "RCPT TO:<" + inbox + "@burnbox.test>");
        expect(in, "250");
        steps.mark("ehlo-rcpt");
        say(out, "DATA");
        expect(in, "354");
        say(out, "Subject: " + subject + "\r\n\r\nHello, this is an ordinary mail.\r\n.");
        expect(in, "250");
        steps.mark("data");
        say(out, "QUIT");
        expect(in, "221");
      }
      String listing = service.get("/api/v1/inboxes/" + inbox);
      steps.mark("http");
      if (!listing.contains(subject) && !mayBeEvicted) {
        return new Sample(
            false, elapsedMillis(start), "inbox does not list it: " + listing, steps.toString());
      }
      return new Sample(true, elapsedMillis(start), "", steps.toString());
    } catch (IOException | RuntimeException e) {
      return new Sample(false, elapsedMillis(start), e.toString(), steps.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Sample(false, elapsedMillis(start), "interrupted", steps.toString());
    }
  }

  /** Runs transactions into {@code samples}, {@code pauseMillis} apart, until {@link #stop()}. */
  Thread runUntilStopped(Samples samples, long pauseMillis) {
    stopped = false;
    return Thread.ofPlatform()
        .name("honest-client")
        .start(
            () -> {
              while (!stopped) {
                samples.add(once());
                try {
                  Thread.sleep(pauseMillis);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
  }

  /**
   * Whether a stored mail may be gone from its inbox by the time it is read, as when a flood of
   * newer mail evicts it under the store's byte budget; the read itself must still succeed.
   */
  void mayBeEvicted(boolean evictable) {
    this.mayBeEvicted = evictable;
  }

  void stop() {
    stopped = true;
  }

  /** Milliseconds spent in each step of one transaction, for the report on slow ones. */
  private static final class Steps {
    private final StringBuilder text = new StringBuilder();
    private long last;

    Steps(long start) {
      last = start;
    }

    void mark(String step) {
      long now = System.nanoTime();
      text.append(step).append(' ').append((now - last) / 1_000_000).append(" ms; ");
      last = now;
    }

    @Override
    public String toString() {
      return text.toString();
    }
  }

  private static long elapsedMillis(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static void say(OutputStream out, String line) throws IOException {
    out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** Reads one whole reply and checks its code. */
  private static void expect(BufferedReader in, String code) throws IOException {
    String line;
    do {
      line = in.readLine();
      if (line == null) {
        throw new IOException("connection closed while expecting " + code);
      }
    } while (line.length() > 3 && line.charAt(3) == '-');
    if (!line.startsWith(code)) {
      throw new IOException("expected " + code + ", got: " + line);
    }
  }
}
