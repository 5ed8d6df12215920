package dev.burnbox.server.mime;

/**
 * Where a message's header section ends when no blank line ends it. RFC 5322 ends it with a blank
 * line; a message that has none there (a client that sent a body with no header of its own, behind
 * the trace field the server adds) is read as mail clients and Python's email package read it: the
 * header ends at the first line that is neither a header field nor the fold of one, and the body
 * starts with that line. mime4j instead skips such lines and reads on for fields, so that the text
 * is lost; {@link MailDecoder} gives it the message with a blank line put there.
 *
 * <p>A header field is what mime4j takes for one: a name of printable ASCII before its colon (white
 * space around the name allowed, none within it), the lines after it that start with a space or tab
 * its folds. An mbox {@code From } line opening the message is no field, but not the body either.
 */
final class HeaderEnd {
  private HeaderEnd() {}

  /**
   * {@code raw} with a line break inserted before the first line of its header section that is not
   * a header field or a fold (the kind of line break that ends the line before it), or null if
   * there is no such line: the header ends at a blank line or at the end of the message.
   */
  static byte[] withBlankLineBeforeBody(byte[] raw) {
    int body = firstLineNotAField(raw);
    if (body < 0) {
      return null;
    }
    boolean crlf = body >= 2 && raw[body - 2] == '\r';
    int inserted = crlf ? 2 : 1;
    byte[] separated = new byte[raw.length + inserted];
    System.arraycopy(raw, 0, separated, 0, body);
    if (crlf) {
      separated[body] = '\r';
    }
    separated[body + inserted - 1] = '\n';
    System.arraycopy(raw, body, separated, body + inserted, raw.length - body);
    return separated;
  }

  /** The offset of the first line of the header section that is not a field or a fold, or -1. */
  static int firstLineNotAField(byte[] raw) {
    // an mbox separator line
    int line = RawMessage.startsWith(raw, "From ") ? RawMessage.lineAfter(raw, 0) : 0;
    while (line < raw.length && !isBlank(raw, line)) {
      int fieldEnd = RawMessage.lineAfter(raw, line);
      while (fieldEnd < raw.length && (raw[fieldEnd] == ' ' || raw[fieldEnd] == '\t')) {
        fieldEnd = RawMessage.lineAfter(raw, fieldEnd); // a fold of the field
      }
      if (!hasFieldName(raw, line, fieldEnd)) {
        return line;
      }
      line = fieldEnd;
    }
    return -1;
  }

  /** True if the field in {@code raw[start, end)} has a colon after a name mime4j accepts. */
  private static boolean hasFieldName(byte[] raw, int start, int end) {
    int colon = start;
    while (colon < end && raw[colon] != ':') {
      colon++;
    }
    if (colon == end) {
      return false;
    }
    int nameStart = start;
    while (nameStart < colon && isWhiteSpace(raw[nameStart])) {
      nameStart++;
    }
    int nameEnd = colon;
    while (nameEnd > nameStart && isWhiteSpace(raw[nameEnd - 1])) {
      nameEnd--;
    }
    for (int i = nameStart; i < nameEnd; i++) {
      if (raw[i] < 0x21 || raw[i] > 0x7E) { // white space within, a control or a non-ASCII byte
        return false;
      }
    }
    return true;
  }

  private static boolean isWhiteSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\r' || b == '\n';
  }

  /** True if the line at {@code start} is empty: the blank line that ends a header. */
  private static boolean isBlank(byte[] raw, int start) {
    return raw[start] == '\n'
        || (raw[start] == '\r' && start + 1 < raw.length && raw[start + 1] == '\n');
  }
}
