package dev.burnbox.server.smtp;

/**
 * Makes client-supplied text safe to put inside one log line: every character that could end the
 * line, forge another one, drive a terminal or hide what a reader sees (C0 and C1 controls such as
 * CR, LF, NUL and ESC, DEL, the Unicode line and paragraph separators, format characters such as
 * bidirectional overrides, lone surrogates, unassigned and private-use code points) becomes a
 * visible escape: a backslash, {@code u} and four hex digits. The result is cut to a bounded
 * length. Every log call that prints text a client chose (addresses, command lines, HELO names,
 * header values) goes through {@link #printable}. Stateless and thread-safe.
 */
public final class LogText {
  /** The most characters of client text one log line quotes; longer text ends in "...". */
  public static final int MAX_LENGTH = 120;

  private LogText() {}

  /**
   * {@code text} with unsafe characters escaped, at most {@link #MAX_LENGTH} characters of it (the
   * escapes count toward the limit; an escape is never cut), followed by "..." if it was cut;
   * "null" for null.
   */
  public static String printable(String text) {
    if (text == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_LENGTH) + 3);
    int i = 0;
    while (i < text.length()) {
      int c = text.codePointAt(i);
      String piece = showsAsItself(c) ? Character.toString(c) : escape(c);
      if (out.length() + piece.length() > MAX_LENGTH) {
        return out.append("...").toString();
      }
      out.append(piece);
      i += Character.charCount(c);
    }
    return out.toString();
  }

  /**
   * Whether code point {@code c} shows as itself: not a control, format, separator of lines or
   * paragraphs, surrogate, unassigned or private-use code point. What a log line escapes, and what
   * a download name drops.
   */
  public static boolean showsAsItself(int c) {
    return switch (Character.getType(c)) {
      case Character.CONTROL,
          Character.FORMAT,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR,
          Character.SURROGATE,
          Character.UNASSIGNED,
          Character.PRIVATE_USE ->
          false;
      default -> true;
    };
  }

  private static String escape(int c) {
    return c <= 0xFFFF ? String.format("\\u%04x", c) : String.format("\\U%08x", c);
  }
}
