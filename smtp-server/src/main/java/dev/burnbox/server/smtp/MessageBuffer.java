package dev.burnbox.server.smtp;

import java.util.ArrayList;
import java.util.List;

/**
 * The content of one message as it arrives, held in blocks of at most {@link #BLOCK_SIZE} bytes
 * that are each reserved from the intake's {@link ByteBudget} before they are allocated, and never
 * more than {@code limit} bytes in all. When the budget refuses a block, or the caller {@link
 * #discard()}s the content, everything held is given back at once and later appends are dropped:
 * the memory a session holds is always covered by its reservation. Confined to one session thread;
 * {@link #release()} must be called when the content is no longer needed.
 */
final class MessageBuffer {
  /** Allocation unit: small enough that thousands of sessions trickling content hold little. */
  static final int BLOCK_SIZE = 16 * 1024;

  private final ByteBudget budget;
  private final int limit;
  private final List<byte[]> blocks = new ArrayList<>();
  private byte[] current;
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
   * Appends {@code n} bytes of {@code data} if the buffer is still holding content; reserves a new
   * block when the last one is full.
   *
   * @throws IllegalStateException if the content would pass the buffer's limit
   */
  void append(byte[] data, int n) {
    if (dropped) {
      return;
    }
    if ((long) size + n > limit) {
      throw new IllegalStateException("message buffer over its limit of " + limit + " bytes");
    }
    int at = 0;
    while (at < n) {
      if (current == null || fill == current.length) {
        if (!addBlock()) {
          return;
        }
      }
      int copy = Math.min(n - at, current.length - fill);
      System.arraycopy(data, at, current, fill, copy);
      at += copy;
      fill += copy;
      size += copy;
    }
  }

  private boolean addBlock() {
    int length = Math.min(BLOCK_SIZE, limit - size);
    if (!budget.tryReserve(length)) {
      refused = true;
      discard();
      return false;
    }
    reserved += length;
    current = new byte[length];
    fill = 0;
    blocks.add(current);
    return true;
  }

  /** Drops the content held and gives its reservation back; later appends are ignored. */
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

  /**
   * The content as one array. The blocks are let go; the reservation stays until {@link
   * #release()}, covering the array while the caller hands it on.
   *
   * @throws IllegalStateException if the content was dropped
   */
  byte[] toByteArray() {
    if (dropped) {
      throw new IllegalStateException("message content was dropped");
    }
    byte[] content = new byte[size];
    for (int i = 0, at = 0; at < size; i++) {
      byte[] block = blocks.get(i);
      int copy = Math.min(block.length, size - at);
      System.arraycopy(block, 0, content, at, copy);
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
