package dev.burnbox.bench.mailstore;

import dev.burnbox.mailstore.BodyCodec;
import java.util.Arrays;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * lz4 (lz4-java's fastest instance, fast compressor) as a {@link BodyCodec}, a benchmark peer only:
 * tag {@code 'L'}, the raw length as an unsigned LEB128 varint (the framing of the store's own
 * codecs), lz4 block. It has no checksum, so unlike the store's codecs it may return wrong bytes
 * for a damaged body. Thread-safe (lz4-java's are stateless).
 */
final class Lz4BodyCodec implements BodyCodec {
  private static final byte TAG = 'L';
  private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
  private static final LZ4SafeDecompressor DECOMPRESSOR =
      LZ4Factory.fastestInstance().safeDecompressor();

  @Override
  public byte[] encode(byte[] raw) {
    int header = 1;
    for (int v = raw.length; (v & ~0x7F) != 0; v >>>= 7) {
      header++;
    }
    byte[] out = new byte[1 + header + COMPRESSOR.maxCompressedLength(raw.length)];
    out[0] = TAG;
    int pos = 1;
    int v = raw.length;
    while ((v & ~0x7F) != 0) {
      out[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[pos++] = (byte) v;
    int n = COMPRESSOR.compress(raw, 0, raw.length, out, pos, out.length - pos);
    return Arrays.copyOf(out, pos + n);
  }

  @Override
  public byte[] decode(byte[] stored) {
    if (stored.length == 0 || stored[0] != TAG) {
      throw new IllegalArgumentException("lz4: not an lz4 body");
    }
    int length = 0;
    int pos = 1;
    for (int shift = 0; ; shift += 7) {
      if (pos >= stored.length || shift > 28) {
        throw new IllegalArgumentException("lz4: damaged raw length");
      }
      int b = stored[pos++] & 0xFF;
      length |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
    }
    if (length < 0) {
      throw new IllegalArgumentException("lz4: damaged raw length");
    }
    byte[] raw = new byte[length];
    try {
      int n = DECOMPRESSOR.decompress(stored, pos, stored.length - pos, raw, 0, length);
      if (n != length) {
        throw new IllegalArgumentException("lz4: " + n + " raw bytes, expected " + length);
      }
    } catch (LZ4Exception e) {
      throw new IllegalArgumentException("lz4: stored body is damaged: " + e.getMessage(), e);
    }
    return raw;
  }

  @Override
  public String name() {
    return "lz4";
  }
}
