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
 */
public record AttachmentInfo(int index, String filename, String contentType, long size) {
  public AttachmentInfo {
    Objects.requireNonNull(filename, "filename");
    Objects.requireNonNull(contentType, "contentType");
  }
}
