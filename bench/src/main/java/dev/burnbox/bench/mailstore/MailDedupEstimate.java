package dev.burnbox.bench.mailstore;

import dev.burnbox.mailstore.BodyCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Estimates what deduplication finer than whole bodies would save on a set of mails, beyond
 * per-message compression: repeated header fields, and content-defined chunks (CDC: a gear rolling
 * hash cuts each mail where the hash's low bits are zero, so equal runs of bytes in two mails are
 * cut into equal chunks wherever they sit; Mailinator stored mail this way). Every figure is in
 * stored bytes including the references and per-object costs a store would pay, and is compared
 * with compressing each whole mail with the same codec. Not thread-safe; a measurement, not a
 * store.
 */
final class MailDedupEstimate {
  /** Heap bytes of a {@code byte[]} of {@code length}: 16-byte header, 8-byte alignment. */
  static long arrayHeapBytes(long length) {
    return (16 + length + 7) & ~7L;
  }

  /** Bytes a store would pay per reference to a shared piece (an int id). */
  static final int REFERENCE_BYTES = 4;

  /**
   * Bytes a store would pay per shared piece besides its stored bytes: its array (see {@link
   * #arrayHeapBytes}) and an entry in a content-hash index (an open-addressing table of a 64-bit
   * hash and an int id at 2/3 load: about 18 bytes).
   */
  static final int INDEX_ENTRY_BYTES = 18;

  private static final long[] GEAR = gearTable();

  private MailDedupEstimate() {}

  private static long[] gearTable() {
    Random random = new Random(0x9E3779B97F4A7C15L);
    long[] table = new long[256];
    for (int i = 0; i < table.length; i++) {
      table[i] = random.nextLong();
    }
    return table;
  }

  /** One line of the estimate: a scheme, its unique share and its stored bytes. */
  record Row(String scheme, String detail, long storedHeapBytes) {}

  /** Number of mails that are exact duplicates of an earlier one. */
  static int wholeMailDuplicates(List<byte[]> mails) {
    Set<ByteBuffer> seen = new HashSet<>();
    int duplicates = 0;
    for (byte[] mail : mails) {
      if (!seen.add(ByteBuffer.wrap(mail))) {
        duplicates++;
      }
    }
    return duplicates;
  }

  /**
   * Mails whose body (everything after the header block) equals an earlier mail's body, and the
   * bytes of those bodies: {count, bytes}.
   */
  static long[] bodyDuplicates(List<byte[]> mails) {
    Set<ByteBuffer> seen = new HashSet<>();
    long count = 0;
    long bytes = 0;
    for (byte[] mail : mails) {
      int end = headerEnd(mail);
      if (!seen.add(ByteBuffer.wrap(mail, end, mail.length - end).slice())) {
        count++;
        bytes += mail.length - end;
      }
    }
    return new long[] {count, bytes};
  }

  /** End of the header block: index of the blank line's first byte, or the mail's length. */
  static int headerEnd(byte[] mail) {
    for (int i = 0; i + 1 < mail.length; i++) {
      if (mail[i] == '\n' && (mail[i + 1] == '\n' || mail[i + 1] == '\r')) {
        return i + 1;
      }
    }
    return mail.length;
  }

