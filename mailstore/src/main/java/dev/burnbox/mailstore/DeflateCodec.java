package dev.burnbox.mailstore;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The JDK's Deflate as a {@link BodyCodec}, the baseline the others are measured against. The
 * stored form is {@link StoredForm}'s header and a zlib stream, whose Adler-32 trailer catches
 * damage. Thread-safe: every call uses its own {@link Deflater} or {@link Inflater} and ends it.
 */
public final class DeflateCodec implements BodyCodec {
  private static final String NAME = "deflate";

  private final int level;

  /**
   * A codec at Deflate {@code level}.
   *
   * @throws IllegalArgumentException unless {@code level} is 1 to 9
   */
  public DeflateCodec(int level) {
    if (level < 1 || level > 9) {
      throw new IllegalArgumentException("Deflate level must be 1 to 9: " + level);
    }
    this.level = level;
  }

  @Override
  public byte[] encode(byte[] raw) {
    StoredForm.checkRawLength(raw);
    Deflater deflater = new Deflater(level);
    try {
      deflater.setInput(raw);
      deflater.finish();
      byte[] out = new byte[1 + StoredForm.varintSize(raw.length) + raw.length / 2 + 64];
      out[0] = StoredForm.DEFLATE;
      int pos = StoredForm.writeVarint(out, 1, raw.length);
      while (!deflater.finished()) {
        if (pos == out.length) {
          out = Arrays.copyOf(out, out.length + out.length / 2 + 64);
        }
        pos += deflater.deflate(out, pos, out.length - pos);
      }
      return Arrays.copyOf(out, pos);
    } finally {
      deflater.end();
    }
  }

  @Override
  public byte[] decode(byte[] stored) {
    StoredForm.Reader reader = new StoredForm.Reader(stored, StoredForm.DEFLATE, NAME);
    int length = reader.rawLength();
    int payload = reader.position();
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(stored, payload, stored.length - payload);
      byte[] raw = new byte[length];
      int pos = 0;
      // one extra round after the buffer is full: it finishes the stream (checks the Adler-32)
      while (!inflater.finished()) {
        int n = inflater.inflate(raw, pos, raw.length - pos);
        pos += n;
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary() || pos == length)) {
          break;
        }
      }
      if (!inflater.finished() || pos != length || inflater.getRemaining() != 0) {
        throw new DamagedBodyException(
            NAME
                + ": stored body is damaged: the zlib stream "
                + (inflater.finished() ? "has trailing bytes" : "is truncated or too long")
                + " (expected "
                + length
                + " raw bytes)");
      }
      return raw;
    } catch (DataFormatException e) {
      throw new DamagedBodyException(NAME + ": stored body is damaged: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }

  @Override
  public String name() {
    return NAME + "-" + level;
  }
}
