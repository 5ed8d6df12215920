package dev.burnbox.mailstore;

/** Why a store removed an entry that nobody deleted. Each is counted in {@link StoreStats}. */
public enum EvictionCause {
  /** The inbox held its cap of entries; its oldest entry made room for a new one. */
  INBOX_CAP,
  /** The store was over its byte budget; the oldest entry in the whole store went. */
  MEMORY_BUDGET,
  /** The entry was older than the store's time to live. */
  TTL
}
