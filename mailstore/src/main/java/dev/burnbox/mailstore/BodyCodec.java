package dev.burnbox.mailstore;

/** Turns raw message bytes into stored bytes and back. Implementations are thread-safe. */
interface BodyCodec {
  byte[] encode(byte[] raw); // stored form, self-describing

  byte[] decode(byte[] stored); // exactly the raw bytes

  String name();
}
