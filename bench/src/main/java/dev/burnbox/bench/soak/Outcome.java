package dev.burnbox.bench.soak;

/** How one mail attempt ended, as the client saw it; each outcome says what the store may hold. */
enum Outcome {
  /** The server answered 250 to the end of the content: every recipient must hold it, exactly. */
  ACKNOWLEDGED,
  /** A 4xx or 5xx ended the transaction: nothing may be stored. */
  REFUSED,
  /**
   * The transaction ended before the end of the content was sent (the client disconnected, reset or
   * stalled, or the connection dropped): nothing may be stored.
   */
  INTERRUPTED,
  /**
   * The end of the content was sent but its reply never read (the client hung up, or the connection
   * dropped): either every recipient holds it exactly, or none does.
   */
  UNKNOWN
}
