package dev.burnbox.mailstore;

/**
 * Turns raw message bytes into stored bytes and back: how a store keeps bodies ({@link
 * InboxStore.Builder#codec}). The store's own codecs are {@link #identity()}, {@link DeflateCodec}
 * and {@link ZstdCodec}. Implementations are thread-safe and never return wrong bytes: {@link
 * #decode} gives back exactly what was encoded, or throws.
 */
public interface BodyCodec {
  /** The stored form of {@code raw}, self-describing. Must not modify {@code raw}. */
  byte[] encode(byte[] raw);

  /**
   * Exactly the raw bytes {@code stored} was encoded from. Must not modify {@code stored}.
   *
   * @throws IllegalArgumentException if {@code stored} is damaged or was written by another codec
   */
  byte[] decode(byte[] stored);

  /** Whether {@link #encodeAgainst} may return anything but null; false by default. */
  default boolean encodesAgainstReferences() {
    return false;
  }

  /**
   * The stored form of {@code raw} compressed against {@code reference}, other raw bytes that the
   * caller keeps and hands to {@link #decodeAgainst} (a near-duplicate message already stored), or
   * null if this codec does not compress against references (the default). Must modify neither.
   */
  default byte[] encodeAgainst(byte[] raw, byte[] reference) {
    return null;
  }

  /**
   * Exactly the raw bytes {@code stored} was {@linkplain #encodeAgainst encoded} from, given the
   * same {@code reference}. Must modify neither.
   *
   * @throws IllegalArgumentException if {@code stored} is damaged, was written by another codec, or
   *     was not encoded against a reference
   */
  default byte[] decodeAgainst(byte[] stored, byte[] reference) {
    throw new DamagedBodyException(name() + ": does not decode against references");
  }

  /**
   * {@code raw} encoded for mail at rest: the codec's most compact form, as {@link #decode} reads
   * it, usually smaller than what {@link #encode} gives and many times slower to make, for
   * re-encoding mail in the background once the intake is quiet. Null if the codec has no such form
   * (the default). Not sampled for dictionary training. Thread-safe like the rest; a codec may
   * serialise these calls.
   */
  default byte[] encodeAtRest(byte[] raw) {
    return null;
  }

  /**
   * {@code raw} encoded against {@code reference} for mail at rest: {@link #encodeAgainst}'s most
   * compact form, as {@link #decodeAgainst} reads it with the same reference, for re-encoding in
   * the background as {@link #encodeAtRest} does. Null if the codec has no such form (the default)
   * or cannot use this reference.
   */
  default byte[] encodeAgainstAtRest(byte[] raw, byte[] reference) {
    return null;
  }

  /**
   * Whether re-encoding {@code stored} at rest would gain nothing: it is already in a form {@link
   * #encodeAtRest} or {@link #encodeAgainstAtRest} makes, or in one as small as those (such as a
   * splice of its reference).
   */
  default boolean isAtRest(byte[] stored) {
    return false;
  }

  /** A short stable name, for logs and stats. */
  String name();

  /**
   * Heap this codec holds for itself whatever the bodies stored (e.g. a dictionary trainer's
   * reservoir, trained dictionaries), which a store counts against its byte budget; 0 by default.
   * May change as the codec learns; cheap enough to call on every delivery.
   */
  default long retainedBytes() {
    return 0;
  }

  /**
   * The codec that stores raw bytes as they are; {@link #encode} and {@link #decode} copy nothing.
   */
  static BodyCodec identity() {
    return Identity.INSTANCE;
  }

  /**
   * Stores bytes unchanged: the arrays returned are the arrays given, so callers never mutate them.
   */
  final class Identity implements BodyCodec {
    static final Identity INSTANCE = new Identity();

    private Identity() {}

    @Override
    public byte[] encode(byte[] raw) {
      return raw;
    }

    @Override
    public byte[] decode(byte[] stored) {
      return stored;
    }

    @Override
    public String name() {
      return "identity";
    }
  }
}
