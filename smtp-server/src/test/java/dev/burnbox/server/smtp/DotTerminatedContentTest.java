package dev.burnbox.server.smtp;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DotTerminatedContentTest {

  @Test
  void endsAtTheDotLineAndLeavesTheNextCommandUnread() throws IOException {
    InputStream session = buffered("Subject: hi\r\n\r\nbody\r\n.\r\nQUIT\r\n");

    assertThat(readAll(new DotTerminatedContent(session), 8192))
        .isEqualTo("Subject: hi\r\n\r\nbody\r\n");
    assertThat(new String(session.readAllBytes(), ISO_8859_1)).isEqualTo("QUIT\r\n");
  }

  @Test
  void removesTheStuffedDotOfEveryLineStartingWithADotTheFirstIncluded() throws IOException {
    InputStream session = buffered("..first\r\n..\r\n...x\r\nmid.dle\r\n.\r\n");

    assertThat(readAll(new DotTerminatedContent(session), 8192))
        .isEqualTo(".first\r\n.\r\n..x\r\nmid.dle\r\n");
  }

  @Test
  void anEmptyMessageIsJustTheDotLine() throws IOException {
    InputStream session = buffered(".\r\nNOOP\r\n");

    assertThat(readAll(new DotTerminatedContent(session), 8192)).isEmpty();
    assertThat(new String(session.readAllBytes(), ISO_8859_1)).isEqualTo("NOOP\r\n");
  }

  @Test
  void bareLineFeedsAndCarriageReturnsDoNotEndTheContent() throws IOException {
    InputStream session = buffered("a\n.\nb\r.\r\nc\r\n.\r.\r\n.\r\n");

    assertThat(readAll(new DotTerminatedContent(session), 8192))
        .isEqualTo("a\n.\nb\r.\r\nc\r\n\r.\r\n");
  }

  @Test
  void aConnectionClosedBeforeTheTerminatorIsAnError() {
    InputStream content = new DotTerminatedContent(buffered("half a message\r\n."));

    assertThatThrownBy(() -> content.readAllBytes()).isInstanceOf(EOFException.class);
  }

  @Test
  void readsInBlocksNotByteByByte() throws IOException {
    CountingStream counting = new CountingStream(bytes("x".repeat(20_000) + "\r\n.\r\n"));
    InputStream content = new DotTerminatedContent(new BufferedInputStream(counting, 8192));

    assertThat(readAll(content, 8192)).hasSize(20_002);
    assertThat(counting.reads).isLessThan(10);
  }

  /**
   * Seeded random content over an alphabet rich in dots, CRs and LFs, sent in random fragments and
   * read with random buffer sizes, against a direct reading of RFC 5321 4.5.2 on whole arrays.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 20261124})
  void agreesWithTheRfcOnRandomContentFragmentsAndBufferSizes(long seed) throws IOException {
    Random random = new Random(seed);
    byte[] alphabet = bytes(".\r\n.\r\nab");
    for (int round = 0; round < 3_000; round++) {
      byte[] wire = new byte[random.nextInt(60)];
      for (int i = 0; i < wire.length; i++) {
        wire[i] = alphabet[random.nextInt(alphabet.length)];
      }
      String input = new String(wire, ISO_8859_1) + "\r\n.\r\nNEXT";
      String expected = rfcContent(input);
      String rest = input.substring(rfcEnd(input));
      int readSize = random.nextBoolean() ? 1 + random.nextInt(4) : 8192;

      InputStream marked = new BufferedInputStream(new Fragmented(bytes(input), random), 16);
      assertThat(readAll(new DotTerminatedContent(marked), readSize, random.nextInt(3)))
          .as("%s read %d at a time", printable(input), readSize)
          .isEqualTo(expected);
      assertThat(new String(marked.readAllBytes(), ISO_8859_1)).isEqualTo(rest);

      InputStream unmarked = new Fragmented(bytes(input), random);
      assertThat(readAll(new DotTerminatedContent(unmarked), readSize))
          .as("%s without mark support", printable(input))
          .isEqualTo(expected);
      assertThat(new String(unmarked.readAllBytes(), ISO_8859_1)).isEqualTo(rest);
    }
  }

  /** Index just after the first CRLF.CRLF, the message's start counting as after a CRLF. */
  private static int rfcEnd(String input) {
    return ("\r\n" + input).indexOf("\r\n.\r\n") + 3;
  }

  /** The content before the terminator with the first dot of every line removed. */
  private static String rfcContent(String input) {
    String content = input.substring(0, rfcEnd(input) - 3);
    StringBuilder unstuffed = new StringBuilder();
    for (String line : content.split("(?<=\r\n)")) {
      unstuffed.append(line.startsWith(".") ? line.substring(1) : line);
    }
    return unstuffed.toString();
  }

  private static String readAll(InputStream in, int bufferSize) throws IOException {
    return readAll(in, bufferSize, 0);
  }

  /**
   * Reads into the middle of a larger buffer, {@code offset} bytes in, and checks that the bytes
   * around the region handed to the read stay as they were: the content is read in place.
   */
  private static String readAll(InputStream in, int bufferSize, int offset) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    byte[] buffer = new byte[offset + bufferSize + 2];
    Arrays.fill(buffer, (byte) 'Z');
    for (int n; (n = in.read(buffer, offset, bufferSize)) >= 0; ) {
      assertThat(n).isPositive().isLessThanOrEqualTo(bufferSize);
      all.write(buffer, offset, n);
      for (int i = 0; i < offset; i++) {
        assertThat(buffer[i]).isEqualTo((byte) 'Z');
      }
      assertThat(buffer[offset + bufferSize]).isEqualTo((byte) 'Z');
      assertThat(buffer[offset + bufferSize + 1]).isEqualTo((byte) 'Z');
    }
    return all.toString(ISO_8859_1);
  }

  private static InputStream buffered(String text) {
    return new BufferedInputStream(new ByteArrayInputStream(bytes(text)), 8192);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(ISO_8859_1);
  }

  private static String printable(String text) {
    return text.replace("\r", "\\r").replace("\n", "\\n");
  }

  /** Hands out at most a few bytes per read, as a network does; no mark support. */
  private static final class Fragmented extends FilterInputStream {
    private final Random random;

    Fragmented(byte[] bytes, Random random) {
      super(new ByteArrayInputStream(bytes));
      this.random = random;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return super.read(b, off, Math.min(len, 1 + random.nextInt(5)));
    }

    @Override
    public boolean markSupported() {
      return false;
    }
  }

  private static final class CountingStream extends FilterInputStream {
    int reads;

    CountingStream(byte[] bytes) {
      super(new ByteArrayInputStream(bytes));
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      reads++;
      return super.read(b, off, len);
    }
  }
}
