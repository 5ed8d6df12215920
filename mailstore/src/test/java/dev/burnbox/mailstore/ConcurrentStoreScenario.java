package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;

/**
 * Several writer threads deliver while reader threads list, read and delete, then the store is
 * checked at quiescence. Every body names itself in its first line and the rest is generated from
 * that name, so a reader recognises a torn or mixed-up body; some bodies recur (spam sent in
 * several deliveries) to exercise deduplication under contention.
 *
 * <p>Checked while running: pages list each writer's entries in delivery order (newest first) with
 * no id twice, read bodies are exactly the bytes delivered and match their listing. Checked at
 * quiescence: every delivered entry is retrievable unless its eviction or deletion was counted,
 * listing, reading and stats agree on counts, the byte budget and inbox cap hold, {@code
 * distinctBytes} equals the distinct bodies held in each partition (a partitioned store keeps a
 * body once per partition), and every entry produced one event.
 */
final class ConcurrentStoreScenario {
  private static final int INBOXES = 8;
  private static final int SPAM_BODIES = 6;

  private final InboxStore store;
  private final long seed;
  private final ToIntFunction<InboxName> partitionOf;
  private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<MessageId> deliveredIds = new ConcurrentLinkedQueue<>();
  private final AtomicLong deleted = new AtomicLong();
  private final AtomicLong events = new AtomicLong();
  private final AtomicLong reads = new AtomicLong();

  ConcurrentStoreScenario(InboxStore store, long seed, ToIntFunction<InboxName> partitionOf) {
    this.store = store;
    this.seed = seed;
    this.partitionOf = partitionOf;
  }

  private static InboxName box(int i) {
    return InboxName.of("box" + i);
  }

  /** The body named {@code name}: the name, a newline, then bytes generated from the name. */
  static byte[] body(String name) {
    Random r = new Random(name.hashCode());
    byte[] filler = new byte[200 + r.nextInt(5000)];
    r.nextBytes(filler);
    byte[] head = (name + "\n").getBytes(US_ASCII);
    byte[] out = Arrays.copyOf(head, head.length + filler.length);
    System.arraycopy(filler, 0, out, head.length, filler.length);
    return out;
  }

  static String nameOf(byte[] body) {
    int nl = 0;
    while (nl < body.length && body[nl] != '\n') {
      nl++;
    }
    return new String(body, 0, nl, US_ASCII);
  }

  private static void checkBody(byte[] raw, MessageSummary summary) {
    assertThat(raw).as("torn or foreign body").isEqualTo(body(nameOf(raw)));
    assertThat(raw.length).isEqualTo(summary.size());
  }

  /** Writer {@code w}'s {@code i}th message is "w i"; its order key in listings. */
  private static int[] writerAndIndex(MessageSummary s) {
    String[] parts = s.subject().split(" ");
    return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
  }

  private static void checkOrder(List<MessageSummary> newestFirst) {
    Map<Integer, Integer> lastByWriter = new HashMap<>();
    Set<MessageId> ids = new HashSet<>();
    for (MessageSummary s : newestFirst) {
      assertThat(ids.add(s.id())).as("listed twice: %s", s.id()).isTrue();
      int[] wi = writerAndIndex(s);
      Integer newer = lastByWriter.put(wi[0], wi[1]);
      assertThat(newer == null || newer > wi[1])
          .as("writer %d: %d listed after %d", wi[0], wi[1], newer)
          .isTrue();
    }
  }

