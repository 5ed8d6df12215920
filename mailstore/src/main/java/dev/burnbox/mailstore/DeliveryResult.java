package dev.burnbox.mailstore;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of {@link InboxStore#deliver}: either delivered to every recipient inbox, or refused
 * as a whole for a stated reason. A store never answers delivered for only some recipients; after a
 * {@link RefusalReason#STORE_UNAVAILABLE} some entries may remain, as that reason says.
 */
public sealed interface DeliveryResult {

  /** True if the message was delivered. */
  default boolean isDelivered() {
    return this instanceof Delivered;
  }

  /**
   * The message was stored and listed in every recipient inbox; each entry is retrievable by its id
   * until deleted or evicted by the store's documented limits.
   *
   * @param ids the new entry's id in each distinct recipient inbox, in recipient order (after the
   *     store's name normalization, e.g. stripping {@code +tag}s)
   */
  record Delivered(Map<InboxName, MessageId> ids) implements DeliveryResult {
    /** Copies {@code ids}, keeping its order. */
    public Delivered {
      ids = Collections.unmodifiableMap(new LinkedHashMap<>(ids));
    }
  }

  /**
   * Nothing was stored.
   *
   * @param reason why, for the SMTP reply
   * @param detail a human-readable explanation (sizes involved), safe to log
   */
  record Refused(RefusalReason reason, String detail) implements DeliveryResult {
    /**
     * @throws NullPointerException if an argument is null
     */
    public Refused {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(detail, "detail");
    }
  }
}
