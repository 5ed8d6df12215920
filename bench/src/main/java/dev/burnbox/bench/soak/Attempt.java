package dev.burnbox.bench.soak;

import java.util.List;

/**
 * One mail the soak tried to deliver, as the ledger keeps it until it is checked.
 *
 * @param sequence its number in the run (its token is derived from it)
 * @param token its unique token, in its Message-ID and Subject
 * @param inboxes the inboxes whose RCPT got 250, in order; the store must hold it in these
 * @param raw the content exactly as it was meant to be stored (before dot-stuffing)
 * @param transport {@code DATA} or {@code BDAT}
 * @param behaviour what the client did
 * @param outcome how it ended
 * @param reply the last reply line read, or what ended the attempt
 */
record Attempt(
    long sequence,
    String token,
    List<String> inboxes,
    byte[] raw,
    String transport,
    Misbehaviour behaviour,
    Outcome outcome,
    String reply) {
  Attempt {
    inboxes = List.copyOf(inboxes);
  }

  @Override
  public String toString() {
    return token
        + " "
        + outcome
        + " via "
        + transport
        + " ("
        + behaviour
        + ", "
        + raw.length
        + " bytes, to "
        + inboxes
        + ", last reply: "
        + reply
        + ")";
  }
}
