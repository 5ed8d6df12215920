package dev.burnbox.mailstore;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

/**
 * The identifier of one message in one inbox, as the web API addresses it.
 *
 * <p>An id is {@value #BITS} bits, written as {@value #LENGTH} characters of URL-safe base64
 * without padding. At least {@value #RANDOM_BITS} of them are random bits from {@link
 * SecureRandom}: a store may set the last {@value #ROUTE_BITS} bits to a route of its own (the
 * Redis store puts the partition that holds the entry there, which anyone knowing the inbox name
 * can work out anyway). Ids are unguessable and never sequential, so knowing one id tells nothing
 * about any other message. A message delivered to several inboxes has a different id in each.
 *
 * <p>Held as two {@code long}s (32 bytes of heap); the text form is made on demand. Random bits are
 * drawn from {@code SecureRandom} {@value #BATCH} ids at a time, each id's bits used once.
 *
 * <p>Immutable and thread-safe.
 */
public final class MessageId {
  /** Bits in an id. */
  public static final int BITS = 128;

  /** Random bits in an id, at least: all but the {@value #ROUTE_BITS} a store may route by. */
  public static final int RANDOM_BITS = 120;

  /** The last bits of an id, which a store may set to route it ({@link #random(int)}). */
  static final int ROUTE_BITS = 8;

  /** Characters in an id's text form. */
  public static final int LENGTH = 22;

  /** Ids whose random bits one {@link SecureRandom} call draws. */
  static final int BATCH = 64;

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final ByteBuffer BITS_DRAWN =
      ByteBuffer.allocate(BATCH * BITS / 8).position(BATCH * BITS / 8);

  private final long high;
  private final long low;

  private MessageId(long high, long low) {
    this.high = high;
    this.low = low;
  }

  /** A new random id. Thread-safe. */
  static MessageId random() {
    synchronized (BITS_DRAWN) {
      if (!BITS_DRAWN.hasRemaining()) {
        RANDOM.nextBytes(BITS_DRAWN.array());
        BITS_DRAWN.clear();
      }
      return new MessageId(BITS_DRAWN.getLong(), BITS_DRAWN.getLong());
    }
  }

  /**
   * A new id whose last {@value #ROUTE_BITS} bits are {@code route} and whose other {@value
   * #RANDOM_BITS} bits are random. Thread-safe.
   *
   * @throws IllegalArgumentException unless {@code route} is 0 to 255
   */
  static MessageId random(int route) {
    if (route < 0 || route >= 1 << ROUTE_BITS) {
      throw new IllegalArgumentException("route must be 0 to 255: " + route);
    }
    MessageId id = random();
    return new MessageId(id.high, (id.low & -(1L << ROUTE_BITS)) | route);
  }

  /**
   * The id whose 128 bits are {@code high} then {@code low}: for a store that holds them inline.
   */
  static MessageId of(long high, long low) {
    return new MessageId(high, low);
  }

  /** The first 64 bits. */
  long high() {
    return high;
  }

  /** The last 64 bits. */
  long low() {
    return low;
  }

  /** The last {@value #ROUTE_BITS} bits: the route given to {@link #random(int)}. */
  int route() {
    return (int) (low & ((1 << ROUTE_BITS) - 1));
  }

  /**
   * The id written as {@code text}.
   *
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalArgumentException unless {@code text} is the canonical text of an id: exactly
   *     {@value #LENGTH} characters of {@code [A-Za-z0-9_-]} encoding {@value #BITS} bits
   */
  public static MessageId parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.length() != LENGTH) {
      throw new IllegalArgumentException(
          "message id must be " + LENGTH + " characters, got " + text.length());
    }
    for (int i = 0; i < LENGTH; i++) {
      char c = text.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_';
      if (!ok) {
        throw new IllegalArgumentException(
            "message id has a character outside URL-safe base64 at index " + i);
      }
    }
    ByteBuffer bits = ByteBuffer.wrap(Base64.getUrlDecoder().decode(text));
    MessageId id = new MessageId(bits.getLong(), bits.getLong());
    // the last character carries 4 unused bits: only one spelling per id is canonical
    if (!id.value().equals(text)) {
      throw new IllegalArgumentException("message id is not canonical: " + text);
    }
    return id;
  }

  /** The text form, safe in a URL path. */
  public String value() {
    return ENCODER.encodeToString(ByteBuffer.allocate(BITS / 8).putLong(high).putLong(low).array());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MessageId other && high == other.high && low == other.low;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(high * 31 + low);
  }

  /** The same as {@link #value()}. */
  @Override
  public String toString() {
    return value();
  }
}
