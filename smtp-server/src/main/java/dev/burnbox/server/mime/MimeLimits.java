package dev.burnbox.server.mime;

/**
 * Bounds on the work {@link MailDecoder} does for one message. Exceeding a bound never fails the
 * message: the decoder stops descending or truncates, and records a problem in {@link
 * DecodedMail#problems()}.
 *
 * @param maxDepth multipart and attached-message nesting below the top-level message that is still
 *     decoded; parts nested deeper are skipped
 * @param maxDecodedBytes decoded text and HTML kept in total, in bytes before charset decoding;
 *     longer content is truncated
 * @param maxParts body parts (leaves and containers) looked at; later parts are ignored
 */
public record MimeLimits(int maxDepth, long maxDecodedBytes, int maxParts) {
  /** The defaults of {@link MimeSettings}: 20 levels, 4 MiB of text and HTML, 500 parts. */
  public static final MimeLimits DEFAULTS = MimeSettings.of().limits();

  /**
   * @throws IllegalArgumentException if a bound is negative, or {@code maxParts} is zero
   */
  public MimeLimits {
    if (maxDepth < 0 || maxDecodedBytes < 0 || maxParts < 1) {
      throw new IllegalArgumentException(
          "limits must be >= 0 (maxParts >= 1): "
              + maxDepth
              + ", "
              + maxDecodedBytes
              + ", "
              + maxParts);
    }
  }
}
