package dev.burnbox.mailstore;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of an inbox listing, newest first.
 *
 * @param messages at most the requested number of entries, newest first
 * @param nextCursor the cursor for the next (older) page; empty if there are no older entries
 */
public record InboxPage(List<MessageSummary> messages, Optional<String> nextCursor) {
  /**
   * @throws NullPointerException if an argument is null
   */
  public InboxPage {
    messages = List.copyOf(messages);
    Objects.requireNonNull(nextCursor, "nextCursor");
  }
}
