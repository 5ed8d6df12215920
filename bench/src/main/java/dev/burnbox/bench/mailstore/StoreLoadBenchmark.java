package dev.burnbox.bench.mailstore;

import dev.burnbox.mailstore.DeliveryResult;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxPage;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.IncomingMessage;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.StoredMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of the in-memory store on real mail with 2 threads: deliveries/s ({@link #deliver}:
 * one delivery of {@link StoreWorkload}'s stream, building the {@link IncomingMessage} included),
 * reads/s by id ({@link #getById}) and pages/s ({@link #listPage}: the newest 20 entries of a
 * random inbox), each with the identity codec and the adaptive zstd-6 codec; {@link #buildOnly}
 * measures what building the message costs the harness.
 *
 * <p>The store has the default limits (inbox cap 50, 256 MiB budget: deliveries evict the oldest
 * entries once it is full, as in production) and is prefilled with {@value #PREFILL} deliveries, so
 * the zstd codec has trained its first dictionary before measurement.
 *
 * <p>Run: {@code bench/run-store-bench.sh} (builds, runs this and {@link StoreFootprint}), or
 * {@code java -jar bench/target/benchmarks.jar StoreLoadBenchmark} from the repository root after
 * {@code bench/fetch-corpus.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgs = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 2, time = 2)
@Threads(2)
public class StoreLoadBenchmark {
  /** Deliveries before measurement. */
  static final int PREFILL = 20_000;

  /** A {@link StoreWorkload.Codec} label. */
  @Param({"identity", "zstd-6+trained"})
  public String codec;

  private StoreWorkload workload;
  private InboxStore store;
  private InboxName[] inboxes;
  private MessageId[] ids;
  private final AtomicLong sequence = new AtomicLong();

  /** Loads the corpus, builds the store and prefills it. */
  @Setup(Level.Trial)
  public void setUp() {
    workload = new StoreWorkload(RawMailCorpus.locate());
    store = InboxStore.memory().codec(StoreWorkload.Codec.byLabel(codec).create()).build();
    inboxes = workload.inboxes();
    List<MessageId> held = new ArrayList<>();
    for (int i = 0; i < PREFILL; i++) {
      DeliveryResult r = store.deliver(workload.delivery(sequence.getAndIncrement()));
      if (!(r instanceof DeliveryResult.Delivered d)) {
        throw new IllegalStateException("prefill delivery refused: " + r);
      }
      held.addAll(d.ids().values());
    }
    ids = held.toArray(MessageId[]::new);
    for (MessageId id : ids) {
      if (store.get(id).isEmpty()) {
        throw new IllegalStateException("prefilled entry missing (evicted?): " + id);
      }
    }
    System.out.println("[setup] " + codec + ": " + store.stats());
  }

  /** Per-thread random choices. */
  @State(Scope.Thread)
  public static class Choices {
    final SplittableRandom random = new SplittableRandom(Thread.currentThread().threadId());
  }

  /** One delivery of the stream. */
  @Benchmark
  public DeliveryResult deliver() {
    return store.deliver(workload.delivery(sequence.getAndIncrement()));
  }

  /**
   * Only builds the next delivery of the stream, without delivering it: the harness's share of
   * {@link #deliver}'s time (a formatted {@code Received:} line and two copies of the raw mail).
   */
  @Benchmark
  public IncomingMessage buildOnly() {
    return workload.delivery(sequence.getAndIncrement());
  }

  /** One read of a random prefilled entry by id (raw bytes decoded). */
  @Benchmark
  public Optional<StoredMessage> getById(Choices choices) {
    return store.get(ids[choices.random.nextInt(ids.length)]);
  }

  /** The newest page of 20 entries of a random inbox. */
  @Benchmark
  public InboxPage listPage(Choices choices) {
    return store.list(inboxes[choices.random.nextInt(inboxes.length)], 20, null);
  }
}
