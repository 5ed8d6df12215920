package dev.burnbox.server.mime;

import java.util.Objects;

/**
 * One header field of a message as a reader sees it: folded lines joined, RFC 2047 encoded words
 * and raw 8-bit UTF-8 decoded. Never null.
 *
 * @param name the field name as written (e.g. {@code Subject})
 * @param value the decoded value, without leading or trailing white space
 */
public record MailHeader(String name, String value) {
  public MailHeader {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
  }
}
