package dev.burnbox.server.smtp;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The content of one message as it arrives, read straight from the session's input into blocks (the
 * first {@link #FIRST_BLOCK_SIZE} bytes, then each twice the one before, at most {@link
 * #BLOCK_SIZE}: a 5 KB message takes 4 and 8 KiB, not 4 and 16) that are each reserved from the
 * intake's {@link ByteBudget} before they are allocated, and never more than {@code limit} bytes in
 * all. When the budget refuses a block, bytes come past the limit, or the caller {@link
 * #discard()}s the content, everything held is given back at once and later bytes are read into a
 * scratch block and dropped: the memory a session holds is always covered by its reservation.
 * Confined to one session thread; {@link #release()} must be called when the content is no longer
 * needed.
 */
final class MessageBuffer {
  /**
   * The first block's size: most mail fits in it (2 KB for smtp-source, 5.5 KB the corpus mean).
   */
  static final int FIRST_BLOCK_SIZE = 4 * 1024;

  /** The largest block: small enough that thousands of sessions trickling content hold little. */
  static final int BLOCK_SIZE = 16 * 1024;

  /** Looks at each stretch of bytes as it is read (the intake's line-length check). */
  interface Inspector {
    void inspect(byte[] bytes, int offset, int length);
  }

  private final ByteBudget budget;
  private final int limit;
  private final List<byte[]> blocks = new ArrayList<>();
  private byte[] current;
  private byte[] scratch;
  private int fill;
  private long reserved;
  private int size;
  private boolean dropped;
  private boolean refused;

  /**
   * @param limit the most bytes this buffer will ever hold (the message size limit)
   */
  MessageBuffer(ByteBudget budget, int limit) {
    this.budget = budget;
    this.limit = limit;
  }

  /**
   * Reads at most {@code max} bytes of {@code in} with one read call, into the content's last block
   * (reserving a new one when it is full), and shows them to {@code inspector}; returns how many,
   * or -1 at the end of {@code in}. Once the content is dropped, or when the bytes would pass the
   * limit (the content is then dropped), they go to a scratch block and are lost.
   */
  int readFrom(InputStream in, int max, Inspector inspector) throws IOException {
    if (!dropped && size < limit && (current == null || fill == current.length)) {
      addBlock();
    }
    boolean keep = !dropped && size < limit;
    byte[] into = keep ? current : scratch();
    int at = keep ? fill : 0;
    int n = in.read(into, at, Math.min(max, into.length - at));
    if (n > 0) {
      inspector.inspect(into, at, n);
      if (keep) {
        fill += n;
        size += n;
      } else if (!dropped) {
        discard(); // past the limit
      }
    }
    return n;
  }

  private byte[] scratch() {
    if (scratch == null) {
      scratch = new byte[FIRST_BLOCK_SIZE];
    }
    return scratch;
  }

  private void addBlock() {
    int next = blocks.isEmpty() ? FIRST_BLOCK_SIZE : Math.min(BLOCK_SIZE, 2 * current.length);
    int length = Math.min(next, limit - size);
    if (!budget.tryReserve(length)) {
      refused = true;
      discard();
      return;
    }
    reserved += length;
    current = new byte[length];
    fill = 0;
    blocks.add(current);
  }

  /** Drops the content held and gives its reservation back; later bytes are dropped too. */
  void discard() {
    dropped = true;
    blocks.clear();
    current = null;
    release();
  }

  /** True if the budget refused a block, so the content is incomplete. */
  boolean refused() {
    return refused;
  }

  /** How many bytes the content holds. */
  int size() {
    return size;
  }

  /**
   * {@code prefix} and then the content, as one array. The blocks are let go; the reservation stays
   * until {@link #release()}, covering the array while the caller hands it on.
   *
   * @throws IllegalStateException if the content was dropped
   */
  byte[] toByteArray(byte[] prefix) {
    if (dropped) {
      throw new IllegalStateException("message content was dropped");
    }
    byte[] content = new byte[prefix.length + size];
    System.arraycopy(prefix, 0, content, 0, prefix.length);
    for (int i = 0, at = 0; at < size; i++) {
      byte[] block = blocks.get(i);
      int copy = Math.min(block.length, size - at);
      System.arraycopy(block, 0, content, prefix.length + at, copy);
      at += copy;
    }
    blocks.clear();
    current = null;
    dropped = true;
    return content;
  }

  /** Gives the reservation back; idempotent. */
  void release() {
    if (reserved > 0) {
      budget.release(reserved);
      reserved = 0;
    }
  }
}
