package dev.burnbox.bench.mailstore;

import dev.burnbox.bench.MailCorpus;
import dev.burnbox.mailstore.DeliveryResult;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.IncomingMessage;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.mailstore.StoreStats;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.Deflater;
import org.openjdk.jol.info.GraphLayout;

/**
 * Issue 15's measurement: raw / stored for the store with its default settings (the codec and
 * layout a user gets), on a stream of mail, with what per-message zlib makes of the same messages.
 * It uses only the store's public API, so {@code bench/run-store-ratio.sh} builds it against an
 * older commit too and compares both stores in one run; the script adds whole-stream gzip and xz.
 *
 * <p>Streams:
 *
 * <ul>
 *   <li>{@code unseen}: the store is warmed with the first 500 mails of each corpus group
 *       (alternating ham and spam; its dictionary trains on them), then every later mail is
 *       delivered once, alternating, to a seeded random inbox of 10,000: mail the store has never
 *       seen, with no repeats but those the corpus has.
 *   <li>{@code workload}: the first {@code --deliveries} of {@link StoreWorkload}, the store
 *       benchmarks' realistic stream (campaign copies and recurring corpus mail).
 * </ul>
 *
 * <p>Each message carries the envelope sender, {@code From} and {@code Subject} its headers give,
 * as the service records them ({@link StoreWorkload#withItsHeaders}): the store keeps them beside
 * the mail.
 *
 * <p>The warm-up is delivered and read once, as mail in a store in use is (which fills the memory
 * store's cache of decoded bases as far as that mail does); after the {@code unseen} warm-up,
 * filler mail fills the dictionary trainer's reservoir and is deleted again (see {@link
 * #fillTheTrainersReservoir}); the {@code workload} stream's first {@value #WORKLOAD_WARM_UP}
 * deliveries are its warm-up. Measured over the stream's measured part only: the growth of {@link
 * StoreStats#storedBytes()} (what the byte budget counts) and of the heap used (MemoryMXBean, after
 * {@code System.gc()} and a settle, three times), the store held; each measured message is
 * delivered as the intake hands it over, its strings and names made just before ({@link
 * #asReceived}), so that both growths count what the store keeps of them. Prints one tab-separated
 * line: label, stream, messages, raw bytes, storedBytes growth, heap growth, per-message zlib-6
 * bytes, and the growth of {@link StoreStats#cacheBytes()} (part of both growths: a cache bounded
 * at 1 MiB; "-" for a store that does not report it), then the same two growths at rest: after
 * every message was re-encoded in the codec's form at rest ({@link InboxStore#settle}, what the
 * service does while its intake is quiet; "-" for a store without it; the warm-up is settled before
 * the stream, so only the stream's mail counts), and last the growth of the store's objects as JOL
 * walks them, at intake and at rest (exact, where the heap figure moves by a few hundred KB from
 * run to run; "-" if JOL cannot walk them), and the delivering thread's CPU time per measured
 * delivery in nanoseconds (the store's own work for each message, its codec's included; one pass,
 * so it moves with the machine's load by more than the byte figures, which are exact). With {@code
 * --dump FILE}, writes the measured messages concatenated in delivery order, for whole-stream
 * compressors.
 *
 * <p>Run: {@code java -Xmx3g -cp bench/target/benchmarks.jar dev.burnbox.bench.mailstore.StoreRatio
 * --stream unseen|workload [--deliveries N] [--label L] [--dump FILE]}.
 */
public final class StoreRatio {
  private static final long GIB = 1L << 30;
  private static final int WARM_UP_PER_GROUP = 500;
  private static final int WORKLOAD_WARM_UP = 2_000;

  private StoreRatio() {}

