package dev.burnbox.bench.mailstore;

import dev.burnbox.bench.report.JmhResult;
import dev.burnbox.bench.report.Machine;
import dev.burnbox.mailstore.BodyCodec;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.IncomingMessage;
import dev.burnbox.mailstore.StoreStats;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Heap per message of the in-memory store on real mail, measured: for each codec, fills a fresh
 * store (no eviction: 64 GiB budget, no practical inbox cap) with the first {@code --deliveries} of
 * {@link StoreWorkload}'s stream on one thread, and takes the heap used (MemoryMXBean, after {@code
 * System.gc()} and a settle, three times) before and after, holding the store. Heap per message =
 * the difference / entries held; messages in 1 GiB are extrapolated from it (fixed JVM costs not
 * counted). With {@code --jmh}, adds the throughput of {@link StoreLoadBenchmark} from its JSON and
 * prints the whole markdown section for {@code docs/benchmarks.md} ("Inbox store").
 *
 * <p>Run: {@code bench/run-store-bench.sh}, or {@code java -Xmx2g -cp bench/target/benchmarks.jar
 * dev.burnbox.bench.mailstore.StoreFootprint [--deliveries N] [--codec identity|zstd-6+trained]
 * [--jmh file.json] [--out report.md]}.
 */
public final class StoreFootprint {
  private static final long GIB = 1L << 30;

  private StoreFootprint() {}

  /** One codec's measurement. */
  record Footprint(
      String codec,
      long deliveries,
      StoreStats stats,
      long rawDelivered,
      long heapBytes,
      double fillSeconds) {
    double heapPerMessage() {
      return (double) heapBytes / stats.messages();
    }

    double rawPerMessage() {
      return (double) rawDelivered / stats.messages();
    }

    double storedPerMessage() {
      return (double) stats.storedBytes() / stats.messages();
    }

    long fitIn(long heap) {
      return (long) (heap / heapPerMessage());
    }
  }

