package dev.burnbox.server.mime;

import java.util.Arrays;
import java.util.Objects;

/**
 * One attachment's decoded content. Immutable: {@link #content()} returns a copy.
 *
 * @param filename the decoded file name, or "" if the part names none
 * @param contentType the lower-case MIME type
 * @param content the bytes after base64 or quoted-printable decoding
 */
public record Attachment(String filename, String contentType, byte[] content) {
  public Attachment {
    Objects.requireNonNull(filename, "filename");
    Objects.requireNonNull(contentType, "contentType");
    content = content.clone();
  }

  /** A copy of the decoded bytes. */
  @Override
  public byte[] content() {
    return content.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Attachment that
        && filename.equals(that.filename)
        && contentType.equals(that.contentType)
        && Arrays.equals(content, that.content);
  }

  @Override
  public int hashCode() {
    return Objects.hash(filename, contentType, Arrays.hashCode(content));
  }

  @Override
  public String toString() {
    return "Attachment[" + filename + ", " + contentType + ", " + content.length + " bytes]";
  }
}
