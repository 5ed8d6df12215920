package dev.burnbox.mailstore;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * A consistent snapshot of a store's contents and counters; field names are those of the {@code
 * /api/v1/stats} JSON.
 *
 * <p>The byte counts, each for what it is: {@code logicalBytes} is what the held mail would take as
 * received, copy by copy; {@code distinctBytes} is the same with each shared piece counted once
 * (deduplication's share is the gap between the two); {@code messageBytes} is those distinct pieces
 * as stored (compression's share is the gap to {@code distinctBytes}); {@code indexBytes} and
 * {@code codecBytes} are the overheads, and {@code cacheBytes} decoded mail kept to read and
 * compress faster (bounded, so its share shrinks as the store fills). {@link #storedBytes()}, their
 * sum with {@code messageBytes}, is what the byte budget bounds.
 *
 * <p>The entry counts add up: {@code messages == entriesDelivered - totalEvictions() - deletions}
 * (a partitioned store's sum may count a delivery that runs meanwhile in some partitions only).
 *
 * @param messages inbox entries held (a message listed in three inboxes counts three)
 * @param inboxes inboxes holding at least one entry
 * @param logicalBytes raw size of every held entry's message, as received: a message listed in
 *     three inboxes counts three times
 * @param distinctBytes raw size of the distinct content held: each stored piece (in the memory
 *     store a whole message, and a message others are stored against while they are; in Redis a
 *     header block or a body) once, however many entries and deliveries share it
 * @param messageBytes the stored (encoded: compressed) bytes of those distinct pieces
 * @param indexBytes the backend's estimate of the heap (or Redis memory) its bookkeeping takes:
 *     entries, deliveries and their metadata, pieces' keys, inboxes (in the memory store also the
 *     table that finds near-duplicates)
 * @param cacheBytes decoded mail kept for reads and near-duplicates to come: the memory store's
 *     cache of decoded bases (at most 1/256 of the budget and 1 MiB); 0 in Redis
 * @param codecBytes the heap the compression holds for itself (dictionaries, the trainer's sample
 *     reservoir): counted from the start, so not 0 when the store is empty
 * @param entriesDelivered inbox entries added since the store started: one per recipient inbox of
 *     each message delivered (a message to three inboxes adds three), and each entry a snapshot
 *     restored; not the messages, which a delivery counts once
 * @param evictions entries evicted since the store started, by cause; every cause is present
 * @param deletions entries removed by {@link InboxStore#delete} since the store started (not
 *     evictions); with the evictions, what makes {@code messages} less than {@code
 *     entriesDelivered}
 */
public record StoreStats(
    long messages,
    long inboxes,
    long logicalBytes,
    long distinctBytes,
    long messageBytes,
    long indexBytes,
    long cacheBytes,
    long codecBytes,
    long entriesDelivered,
    Map<EvictionCause, Long> evictions,
    long deletions) {

  /** Copies {@code evictions}, filling absent causes with 0. */
  public StoreStats {
    EnumMap<EvictionCause, Long> all = new EnumMap<>(EvictionCause.class);
    for (EvictionCause cause : EvictionCause.values()) {
      all.put(cause, evictions.getOrDefault(cause, 0L));
    }
    evictions = Collections.unmodifiableMap(all);
  }

  /**
   * What the byte budget counts: {@code messageBytes + indexBytes + cacheBytes + codecBytes}; never
   * above the budget between operations.
   */
  public long storedBytes() {
    return messageBytes + indexBytes + cacheBytes + codecBytes;
  }

  /** Evictions for every cause together. */
  public long totalEvictions() {
    return evictions.values().stream().mapToLong(Long::longValue).sum();
  }
}
