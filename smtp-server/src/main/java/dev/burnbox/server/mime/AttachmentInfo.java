package dev.burnbox.server.mime;

import java.util.Objects;

/**
 * What the inbox lists for one attachment; fetch its bytes with {@link
 * MailDecoder#attachment(byte[], int)}.
 *
 * @param index position among the message's attachments, from 0, in the order they appear
 * @param filename the decoded file name (RFC 2047 or RFC 2231), or "" if the part names none
 * @param contentType the lower-case MIME type, e.g. {@code application/pdf}
 * @param size decoded size in bytes
 * @param contentId the part's Content-ID without its angle brackets and surrounding white space
 *     (what an HTML part's {@code cid:} URL names), or "" if the part has none
 */
public record AttachmentInfo(
    int index, String filename, String contentType, long size, String contentId) {
  public AttachmentInfo {
    Objects.requireNonNull(filename, "filename");
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(contentId, "contentId");
  }

  /** An attachment without a Content-ID. */
  public AttachmentInfo(int index, String filename, String contentType, long size) {
    this(index, filename, contentType, size, "");
  }
}
