package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.burnbox.mailstore.InboxStoreContractTest.FakeClock;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreSnapshotTest {
  @TempDir Path dir;
  private final FakeClock clock = new FakeClock();

  private InboxStore.Builder builder() {
    return InboxStore.memory().clock(clock).ttl(Duration.ofHours(1));
  }

  private IncomingMessage mail(String subject, byte[] body, List<String> spam, String... to) {
    byte[] head = ("Subject: " + subject + "\r\n\r\n").getBytes(StandardCharsets.UTF_8);
    byte[] raw = new byte[head.length + body.length];
    System.arraycopy(head, 0, raw, 0, head.length);
    System.arraycopy(body, 0, raw, head.length, body.length);
    return new IncomingMessage(
        raw,
        "sender@example.net",
        Arrays.stream(to).map(InboxName::of).toList(),
        clock.instant(),
        "Sender <sender@example.net>",
        subject,
        SpamVerdict.ofScore(spam, spam.size()));
  }

  /** A store with a multi-recipient message (one of its entries deleted), spam and binary mail. */
  private InboxStore filledStore(List<MessageId> ids) {
    InboxStore store = builder().build();
    Map<InboxName, MessageId> multi =
        ((DeliveryResult.Delivered)
                store.deliver(
                    mail(
                        "Hello all",
                        "hi\r\n".getBytes(StandardCharsets.UTF_8),
                        List.of(),
                        "a",
                        "b",
                        "c")))
            .ids();
    store.delete(multi.get(InboxName.of("b")));
    ids.add(multi.get(InboxName.of("a")));
    ids.add(multi.get(InboxName.of("c")));
    clock.advance(Duration.ofMinutes(1));
    byte[] binary = new byte[50_000];
    new Random(1).nextBytes(binary);
    ids.addAll(
        ((DeliveryResult.Delivered)
                store.deliver(mail("Ünïcode prize", binary, List.of("prize", "act now"), "a")))
            .ids()
            .values());
    return store;
  }

  @Test
  void aStoreThatKeepsItsMailElsewhereIsRefusedThroughTheContractAndNoFileIsLeft()
      throws IOException {
    // built, not connected: the refusal comes from the contract before any Redis call
    InboxStore redis = InboxStore.builder().redisUrl(URI.create("redis://127.0.0.1:1")).build();
    Path file = dir.resolve("redis.snap");
    assertThatThrownBy(() -> StoreSnapshot.save(redis, file))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("only the in-memory store");
    assertThat(file).doesNotExist();
    try (var files = Files.list(dir)) {
      assertThat(files).as("no temporary file either").isEmpty();
    }
    redis.close();
  }

  @Test
  void aRestoredStoreHasTheSameMessagesIdsBytesAndOrder() throws IOException {
    List<MessageId> ids = new ArrayList<>();
    InboxStore original = filledStore(ids);
    Path file = dir.resolve("store.snapshot");

    assertThat(StoreSnapshot.save(original, file)).isEqualTo(2);
    InboxStore restored = StoreSnapshot.restore(file, builder());

    assertThat(restored.stats().messages()).isEqualTo(original.stats().messages()).isEqualTo(3);
    assertThat(restored.stats().distinctBytes()).isEqualTo(original.stats().distinctBytes());
    for (String inbox : List.of("a", "b", "c")) {
      assertThat(restored.list(InboxName.of(inbox), 10, null).messages())
          .isEqualTo(original.list(InboxName.of(inbox), 10, null).messages());
    }
    for (MessageId id : ids) {
      assertThat(restored.get(id).orElseThrow().raw())
          .isEqualTo(original.get(id).orElseThrow().raw());
    }
    ((MemoryInboxStore) restored).checkInvariants();
  }

  @Test
  void theTimeToLiveKeepsCountingFromTheFirstDelivery() throws IOException {
    List<MessageId> ids = new ArrayList<>();
    InboxStore original = filledStore(ids);
    Path file = dir.resolve("store.snapshot");
    StoreSnapshot.save(original, file);

    clock.advance(Duration.ofMinutes(59).plusSeconds(30)); // the first message is 60.5 min old
    InboxStore restored = StoreSnapshot.restore(file, builder());
    assertThat(restored.get(ids.get(0))).isEmpty();
    assertThat(restored.get(ids.get(2))).isPresent();
    clock.advance(Duration.ofMinutes(1));
    assertThat(restored.get(ids.get(2))).isEmpty();
    assertThat(restored.stats().messages()).isZero();
  }

  @Test
  void theRestoringStoresLimitsApply() throws IOException {
    List<MessageId> ids = new ArrayList<>();
    Path file = dir.resolve("store.snapshot");
    StoreSnapshot.save(filledStore(ids), file);

    InboxStore restored = StoreSnapshot.restore(file, builder().inboxCap(1));
    assertThat(restored.list(InboxName.of("a"), 10, null).messages())
        .singleElement()
        .satisfies(m -> assertThat(m.subject()).isEqualTo("Ünïcode prize"));
  }

  @Test
  void checkingWhetherASnapshotCanBeWrittenCreatesNoFolder() throws IOException {
    Path nested = dir.resolve("a").resolve("b").resolve("snap.bin");
    StoreSnapshot.checkWritable(nested);
    assertThat(dir.resolve("a")).doesNotExist();
    try (var left = Files.list(dir)) {
      assertThat(left).isEmpty();
    }

    Path aFile = Files.writeString(dir.resolve("afile"), "x");
    assertThatThrownBy(() -> StoreSnapshot.checkWritable(aFile.resolve("b").resolve("snap.bin")))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "cannot write the snapshot "
                + aFile.resolve("b").resolve("snap.bin")
                + ": "
                + aFile
                + " is not a folder");
  }

  @Test
  void anEmptyStoreRoundTrips() throws IOException {
    Path file = dir.resolve("empty.snapshot");
    assertThat(StoreSnapshot.save(builder().build(), file)).isZero();
    assertThat(StoreSnapshot.restore(file, builder()).stats().messages()).isZero();
  }

  @Test
  void damagedTruncatedOrForeignFilesAreRefusedWithAClearError() throws IOException {
    Path good = dir.resolve("good.snapshot");
    StoreSnapshot.save(filledStore(new ArrayList<>()), good);
    byte[] bytes = Files.readAllBytes(good);
    Random random = new Random(42);
    List<byte[]> bad = new ArrayList<>();
    bad.add(new byte[0]);
    bad.add("not a snapshot at all\n".getBytes(StandardCharsets.UTF_8));
    bad.add(Arrays.copyOf(bytes, bytes.length / 2));
    bad.add(Arrays.copyOf(bytes, bytes.length - 1));
    for (int i = 0; i < 200; i++) {
      byte[] flipped = bytes.clone();
      int at = 8 + random.nextInt(flipped.length - 8);
      flipped[at] ^= (byte) (1 << random.nextInt(8));
      bad.add(flipped);
    }
    for (int i = 0; i < bad.size(); i++) {
      Path file = dir.resolve("bad-" + i);
      Files.write(file, bad.get(i));
      assertThatThrownBy(() -> StoreSnapshot.restore(file, builder()))
          .as("variant %d", i)
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith(file.toString());
    }
    assertThatThrownBy(() -> StoreSnapshot.restore(dir.resolve("absent"), builder()))
        .isInstanceOf(IOException.class);
  }
}
