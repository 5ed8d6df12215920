package dev.burnbox.bench.soak;

import java.util.SplittableRandom;

/**
 * What a soak client does with one mail. The weights are per thousand; the well-behaved rest make
 * up what is left. Stalls are rare because each holds its connection past a server timeout.
 */
enum Misbehaviour {
  /** MAIL, RCPT, DATA or BDAT, the content, the reply; the session goes on. */
  NONE(0),
  /** Hangs up after the recipients, before DATA or the first BDAT. */
  DISCONNECT_BEFORE_DATA(40),
  /** Hangs up in the middle of the content. */
  DISCONNECT_MID_DATA(40),
  /** Sends the final dot (or the LAST chunk) and hangs up without reading the reply. */
  DISCONNECT_AFTER_END(40),
  /** Reads the 250, then hangs up without QUIT. */
  DISCONNECT_AFTER_250(40),
  /** Says RSET after the recipients and goes on with the next mail on the same connection. */
  RSET_MID_TRANSACTION(40),
  /** Stays silent after the recipients for longer than the command timeout. */
  STALL_BEFORE_DATA(3),
  /** Stops in the middle of the content for longer than the data timeout. */
  STALL_MID_DATA(3);

  private final int perThousand;

  Misbehaviour(int perThousand) {
    this.perThousand = perThousand;
  }

  /** One behaviour drawn by the weights; stalls only if {@code stalls} is set. */
  static Misbehaviour pick(SplittableRandom random, boolean stalls) {
    int draw = random.nextInt(1000);
    for (Misbehaviour m : values()) {
      if (m.isStall() && !stalls) {
        continue;
      }
      if (draw < m.perThousand) {
        return m;
      }
      draw -= m.perThousand;
    }
    return NONE;
  }

  boolean isStall() {
    return this == STALL_BEFORE_DATA || this == STALL_MID_DATA;
  }

  /** Whether the connection is closed after this mail. */
  boolean endsConnection() {
    return this != NONE && this != RSET_MID_TRANSACTION;
  }
}
