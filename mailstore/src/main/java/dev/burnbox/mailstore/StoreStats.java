package dev.burnbox.mailstore;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * A consistent snapshot of a store's contents and counters; field names are those of the {@code
 * /api/v1/stats} JSON.
 *
 * @param messages inbox entries held (a message listed in three inboxes counts three)
 * @param inboxes inboxes holding at least one entry
 * @param rawBytes raw size of the distinct mail held: a message shared by several entries or
 *     deliveries counts once (the memory backend also counts a body shared by messages whose header
 *     blocks differ once)
 * @param storedBytes what the byte budget counts: stored (encoded) bodies plus the backend's
 *     estimate of its index overhead plus the heap its compression holds for itself (so not 0 when
 *     empty); never above the budget between operations
 * @param evictions entries evicted since the store started, by cause; every cause is present
 */
public record StoreStats(
    long messages,
    long inboxes,
    long rawBytes,
    long storedBytes,
    Map<EvictionCause, Long> evictions) {

  /** Copies {@code evictions}, filling absent causes with 0. */
  public StoreStats {
    EnumMap<EvictionCause, Long> all = new EnumMap<>(EvictionCause.class);
    for (EvictionCause cause : EvictionCause.values()) {
      all.put(cause, evictions.getOrDefault(cause, 0L));
    }
    evictions = Collections.unmodifiableMap(all);
  }

  /** Evictions for every cause together. */
  public long totalEvictions() {
    return evictions.values().stream().mapToLong(Long::longValue).sum();
  }
}
