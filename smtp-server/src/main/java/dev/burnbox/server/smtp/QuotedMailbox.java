package dev.burnbox.server.smtp;

import java.util.Optional;

/**
 * A mailbox whose local part is written as a quoted string ({@code "bob"@qa.test}, {@code "john
 * doe"@qa.test}; RFC 5321 4.1.2, with RFC 6531's UTF-8): what it says once the quotes and the
 * backslashes of quoted pairs are taken off, and its domain.
 *
 * <p>A quoted string that needs no quoting, one whose content is a dot-atom, names the same mailbox
 * as that content written plainly (RFC 5321 4.1.2, RFC 5322 3.4.1): {@code "bob"@qa.test} is {@code
 * bob@qa.test}. One that needs its quotes holds white space, a quote, a backslash, an {@code @} or
 * another character that no atom has, or dots at an end or two in a row; no inbox name holds any of
 * them.
 *
 * @param content the local part between the quotes, quoted pairs undone
 * @param domain what follows the {@code @} after the closing quote, as written
 */
record QuotedMailbox(String content, String domain) {
  /** The ASCII characters of an atom besides letters and digits (RFC 5322 3.2.3). */
  private static final String ATOM_SYMBOLS = "!#$%&'*+-/=?^_`{|}~";

  /**
   * The quoted local part of {@code mailbox} and its domain; empty if the mailbox does not start
   * with a quote, or is not a well-formed quoted string ({@code qtextSMTP} or quoted pairs of
   * printable ASCII, or non-ASCII characters but controls) followed by {@code @} and a domain.
   */
  static Optional<QuotedMailbox> parse(String mailbox) {
    if (!mailbox.startsWith("\"")) {
      return Optional.empty();
    }
    StringBuilder content = new StringBuilder();
    for (int i = 1; i < mailbox.length(); i++) {
      char c = mailbox.charAt(i);
      if (c == '"') {
        boolean atDomain = i + 2 < mailbox.length() && mailbox.charAt(i + 1) == '@';
        return atDomain
            ? Optional.of(new QuotedMailbox(content.toString(), mailbox.substring(i + 2)))
            : Optional.empty();
      }
      if (c == '\\') {
        i++;
        if (i == mailbox.length() || mailbox.charAt(i) < 0x20 || mailbox.charAt(i) > 0x7e) {
          return Optional.empty();
        }
        content.append(mailbox.charAt(i));
      } else if (Character.isISOControl(c)) { // C0, DEL, C1
        return Optional.empty();
      } else {
        content.append(c);
      }
    }
    return Optional.empty(); // no closing quote
  }

  /** Whether the content is not a dot-atom, so that only the quotes make it a local part. */
  boolean needsQuotes() {
    if (content.isEmpty() || content.startsWith(".") || content.endsWith(".")) {
      return true;
    }
    for (int i = 0; i < content.length(); i++) {
      char c = content.charAt(i);
      boolean atom =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || ATOM_SYMBOLS.indexOf(c) >= 0
              || (c >= 0x80 && !Character.isWhitespace(c) && !Character.isSpaceChar(c));
      boolean dot = c == '.' && content.charAt(i - 1) != '.';
      if (!atom && !dot) {
        return true;
      }
    }
    return false;
  }

  /** The mailbox with its local part written plainly, for content that {@link #needsQuotes} not. */
  String unquoted() {
    return content + "@" + domain;
  }
}