  /** Header fields of a mail (a field runs to the next line not starting with space or tab). */
  static List<ByteBuffer> headerFields(byte[] mail) {
    int end = headerEnd(mail);
    List<ByteBuffer> fields = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < end; i++) {
      if (mail[i] == '\n' && (i + 1 >= end || (mail[i + 1] != ' ' && mail[i + 1] != '\t'))) {
        fields.add(ByteBuffer.wrap(mail, start, i + 1 - start).slice());
        start = i + 1;
      }
    }
    if (start < end) {
      fields.add(ByteBuffer.wrap(mail, start, end - start).slice());
    }
    return fields;
  }

  /** Share of all bytes that are in header blocks, and share in header fields seen before. */
  static double[] headerShares(List<byte[]> mails) {
    long total = 0;
    long header = 0;
    long repeated = 0;
    long received = 0;
    Set<ByteBuffer> seen = new HashSet<>();
    for (byte[] mail : mails) {
      total += mail.length;
      for (ByteBuffer field : headerFields(mail)) {
        header += field.remaining();
        if (startsWithIgnoreCase(field, "received:")) {
          received += field.remaining();
        }
        if (!seen.add(field)) {
          repeated += field.remaining();
        }
      }
    }
    return new double[] {
      (double) header / total, (double) repeated / total, (double) received / total
    };
  }

  private static boolean startsWithIgnoreCase(ByteBuffer field, String prefix) {
    if (field.remaining() < prefix.length()) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (Character.toLowerCase(field.get(field.position() + i)) != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Stored heap bytes if every header field occurring in two or more mails is stored once
   * (compressed by {@code codec}, as one piece with its array and index entry) and referenced, and
   * the rest of each mail is compressed by {@code codec}. Uses hindsight (a field is shared if it
   * recurs anywhere in the set), so it is an upper bound on the saving.
   */
  static long sharedHeaderFieldsBytes(List<byte[]> mails, BodyCodec codec) {
    Map<ByteBuffer, Integer> counts = new HashMap<>();
    for (byte[] mail : mails) {
      for (ByteBuffer field : new HashSet<>(headerFields(mail))) {
        counts.merge(field, 1, Integer::sum);
      }
    }
    long stored = 0;
    Set<ByteBuffer> sharedStored = new HashSet<>();
    for (byte[] mail : mails) {
      ByteBuffer rest = ByteBuffer.allocate(mail.length);
      int references = 0;
      int end = headerEnd(mail);
      for (ByteBuffer field : headerFields(mail)) {
        if (counts.get(field) > 1) {
          references++;
          if (sharedStored.add(field)) {
            byte[] piece = new byte[field.remaining()];
            field.duplicate().get(piece);
            stored += arrayHeapBytes(codec.encode(piece).length) + INDEX_ENTRY_BYTES;
          }
        } else {
          rest.put(field.duplicate());
        }
      }
      rest.put(mail, end, mail.length - end);
      byte[] remainder = new byte[rest.position()];
      rest.flip().get(remainder);
      stored +=
          arrayHeapBytes(codec.encode(remainder).length)
              + arrayHeapBytes((long) references * REFERENCE_BYTES);
    }
    return stored;
  }

  /**
   * Content-defined chunking of {@code mails} with chunks of about {@code averageBytes} (from a
   * quarter to four times that): returns {unique chunk bytes, all chunk bytes, stored heap bytes},
   * where stored = each unique chunk compressed by {@code codec} once (array and index entry
   * included) plus, per mail, an int array of its chunk references.
   */
  static long[] chunked(List<byte[]> mails, int averageBytes, BodyCodec codec) {
    int bits = Integer.numberOfTrailingZeros(Integer.highestOneBit(averageBytes));
    long mask = ((1L << bits) - 1) << (64 - bits); // the hash's high bits mix the most bytes
    int min = averageBytes / 4;
    int max = averageBytes * 4;
    Set<ByteBuffer> seen = new HashSet<>();
    long unique = 0;
    long all = 0;
    long stored = 0;
    for (byte[] mail : mails) {
      int chunks = 0;
      int start = 0;
      while (start < mail.length) {
        int end = cut(mail, start, min, max, mask);
        ByteBuffer chunk = ByteBuffer.wrap(mail, start, end - start).slice();
        chunks++;
        all += end - start;
        if (seen.add(chunk)) {
          unique += end - start;
          byte[] piece = new byte[end - start];
          System.arraycopy(mail, start, piece, 0, piece.length);
          stored += arrayHeapBytes(codec.encode(piece).length) + INDEX_ENTRY_BYTES;
        }
        start = end;
      }
      stored += arrayHeapBytes((long) chunks * REFERENCE_BYTES);
    }
    return new long[] {unique, all, stored};
  }

  private static int cut(byte[] data, int start, int min, int max, long mask) {
    int limit = Math.min(data.length, start + max);
    if (limit - start <= min) {
      return limit;
    }
    long hash = 0;
    for (int i = start; i < limit; i++) {
      hash = (hash << 1) + GEAR[data[i] & 0xFF];
      if (i - start >= min && (hash & mask) == 0) {
        return i + 1;
      }
    }
    return limit;
  }
}