  /** Measures and prints; see the class comment for the arguments. */
  public static void main(String[] args) throws IOException, InterruptedException {
    String stream = null;
    int deliveries = 20_000;
    String label = "store";
    Path dump = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--stream" -> stream = args[++i];
        case "--deliveries" -> deliveries = Integer.parseInt(args[++i]);
        case "--label" -> label = args[++i];
        case "--dump" -> dump = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    List<IncomingMessage> warmUp = new ArrayList<>();
    List<IncomingMessage> measured = new ArrayList<>();
    switch (String.valueOf(stream)) {
      case "unseen" -> {
        unseen(warmUp, measured);
        warmUp.replaceAll(StoreWorkload::withItsHeaders);
        measured.replaceAll(StoreWorkload::withItsHeaders);
      }
      case "workload" -> {
        StoreWorkload workload = new StoreWorkload(RawMailCorpus.locate());
        for (int i = 0; i < WORKLOAD_WARM_UP + deliveries; i++) {
          (i < WORKLOAD_WARM_UP ? warmUp : measured).add(workload.delivery(i));
        }
      }
      default -> throw new IllegalArgumentException("--stream unseen|workload");
    }

    InboxStore store = InboxStore.memory().maxBytes(64 * GIB).inboxCap(1_000_000).build();
    List<MessageId> warmUpIds = new ArrayList<>();
    for (IncomingMessage m : warmUp) {
      warmUpIds.addAll(deliver(store, m).ids().values());
    }
    warmUpIds.forEach(store::get); // read once, as mail in a store in use is
    warmUp.clear(); // garbage before the heap is first measured, not between
    Thread.sleep(2_000); // the dictionary trains on its own thread after 1,000 bodies
    if ("unseen".equals(stream)) {
      fillTheTrainersReservoir(store);
    }
    // the warm-up at rest too, so that settling after the stream counts only the stream's mail
    boolean settles = settle(store);
    long raw = 0;
    long zlib = 0;
    Deflater deflater = new Deflater(6);
    byte[] buffer = new byte[1 << 20];
    // JOL first: what it keeps for itself (class layouts) is then in both heap readings
    long objectsBefore = objectGraph(store);
    long heapBefore = settledHeap();
    StoreStats before = store.stats();
    long storedBefore = before.storedBytes();
    long cacheBefore = cacheBytes(before);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long deliveryCpu = 0;
    for (IncomingMessage m : measured) {
      IncomingMessage received = asReceived(m);
      long cpuBefore = threads.getCurrentThreadCpuTime();
      deliver(store, received);
      deliveryCpu += threads.getCurrentThreadCpuTime() - cpuBefore;
      raw += m.rawLength();
      deflater.reset();
      deflater.setInput(m.raw());
      deflater.finish();
      while (!deflater.finished()) {
        zlib += deflater.deflate(buffer);
      }
    }
    long heapAfter = settledHeap();
    long objectsAfter = objectGraph(store);
    StoreStats stats = store.stats();
    if (stats.totalEvictions() != 0) {
      throw new IllegalStateException("the store evicted: " + stats);
    }
    // then at rest: every message re-encoded as the service does when the intake is quiet
    String storedAtRest = "-";
    String heapAtRest = "-";
    String objectsAtRest = "-";
    StoreStats atRest = null;
    if (settles && settle(store)) {
      long settledHeap = settledHeap();
      StoreStats settled = store.stats();
      atRest = settled;
      storedAtRest = String.valueOf(settled.storedBytes() - storedBefore);
      heapAtRest = String.valueOf(settledHeap - heapBefore);
      objectsAtRest = growth(objectsBefore, objectGraph(store));
    }
    // printed only now: the first printf loads the JDK's number-format data (about 140 KB, kept),
    // which a heap reading after it would count as the store's
    System.err.printf("[ratio] %s %s: %s%n", label, stream, stats);
    System.err.printf(
        "[ratio] %s %s, growth per measured message: messageBytes %d, indexBytes %d%n",
        label,
        stream,
        (stats.messageBytes() - before.messageBytes()) / measured.size(),
        (stats.indexBytes() - before.indexBytes()) / measured.size());
    if (atRest != null) {
      System.err.printf("[ratio] %s %s, at rest: %s%n", label, stream, atRest);
    }
    System.out.printf(
        "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%d%n",
        label,
        stream,
        measured.size(),
        raw,
        stats.storedBytes() - storedBefore,
        heapAfter - heapBefore,
        zlib,
        cacheBefore < 0 ? "-" : String.valueOf(cacheBytes(stats) - cacheBefore),
        storedAtRest,
        heapAtRest,
        growth(objectsBefore, objectsAfter),
        objectsAtRest,
        deliveryCpu / measured.size());
    java.lang.ref.Reference.reachabilityFence(store);
    if (dump != null) {
      try (OutputStream out = Files.newOutputStream(dump)) {
        for (IncomingMessage m : measured) {
          out.write(m.raw());
        }
      }
    }
  }

  /**
   * Settles every message of {@code store} ({@link InboxStore#settle}); false for a store from
   * before that method, or whose codec has no form at rest.
   */
  private static boolean settle(InboxStore store) {
    try {
      int looked = 0;
      for (int n; (n = store.settle(1000)) > 0; ) {
        looked += n;
      }
      return looked > 0;
    } catch (NoSuchMethodError e) {
      return false;
    }
  }

