package dev.burnbox.mailstore;

import java.util.Arrays;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * lz4 (lz4-java's fastest instance, fast compressor) as a {@link BodyCodec}, a benchmark peer only:
 * tag {@code 'L'}, varint raw length, lz4 block. It has no checksum, so unlike the store's codecs
 * it may return wrong bytes for a damaged body. Thread-safe (lz4-java's are stateless).
 */
final class Lz4BodyCodec implements BodyCodec {
  private static final byte TAG = 'L';
  private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
  private static final LZ4SafeDecompressor DECOMPRESSOR =
      LZ4Factory.fastestInstance().safeDecompressor();

  @Override
  public byte[] encode(byte[] raw) {
    StoredForm.checkRawLength(raw);
    int header = 1 + StoredForm.varintSize(raw.length);
    byte[] out = new byte[header + COMPRESSOR.maxCompressedLength(raw.length)];
    out[0] = TAG;
    StoredForm.writeVarint(out, 1, raw.length);
    int n = COMPRESSOR.compress(raw, 0, raw.length, out, header, out.length - header);
    return Arrays.copyOf(out, header + n);
  }

  @Override
  public byte[] decode(byte[] stored) {
    StoredForm.Reader reader = new StoredForm.Reader(stored, TAG, "lz4");
    int length = reader.rawLength();
    int payload = reader.position();
    byte[] raw = new byte[length];
    try {
      int n = DECOMPRESSOR.decompress(stored, payload, stored.length - payload, raw, 0, length);
      if (n != length) {
        throw new DamagedBodyException("lz4: " + n + " raw bytes, expected " + length);
      }
    } catch (LZ4Exception e) {
      throw new DamagedBodyException("lz4: stored body is damaged: " + e.getMessage(), e);
    }
    return raw;
  }

  @Override
  public String name() {
    return "lz4";
  }
}
