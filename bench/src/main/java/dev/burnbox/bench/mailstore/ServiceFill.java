package dev.burnbox.bench.mailstore;

import dev.burnbox.bench.smtp.SmtpLoadClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 15's "the running service holds 1,000,000 realistic mails" check: delivers the store
 * benchmarks' workload ({@link StoreWorkload}: campaign copies and recurring corpus mail, each
 * delivery distinct) to a running Burnbox over SMTP on several connections, one recipient each,
 * spread over {@code --inboxes} inboxes (40,000 by default, so that the inbox cap of 50 is not what
 * limits a million), while a reader lists inboxes and reads messages over HTTP all along. Prints
 * progress with the service's {@code /api/v1/stats} every 100,000 mails and, at the end, the
 * replies by code, the stats and the service's heap after the last mail (from {@code /metrics}).
 * Exits 1 if any mail got anything but 250 or a reader request failed.
 *
 * <p>Run (with a service listening): {@code java -cp bench/target/benchmarks.jar
 * dev.burnbox.bench.mailstore.ServiceFill --smtp-port P --http-port H [--mails N] [--connections C]
 * [--inboxes I]}; {@code bench/run-service-fill.sh} starts the service in {@code -Xmx2g} first.
 */
public final class ServiceFill {
  private static final Pattern ID = Pattern.compile("\"id\":\"([A-Za-z0-9_-]{22})\"");

  private ServiceFill() {}

  /** Fills and reports; see the class comment for the arguments. */
  public static void main(String[] args) throws Exception {
    int smtpPort = 0;
    int httpPort = 0;
    long mails = 1_000_000;
    int connections = 16;
    int inboxes = 40_000;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--smtp-port" -> smtpPort = Integer.parseInt(args[++i]);
        case "--http-port" -> httpPort = Integer.parseInt(args[++i]);
        case "--mails" -> mails = Long.parseLong(args[++i]);
        case "--connections" -> connections = Integer.parseInt(args[++i]);
        case "--inboxes" -> inboxes = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
      }
    }
    StoreWorkload workload = new StoreWorkload(RawMailCorpus.locate());
    HttpClient http = HttpClient.newHttpClient();
    String web = "http://127.0.0.1:" + httpPort;
    InetSocketAddress smtp = new InetSocketAddress("127.0.0.1", smtpPort);

    AtomicLong next = new AtomicLong();
    LongAdder accepted = new LongAdder();
    LongAdder refused = new LongAdder();
    LongAdder reads = new LongAdder();
    AtomicBoolean readFailed = new AtomicBoolean();
    AtomicBoolean done = new AtomicBoolean();
    long total = mails;
    int spread = inboxes;
    long started = System.nanoTime();
    List<Thread> senders = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      senders.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try (SmtpLoadClient client = SmtpLoadClient.connect(null, smtp, 60_000)) {
                      client.greeting();
                      client.ehlo("fill.bench.test");
                      for (long seq; (seq = next.getAndIncrement()) < total; ) {
                        byte[] data = dotStuffed(workload.delivery(seq).raw());
                        String to = "fill" + (seq % spread) + "@burnbox.test";
                        if (client.send("sender@example.org", to, data) == 250) {
                          accepted.increment();
                        } else {
                          refused.increment();
                        }
                        if (seq % 100_000 == 99_999) {
                          System.out.printf(
                              "%,d mails in %.0f s: %s%n",
                              seq + 1,
                              (System.nanoTime() - started) / 1e9,
                              get(http, web + "/api/v1/stats"));
                        }
                      }
                    } catch (IOException | InterruptedException e) {
                      System.err.println("a sender failed: " + e);
                      refused.increment();
                    }
                  }));
    }
    Thread reader =
        Thread.ofPlatform()
            .start(
                () -> {
                  for (long i = 0; !done.get(); i++) {
                    try {
                      String page = get(http, web + "/api/v1/inboxes/fill" + (i * 7919 % spread));
                      Matcher id = ID.matcher(page);
                      if (id.find()) {
                        get(http, web + "/api/v1/messages/" + id.group(1));
                      }
                      reads.increment();
                      Thread.sleep(20);
                    } catch (IOException | InterruptedException e) {
                      System.err.println("a read failed: " + e);
                      readFailed.set(true);
                      return;
                    }
                  }
                });
    for (Thread t : senders) {
      t.join();
    }
    done.set(true);
    reader.join();
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf(
        "sent %,d mails in %.0f s (%,.0f/s): %,d answered 250, %,d not; %,d inbox pages read%n",
        total, seconds, total / seconds, accepted.sum(), refused.sum(), reads.sum());
    System.out.println("stats: " + get(http, web + "/api/v1/stats"));
    for (String line : get(http, web + "/metrics").split("\n")) {
      if (line.startsWith("jvm_memory_used_bytes{area=\"heap\"")
          || line.startsWith("jvm_gc_pause_seconds_max")) {
        System.out.println(line);
      }
    }
    if (refused.sum() != 0 || readFailed.get()) {
      System.exit(1);
    }
  }

  private static String get(HttpClient http, String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(url + " answered " + response.statusCode());
    }
    return response.body();
  }

  /**
   * {@code raw} as DATA sends it: lines ending in CRLF (the corpus files end theirs in LF alone),
   * leading dots doubled, ending with CRLF.CRLF.
   */
  private static byte[] dotStuffed(byte[] raw) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length + 256);
    boolean lineStart = true;
    byte previous = 0;
    for (byte b : raw) {
      if (lineStart && b == '.') {
        out.write('.');
      }
      if (b == '\n' && previous != '\r') {
        out.write('\r');
      }
      out.write(b);
      lineStart = b == '\n';
      previous = b;
    }
    if (!lineStart) {
      out.write('\r');
      out.write('\n');
    }
    out.write('.');
    out.write('\r');
    out.write('\n');
    return out.toByteArray();
  }
}