  /**
   * The store's cache of decoded mail, or -1 for a store from before {@link
   * StoreStats#cacheBytes()} (this class also runs behind older commits' jars).
   */
  private static long cacheBytes(StoreStats stats) {
    try {
      return stats.cacheBytes();
    } catch (NoSuchMethodError e) {
      return -1;
    }
  }

  /** The warm-up and measured mails of the {@code unseen} stream. */
  private static void unseen(List<IncomingMessage> warmUp, List<IncomingMessage> measured) {
    Path dir = MailCorpus.require();
    List<byte[]> ham = MailCorpus.readGroup(dir.resolve(MailCorpus.HAM_GROUP));
    List<byte[]> spam = MailCorpus.readGroup(dir.resolve(MailCorpus.SPAM_GROUP));
    SplittableRandom random = new SplittableRandom(15);
    for (int i = 0; i < Math.max(ham.size(), spam.size()); i++) {
      for (List<byte[]> group : List.of(ham, spam)) {
        if (i < group.size()) {
          InboxName to = InboxName.of("user" + random.nextInt(10_000));
          IncomingMessage m =
              new IncomingMessage(
                  group.get(i),
                  "sender@example.org",
                  List.of(to),
                  Instant.now(),
                  "",
                  "",
                  SpamVerdict.CLEAN);
          (i < WARM_UP_PER_GROUP ? warmUp : measured).add(m);
        }
      }
    }
  }

  /**
   * {@code m} with every object a store could keep made now, as the intake makes them for each
   * message it takes: its strings (with their own arrays), its recipients' names and its time.
   * Delivering the measured messages themselves would let a store keep objects the stream's list
   * made before the heap was first measured, and the heap's growth would not count them (JOL's
   * would): a store that kept the given strings and names (1881b3d's did) read about 370 bytes a
   * message smaller on the heap than it was.
   */
  private static IncomingMessage asReceived(IncomingMessage m) {
    List<InboxName> recipients = new ArrayList<>();
    for (InboxName name : m.recipients()) {
      recipients.add(InboxName.of(StoreWorkload.copy(name.value())));
    }
    Instant at = m.receivedAt();
    return new IncomingMessage(
        m.raw(),
        StoreWorkload.copy(m.envelopeSender()),
        recipients,
        Instant.ofEpochSecond(at.getEpochSecond(), at.getNano()),
        StoreWorkload.copy(m.from()),
        StoreWorkload.copy(m.subject()),
        m.verdict());
  }

  private static DeliveryResult.Delivered deliver(InboxStore store, IncomingMessage m) {
    if (!(store.deliver(m) instanceof DeliveryResult.Delivered delivered)) {
      throw new IllegalStateException("a delivery was refused");
    }
    return delivered;
  }

  /**
   * Fills the dictionary trainer's reservoir (8 MiB of recent mail, which the store counts whole
   * from the start but which fills as mail arrives) with 16 KiB messages of seeded random bytes,
   * then deletes them: otherwise the heap measured over a stream of 10 MB would mostly be the
   * reservoir filling. Random bytes share nothing with mail, so they are never a reference for it.
   */
  private static void fillTheTrainersReservoir(InboxStore store) {
    SplittableRandom random = new SplittableRandom(16);
    List<MessageId> filler = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      byte[] raw = new byte[16 << 10];
      random.nextBytes(raw);
      IncomingMessage m =
          new IncomingMessage(
              raw,
              "filler@example.org",
              List.of(InboxName.of("filler")),
              Instant.now(),
              "",
              "",
              SpamVerdict.CLEAN);
      filler.addAll(deliver(store, m).ids().values());
    }
    filler.forEach(store::delete);
  }

  // StoreFootprint's, copied: this class also runs behind older jars, where that one is private
  /**
   * The bytes of every object reachable from {@code store} (JOL's {@code GraphLayout}): exactly
   * what the store holds on the heap, where the heap used after {@code System.gc()} moves by a few
   * hundred KB from run to run. -1 if JOL cannot walk it here.
   */
  private static long objectGraph(InboxStore store) {
    if (System.getProperty("jol.magicFieldOffset") == null) {
      System.setProperty("jol.magicFieldOffset", "true"); // record fields on recent JDKs
    }
    try {
      return GraphLayout.parseInstance(store).totalSize();
    } catch (RuntimeException | LinkageError e) {
      System.err.printf("[ratio] JOL could not walk the store: %s%n", e);
      return -1;
    }
  }

  private static String growth(long before, long after) {
    return before < 0 || after < 0 ? "-" : String.valueOf(after - before);
  }

  private static long settledHeap() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(300);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