  void run(int writers, int readers, int messagesPerWriter) throws InterruptedException {
    for (int i = 0; i < INBOXES; i++) {
      store.subscribe(box(i), s -> events.incrementAndGet());
    }
    CountDownLatch start = new CountDownLatch(1);
    AtomicBoolean writing = new AtomicBoolean(true);
    List<Thread> writerThreads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      writerThreads.add(thread(start, () -> write(writer, messagesPerWriter)));
    }
    List<Thread> readerThreads = new ArrayList<>();
    for (int r = 0; r < readers; r++) {
      int reader = r;
      readerThreads.add(thread(start, () -> read(reader, writing)));
    }
    start.countDown();
    for (Thread t : writerThreads) {
      t.join();
    }
    writing.set(false);
    for (Thread t : readerThreads) {
      t.join();
    }
    assertThat(failures).isEmpty();
    assertThat(reads.get()).as("readers overlapped the writers").isPositive();
    assertThat(deleted.get()).as("readers deleted some entries").isPositive();
    checkAtQuiescence();
  }

  private Thread thread(CountDownLatch start, Runnable body) {
    Thread t =
        new Thread(
            () -> {
              try {
                start.await();
                body.run();
              } catch (Throwable e) {
                failures.add(e);
              }
            });
    t.start();
    return t;
  }

  private void write(int writer, int count) {
    Random random = new Random(seed * 31 + writer);
    for (int i = 0; i < count; i++) {
      String name =
          random.nextInt(4) == 0 ? "spam " + random.nextInt(SPAM_BODIES) : writer + " " + i;
      List<InboxName> to = new ArrayList<>();
      int n = 1 + random.nextInt(3);
      // box0 is hot (it reaches its cap), the rest share the byte budget
      to.add(box(random.nextBoolean() ? 0 : random.nextInt(INBOXES)));
      for (int k = 1; k < n; k++) {
        to.add(box(random.nextInt(INBOXES)));
      }
      IncomingMessage m =
          new IncomingMessage(
              body(name), "", to, Instant.EPOCH, "w" + writer, writer + " " + i, SpamVerdict.CLEAN);
      DeliveryResult result = store.deliver(m);
      assertThat(result).isInstanceOf(DeliveryResult.Delivered.class);
      deliveredIds.addAll(((DeliveryResult.Delivered) result).ids().values());
    }
  }

  private void read(int reader, AtomicBoolean writing) {
    Random random = new Random(seed * 17 + reader + 1000);
    while (writing.get()) {
      InboxName inbox = box(random.nextInt(INBOXES));
      List<MessageSummary> seen = new ArrayList<>();
      InboxPage page = store.list(inbox, 10, null);
      for (int p = 0; p < 4; p++) {
        seen.addAll(page.messages());
        if (page.nextCursor().isEmpty()) {
          break;
        }
        page = store.list(inbox, 10, page.nextCursor().get());
      }
      checkOrder(seen);
      if (seen.isEmpty()) {
        continue;
      }
      MessageSummary pick = seen.get(random.nextInt(seen.size()));
      store
          .get(pick.id())
          .ifPresent(
              got -> {
                assertThat(got.summary()).isEqualTo(pick);
                checkBody(got.raw(), pick);
                reads.incrementAndGet();
              });
      if (random.nextInt(8) == 0 && store.delete(seen.get(random.nextInt(seen.size())).id())) {
        deleted.incrementAndGet();
      }
    }
  }

  private void checkAtQuiescence() {
    StoreStats stats = store.stats();
    long present = 0;
    Map<String, Integer> distinctBodies = new HashMap<>();
    for (MessageId id : deliveredIds) {
      var got = store.get(id);
      if (got.isPresent()) {
        present++;
        byte[] raw = got.get().raw();
        checkBody(raw, got.get().summary());
        int partition = partitionOf.applyAsInt(got.get().summary().inbox());
        distinctBodies.put(partition + " " + nameOf(raw), raw.length);
      }
    }
    long listed = 0;
    long nonEmpty = 0;
    for (int i = 0; i < INBOXES; i++) {
      List<MessageSummary> all = InboxStoreContractTest.listAll(store, box(i), 9);
      checkOrder(all);
      listed += all.size();
      nonEmpty += all.isEmpty() ? 0 : 1;
    }
    assertThat(stats.messages()).isEqualTo(present).isEqualTo(listed);
    assertThat(stats.inboxes()).isEqualTo(nonEmpty);
    assertThat(deliveredIds.size() - present)
        .as("every missing entry was counted as evicted or deleted")
        .isEqualTo(stats.totalEvictions() + deleted.get());
    assertThat(stats.distinctBytes())
        .isEqualTo(distinctBodies.values().stream().mapToLong(Integer::longValue).sum());
    await().atMost(Duration.ofSeconds(10)).until(() -> events.get() == deliveredIds.size());
  }
}