  /** Measures and prints; see the class comment for the arguments. */
  public static void main(String[] args) throws IOException, InterruptedException {
    int deliveries = 60_000;
    Path jmh = null;
    Path out = null;
    StoreWorkload.Codec only = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--deliveries" -> deliveries = Integer.parseInt(args[++i]);
        case "--jmh" -> jmh = Path.of(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--codec" -> only = StoreWorkload.Codec.byLabel(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    StoreWorkload workload = new StoreWorkload(RawMailCorpus.locate());
    List<Footprint> results = new ArrayList<>();
    for (StoreWorkload.Codec codec : StoreWorkload.Codec.values()) {
      if (only != null && codec != only) {
        continue;
      }
      results.add(measure(workload, codec, deliveries));
    }
    String report = report(workload, results, jmh == null ? List.of() : JmhResult.read(jmh));
    System.out.println(report);
    if (out != null) {
      Files.writeString(out, report);
    }
  }

  private static Footprint measure(StoreWorkload workload, StoreWorkload.Codec codec, int n)
      throws InterruptedException {
    BodyCodec bodyCodec = codec.create();
    long before = settledHeap();
    InboxStore store =
        InboxStore.memory().maxBytes(64 * GIB).inboxCap(1_000_000).codec(bodyCodec).build();
    long raw = 0;
    long started = System.nanoTime();
    for (int i = 0; i < n; i++) {
      IncomingMessage m = workload.delivery(i);
      if (!store.deliver(m).isDelivered()) {
        throw new IllegalStateException("delivery " + i + " refused");
      }
      raw += m.rawLength();
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    long after = settledHeap();
    StoreStats stats = store.stats();
    if (stats.totalEvictions() != 0 || stats.messages() != n) {
      throw new IllegalStateException("the store evicted: " + stats);
    }
    Footprint f = new Footprint(codec.label(), n, stats, raw, after - before, seconds);
    java.lang.ref.Reference.reachabilityFence(store);
    System.err.printf(
        "[footprint] %s: %s, heap %,d bytes, %.1f s%n",
        codec.label(), stats, f.heapBytes(), seconds);
    return f;
  }

  private static long settledHeap() throws InterruptedException {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(300);
    }
    return memory.getHeapMemoryUsage().getUsed();
  }

  private static String report(
      StoreWorkload workload, List<Footprint> results, List<JmhResult> jmh) {
    StringBuilder s = new StringBuilder();
    Footprint base = results.get(0);
    s.append(
        String.format(
            "Command: `bench/run-store-bench.sh`. Machine: %s. JDK: %s %s. Date: %s (UTC).%n%n",
            Machine.describe(),
            System.getProperty("java.vm.name"),
            System.getProperty("java.vm.version"),
            LocalDate.now(ZoneOffset.UTC)));
    s.append("Corpus: ").append(workload.corpus().describe()).append(".\n\n");
    s.append(
        "The store sees only the test mails; the adaptive codec trains its dictionaries on the"
            + " first bodies it stores, not on the training mails.\n\n");
    s.append(
        String.format(
            "**Heap per message** (`StoreFootprint`, one thread, %,d deliveries to %,d inboxes,"
                + " %d%% bulk copies (differing in one header line) of %d campaigns; heap used"
                + " after `System.gc()` with and without the store, max heap %,d MiB):%n%n",
            base.deliveries(),
            StoreWorkload.INBOXES,
            StoreWorkload.BULK_PERCENT,
            StoreWorkload.CAMPAIGNS,
            Runtime.getRuntime().maxMemory() >> 20));
    s.append(
        "| codec | entries | distinct raw MB | raw B/msg | stored B/msg (StoreStats) | heap B/msg |"
            + " raw / heap | heap vs identity | msgs in 1 GiB (extrapolated) | fill, 1 thread |\n");
    s.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Footprint f : results) {
      s.append(
          String.format(
              "| `%s` | %,d | %,.1f | %,.0f | %,.0f | %,.0f | %.2f | %.2fx | %,d | %,.0f msg/s |%n",
              f.codec(),
              f.stats().messages(),
              f.stats().distinctBytes() / 1e6,
              f.rawPerMessage(),
              f.storedPerMessage(),
              f.heapPerMessage(),
              f.rawPerMessage() / f.heapPerMessage(),
              base.heapPerMessage() / f.heapPerMessage(),
              f.fitIn(GIB),
              f.deliveries() / f.fillSeconds()));
    }
    if (!jmh.isEmpty()) {
      s.append(
          "\n**Throughput** (JMH `StoreLoadBenchmark`, 2 threads, ops/s; ± is JMH's 99.9%"
              + " half-width where JMH had enough samples):\n\n");
      s.append(
          "| codec | deliveries/s | vs identity | gets by id/s | vs identity | pages/s |"
              + " vs identity |\n");
      s.append("|---|---:|---:|---:|---:|---:|---:|\n");
      JmhResult build = find(jmh, "buildOnly", base.codec());
      for (Footprint f : results) {
        s.append("| `").append(f.codec()).append('`');
        for (String op : List.of("deliver", "getById", "listPage")) {
          JmhResult r = find(jmh, op, f.codec());
          JmhResult b = find(jmh, op, base.codec());
          if (r == null) {
            s.append(" | n/a | n/a");
          } else {
            s.append(String.format(" | %,.0f", r.score()));
            if (!Double.isNaN(r.error())) {
              s.append(String.format(" ± %,.0f", r.error()));
            }
            s.append(b == null ? " | n/a" : String.format(" | %.2fx", r.score() / b.score()));
          }
        }
        s.append(" |\n");
      }
      if (build != null) {
        s.append(
            String.format(
                "%nBuilding the deliveries alone (`buildOnly`, the harness's share of `deliver`):"
                    + " %,.0f ops/s with 2 threads.%n",
                build.score()));
      }
    }
    return s.toString();
  }

  private static JmhResult find(List<JmhResult> jmh, String op, String codec) {
    for (JmhResult r : jmh) {
      if (r.benchmark().endsWith("." + op) && codec.equals(r.param("codec"))) {
        return r;
      }
    }
    return null;
  }
}
