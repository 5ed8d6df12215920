package dev.burnbox.bench.smtp;

import dev.burnbox.server.smtp.DotTerminatedContent;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.subethamail.smtp.internal.io.DotTerminatedInputStream;
import org.subethamail.smtp.internal.io.DotUnstuffingInputStream;

/**
 * Reading one DATA command's content from a session's buffered input, as the intake does: {@link
 * DotTerminatedContent} (blocks) against SubEtha's byte-at-a-time {@code DotTerminatedInputStream}
 * with its {@code DotUnstuffingInputStream}, the path the intake used before. The input is a
 * dot-stuffed mail of {@code size} bytes of text lines (one line in 20 starts with a dot) followed
 * by the terminator and the next command, read in 8 KiB requests as {@code
 * MessageTransaction.absorb} reads. One operation reads one mail's content.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class DataReaderBenchmark {
  @Param({"2048", "65536"})
  int size;

  private byte[] wire;
  private final byte[] chunk = new byte[8192];

  @Setup
  public void setUp() {
    StringBuilder mail = new StringBuilder("Subject: bench\r\n\r\n");
    for (int line = 0; mail.length() < size; line++) {
      mail.append(line % 20 == 0 ? ".." : "")
          .append("the quick brown fox jumps over the lazy dog ");
      mail.append(line).append("\r\n");
    }
    wire = (mail + ".\r\nQUIT\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  private InputStream session() {
    return new BufferedInputStream(new ByteArrayInputStream(wire), 8192);
  }

  @Benchmark
  public long burnbox() throws IOException {
    return drain(new DotTerminatedContent(session()));
  }

  @Benchmark
  public long subetha() throws IOException {
    return drain(new DotUnstuffingInputStream(new DotTerminatedInputStream(session())));
  }

  private long drain(InputStream content) throws IOException {
    long total = 0;
    for (int n; (n = content.read(chunk, 0, chunk.length)) >= 0; ) {
      total += n;
    }
    return total;
  }
}
