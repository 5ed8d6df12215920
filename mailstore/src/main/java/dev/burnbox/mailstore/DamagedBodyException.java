package dev.burnbox.mailstore;

/**
 * A stored body that cannot be turned back into exactly the bytes that were stored: it is
 * truncated, has been altered (its checksum does not match), names a codec or a dictionary that the
 * decoding codec does not have, or claims a size beyond {@link StoredForm#MAX_RAW_BYTES}. Codecs
 * throw it instead of ever returning wrong bytes.
 */
final class DamagedBodyException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  DamagedBodyException(String message) {
    super(message);
  }

  DamagedBodyException(String message, Throwable cause) {
    super(message, cause);
  }
}
