package dev.burnbox.server.mime;

/**
 * The last resort for messages no MIME parser can follow: header fields split by hand at the first
 * blank line, and everything after it kept as text. Never throws.
 */
public final class RawMessage {
  private RawMessage() {}

  /** A malformed {@link DecodedMail} of {@code raw}, with {@code problem} as the reason. */
  public static DecodedMail decode(byte[] raw, MimeLimits limits, String problem) {
    DecodedMailBuilder mail = new DecodedMailBuilder(limits, -1, raw.length);
    mail.malformed(problem);
    int bodyStart = 0;
    try {
      bodyStart = readHeaders(raw, mail);
    } catch (RuntimeException e) {
      mail.problem("unreadable header block: " + e);
    }
    mail.rawText(raw, bodyStart, raw.length - bodyStart);
    return mail.build();
  }

  /** Adds the header fields before the first blank line; returns where the body starts. */
  private static int readHeaders(byte[] raw, DecodedMailBuilder mail) {
    String name = null;
    StringBuilder value = new StringBuilder();
    int position = startsWith(raw, "From ") ? lineAfter(raw, 0) : 0; // an mbox separator line
    while (position < raw.length) {
      int next = lineAfter(raw, position);
      int end = next > position && raw[next - 1] == '\n' ? next - 1 : next;
      int lineEnd = end > position && raw[end - 1] == '\r' ? end - 1 : end;
      if (lineEnd == position) {
        position = next;
        break;
      }
      String line = TextCharsets.decodeUtf8OrWindows1252(raw, position, lineEnd - position);
      int colon = line.indexOf(':');
      if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
        if (name == null) {
          return 0;
        }
        value.append(line);
      } else if (colon > 0 && line.substring(0, colon).strip().indexOf(' ') < 0) {
        if (name != null) {
          mail.header(name, HeaderText.unfold(value.toString()));
        }
        name = line.substring(0, colon).strip();
        value.setLength(0);
        value.append(line, colon + 1, line.length());
      } else {
        break; // not a header line: the body starts here
      }
      position = next;
    }
    if (name != null) {
      mail.header(name, HeaderText.unfold(value.toString()));
      return position;
    }
    return 0;
  }

  /** The offset just past the line feed of the line at {@code position}, or the length. */
  static int lineAfter(byte[] raw, int position) {
    int end = position;
    while (end < raw.length && raw[end] != '\n') {
      end++;
    }
    return Math.min(end + 1, raw.length);
  }

  /** Whether {@code raw} starts with the ASCII {@code prefix}. */
  static boolean startsWith(byte[] raw, String prefix) {
    if (raw.length < prefix.length()) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (raw[i] != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
