package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link MessageBuffer}: content read straight into budgeted blocks. */
class MessageBufferTest {
  private static ByteBudget budget(long capacity) {
    return new ByteBudget(capacity, "test.inflight", "test", new SimpleMeterRegistry());
  }

  @Test
  void contentReadInAnyPiecesComesBackWholeAfterItsPrefixAndEveryByteIsInspectedOnce()
      throws IOException {
    Random random = new Random(7);
    for (int trial = 0; trial < 300; trial++) {
      byte[] mail = new byte[random.nextInt(60_000)];
      random.nextBytes(mail);
      byte[] prefix = Arrays.copyOf("Received: x\r\n".getBytes(), random.nextInt(14));
      ByteBudget budget = budget(1 << 20);
      MessageBuffer buffer = new MessageBuffer(budget, 100_000);
      ByteArrayOutputStream inspected = new ByteArrayOutputStream();
      InputStream in = new TricklingInput(mail, random);
      while (buffer.readFrom(in, 1 + random.nextInt(9_000), inspected::write) >= 0) {
        assertThat(budget.reserved()).isGreaterThanOrEqualTo(buffer.size());
      }
      assertThat(inspected.toByteArray()).as("trial %d", trial).isEqualTo(mail);
      byte[] content = buffer.toByteArray(prefix);
      assertThat(Arrays.copyOf(content, prefix.length)).isEqualTo(prefix);
      assertThat(Arrays.copyOfRange(content, prefix.length, content.length)).isEqualTo(mail);
      buffer.release();
      assertThat(budget.reserved()).isZero();
    }
  }

  @Test
  void aSmallMessageReservesOnlyTheFirstSmallBlock() throws IOException {
    ByteBudget budget = budget(1 << 20);
    MessageBuffer buffer = new MessageBuffer(budget, 100_000);
    InputStream in = new ByteArrayInputStream(new byte[2_048]);
    readAll(buffer, in);
    assertThat(budget.reserved()).isEqualTo(MessageBuffer.FIRST_BLOCK_SIZE);
    assertThat(buffer.toByteArray(new byte[0])).hasSize(2_048);
  }

  @Test
  void blocksDoubleFromTheFirstUpToTheLargest() throws IOException {
    ByteBudget budget = budget(1 << 20);
    MessageBuffer buffer = new MessageBuffer(budget, 100_000);
    readAll(buffer, new ByteArrayInputStream(new byte[5_000]));
    assertThat(budget.reserved()).isEqualTo(4_096 + 8_192);
    buffer.release();

    MessageBuffer large = new MessageBuffer(budget, 100_000);
    readAll(large, new ByteArrayInputStream(new byte[60_000]));
    // 4 + 8 + 16 + 16 + 16 KiB = 61,440 bytes hold the 60,000
    assertThat(budget.reserved()).isEqualTo(4_096 + 8_192 + 3 * MessageBuffer.BLOCK_SIZE);
    assertThat(large.toByteArray(new byte[0])).hasSize(60_000);
  }

  @Test
  void bytesPastTheLimitDropTheContentAndGiveTheReservationBack() throws IOException {
    ByteBudget budget = budget(1 << 20);
    MessageBuffer buffer = new MessageBuffer(budget, 10_000);
    InputStream in = new ByteArrayInputStream(new byte[10_001]);
    assertThat(readAll(buffer, in)).isEqualTo(10_001);
    assertThat(budget.reserved()).isZero();
    assertThatThrownBy(() -> buffer.toByteArray(new byte[0]))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void contentOfExactlyTheLimitIsKept() throws IOException {
    MessageBuffer buffer = new MessageBuffer(budget(1 << 20), 10_000);
    InputStream in = new ByteArrayInputStream(new byte[10_000]);
    readAll(buffer, in);
    assertThat(buffer.toByteArray(new byte[0])).hasSize(10_000);
  }

  @Test
  void aBudgetThatRefusesABlockDropsTheContentButTheInputIsStillRead() throws IOException {
    ByteBudget budget = budget(MessageBuffer.FIRST_BLOCK_SIZE + 100);
    MessageBuffer buffer = new MessageBuffer(budget, 100_000);
    InputStream in = new ByteArrayInputStream(new byte[50_000]);
    assertThat(readAll(buffer, in)).isEqualTo(50_000);
    assertThat(buffer.refused()).isTrue();
    assertThat(budget.reserved()).isZero();
  }

  /** Reads {@code in} to its end into {@code buffer}, 8 KiB at a time; returns the bytes read. */
  private static long readAll(MessageBuffer buffer, InputStream in) throws IOException {
    long read = 0;
    for (int n; (n = buffer.readFrom(in, 8_192, (bytes, offset, length) -> {})) >= 0; ) {
      read += n;
    }
    return read;
  }

  /** Hands out its bytes a random few at a time, as a socket does. */
  private static final class TricklingInput extends InputStream {
    private final byte[] bytes;
    private final Random random;
    private int at;

    TricklingInput(byte[] bytes, Random random) {
      this.bytes = bytes;
      this.random = random;
    }

    @Override
    public int read() {
      return at < bytes.length ? bytes[at++] & 0xff : -1;
    }

    @Override
    public int read(byte[] into, int offset, int length) {
      if (at == bytes.length) {
        return -1;
      }
      int n = Math.min(Math.min(length, bytes.length - at), 1 + random.nextInt(3_000));
      System.arraycopy(bytes, at, into, offset, n);
      at += n;
      return n;
    }
  }
}
