package dev.burnbox.mailstore;

/**
 * The self-describing layout every {@link BodyCodec} of this package writes: one tag byte naming
 * the codec, the raw length as an unsigned LEB128 varint (1 byte up to 127, 2 up to 16,383, 3 up to
 * 2 MiB), then codec-specific fields and the payload. Stateless and thread-safe.
 */
final class StoredForm {
  /** Tag of {@link DeflateCodec}: a zlib stream (Deflate with an Adler-32 trailer) follows. */
  static final byte DEFLATE = 'D';

  /** Tag of {@link ZstdCodec}: a varint dictionary id (0 = none) and a zstd frame follow. */
  static final byte ZSTD = 'Z';

  /**
   * Tag of {@link ZstdCodec#encodeAtRest}: the same fields as {@link #ZSTD}, for a frame compressed
   * at the codec's level for mail at rest.
   */
  static final byte ZSTD_AT_REST = 'S';

  /**
   * Tag of {@link ZstdCodec#encodeAgainst}: a zstd frame whose dictionary is the raw bytes of a
   * reference the reader must supply follows.
   */
  static final byte ZSTD_AGAINST = 'R';

  /**
   * Tag of {@link ZstdCodec#encodeAgainstAtRest}: the same fields as {@link #ZSTD_AGAINST}, for a
   * frame compressed at the codec's level for mail at rest.
   */
  static final byte ZSTD_AGAINST_AT_REST = 'Q';

  /**
   * Tag of {@link ZstdCodec#encodeAgainst}'s {@link Splice}: the reference the reader must supply,
   * with a few stretches replaced; {@link Splice} describes the fields.
   */
  static final byte SPLICE = 'P';

  /**
   * Largest raw body the codecs accept (256 MiB): far above any mail an SMTP server accepts, and a
   * bound on what a damaged length field can make a decoder allocate.
   */
  static final int MAX_RAW_BYTES = 256 << 20;

  private StoredForm() {}

  /** Bytes the varint of {@code value} takes. */
  static int varintSize(int value) {
    int size = 1;
    while ((value >>>= 7) != 0) {
      size++;
    }
    return size;
  }

  /** Writes {@code value} at {@code pos}; returns the position after it. */
  static int writeVarint(byte[] dst, int pos, int value) {
    while ((value & ~0x7F) != 0) {
      dst[pos++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    dst[pos++] = (byte) value;
    return pos;
  }

  /**
   * Checks that a raw body can be stored.
   *
   * @throws IllegalArgumentException if it is longer than {@link #MAX_RAW_BYTES}
   */
  static void checkRawLength(byte[] raw) {
    if (raw.length > MAX_RAW_BYTES) {
      throw new IllegalArgumentException(
          "body of " + raw.length + " bytes exceeds the codec limit of " + MAX_RAW_BYTES);
    }
  }

  /** Reads a stored form front to back; every read fails with {@link DamagedBodyException}. */
  static final class Reader {
    private final byte[] stored;
    private final String codec;
    private int pos;

    /**
     * Starts reading {@code stored}, checking that its tag is {@code tag}.
     *
     * @throws DamagedBodyException if it is empty or has another tag
     */
    Reader(byte[] stored, byte tag, String codec) {
      this.stored = stored;
      this.codec = codec;
      if (stored.length == 0) {
        throw new DamagedBodyException(codec + ": stored body is empty (no tag byte)");
      }
      if (stored[0] != tag) {
        throw new DamagedBodyException(
            String.format(
                "%s: stored body has tag 0x%02x, not 0x%02x: damaged or written by another codec",
                codec, stored[0] & 0xFF, tag & 0xFF));
      }
      pos = 1;
    }

    /** Reads a varint of at most 5 bytes holding a non-negative int. */
    int varint(String field) {
      int value = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        if (pos >= stored.length) {
          throw new DamagedBodyException(codec + ": stored body ends inside its " + field);
        }
        int b = stored[pos++] & 0xFF;
        value |= (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          if (value < 0 || (shift == 28 && b > 0x07)) {
            break;
          }
          return value;
        }
      }
      throw new DamagedBodyException(codec + ": stored body has an invalid " + field);
    }

    /** Reads the raw length, bounded by {@link #MAX_RAW_BYTES}. */
    int rawLength() {
      int length = varint("raw length");
      if (length > MAX_RAW_BYTES) {
        throw new DamagedBodyException(
            codec + ": stored body claims " + length + " raw bytes, over the codec limit");
      }
      return length;
    }

    /** Position of the payload: everything after the fields read so far. */
    int position() {
      return pos;
    }
  }
}
