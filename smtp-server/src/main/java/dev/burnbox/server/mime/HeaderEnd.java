package dev.burnbox.server.mime;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where a header section ends when no blank line ends it. RFC 5322 ends it with a blank line; a
 * message that has none there (a client that sent a body with no header of its own, behind the
 * trace field the server adds) is read as mail clients and Python's email package read it: the
 * header ends at the first line that is neither a header field nor the fold of one, and the body
 * starts with that line. mime4j instead skips such lines and reads on for fields, so that the text
 * is lost; {@link MailDecoder} gives it the message with a blank line put there. The same holds for
 * the header of a MIME body part (RFC 2046), which ends at a blank line too: a part whose text
 * follows its {@code Content-Type} directly starts its body at that text.
 *
 * <p>A header field is what mime4j takes for one: a name of printable ASCII before its colon (white
 * space around the name allowed, none within it), the lines after it that start with a space or tab
 * its folds. An mbox {@code From } line opening the message is no field, but not the body either. A
 * delimiter line is what mime4j takes for one: {@code --} and the boundary at the start of a line,
 * then the line's end, white space or {@code --}.
 */
final class HeaderEnd {
  private HeaderEnd() {}

  /**
   * {@code raw} with a line break inserted before each of {@code lines} (offsets of line starts, in
   * increasing order), each the kind of line break that ends the line before it.
   */
  static byte[] withLineBreaksBefore(byte[] raw, int[] lines) {
    byte[] separated = new byte[raw.length + 2 * lines.length];
    int copied = 0;
    int length = 0;
    for (int line : lines) {
      System.arraycopy(raw, copied, separated, length, line - copied);
      length += line - copied;
      copied = line;
      if (line >= 2 && raw[line - 2] == '\r') {
        separated[length++] = '\r';
      }
      separated[length++] = '\n';
    }
    System.arraycopy(raw, copied, separated, length, raw.length - copied);
    return Arrays.copyOf(separated, length + raw.length - copied);
  }

  /** The offset of the first line of the header section that is not a field or a fold, or -1. */
  static int firstLineNotAField(byte[] raw) {
    // an mbox separator line
    int line = RawMessage.startsWith(raw, "From ") ? RawMessage.lineAfter(raw, 0) : 0;
    return firstLineNotAField(raw, line, raw.length);
  }

  /**
   * The offsets, in increasing order, of the first line that is not a field or a fold in the header
   * of each body part that follows a delimiter line of one of {@code boundaries} (each part up to
   * the next delimiter line of its boundary); empty if every such header ends at a blank line or at
   * its part's end, or if finding them would read more than a few times the message's bytes.
   *
   * <p>Linear in the message, whatever the sender declared: a line is looked up as a delimiter only
   * if it starts with {@code --}, by hashing what it could end with at the lengths of declared
   * boundaries, and every byte read (each looked at, each hashed, the part headers walked) is
   * counted against a budget of {@value #WORK_PER_BYTE} times the message's length, checked as it
   * is spent.
   */
  static int[] firstLinesNotAFieldInParts(byte[] raw, Collection<String> boundaries) {
    Delimiters delimiters = new Delimiters(raw, boundaries);
    TreeSet<Integer> bodies = new TreeSet<>();
    for (int line = 0; line < raw.length; line = RawMessage.lineAfter(raw, line)) {
      Delimiter delimiter = delimiters.at(line);
      if (delimiter != null && !delimiter.close()) {
        int body = delimiters.firstLineNotAFieldInPart(RawMessage.lineAfter(raw, line), delimiter);
        if (body >= 0) {
          bodies.add(body);
        }
      }
      if (delimiters.budget < 0) {
        return new int[0]; // a sender's maze, not a mail client's slip: leave it as mime4j reads it
      }
    }
    return bodies.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Bytes read by {@link #firstLinesNotAFieldInParts} per byte of the message, at most. */
  static final int WORK_PER_BYTE = 4;

  /**
   * A delimiter line: {@code --}, then {@code boundary}, then a line end, white space or {@code --}
   * (then {@code close}).
   */
  private record Delimiter(String boundary, boolean close) {}

  /** The delimiter lines of a set of boundaries in one message, and the work left to find them. */
  private static final class Delimiters {
    private final byte[] raw;
    private final Set<String> boundaries;
    private final BitSet lengths = new BitSet(); // the boundaries' lengths
    private final int longest;
    long budget;

    Delimiters(byte[] raw, Collection<String> boundaries) {
      this.raw = raw;
      this.boundaries = new HashSet<>(boundaries);
      boundaries.forEach(boundary -> lengths.set(boundary.length()));
      this.longest = lengths.length() - 1;
      this.budget = (long) WORK_PER_BYTE * raw.length + 4096;
    }

    /**
     * The delimiter the line at {@code line} is, or null; as mime4j matches them, the boundary
     * followed by a line end or white space opens a part, followed by {@code --} closes them.
     */
    Delimiter at(int line) {
      if (longest < 0 || line + 2 > raw.length || raw[line] != '-' || raw[line + 1] != '-') {
        return null;
      }
      int from = line + 2;
      int last = (int) Math.min(raw.length, (long) from + longest);
      for (int after = from; after <= last; after++) {
        if (--budget < 0) {
          return null; // every byte looked at counts: a long line of a long boundary too
        }
        boolean part = after == raw.length || " \t\r\n".indexOf(raw[after]) >= 0;
        boolean close =
            !part && after + 1 < raw.length && raw[after] == '-' && raw[after + 1] == '-';
        if ((part || close) && lengths.get(after - from)) {
          budget -= after - from;
          String boundary = new String(raw, from, after - from, StandardCharsets.ISO_8859_1);
          if (boundaries.contains(boundary)) {
            return new Delimiter(boundary, close);
          }
        }
        if (after < raw.length && (raw[after] == '\r' || raw[after] == '\n')) {
          break;
        }
      }
      return null;
    }

    /**
     * The offset of the first line that is not a field or a fold in the header of the part that
     * starts at {@code start} after {@code opening}, or -1 if that header ends at a blank line, at
     * a delimiter of the same boundary or at the end of the message first.
     */
    int firstLineNotAFieldInPart(int start, Delimiter opening) {
      int line = start;
      while (line < raw.length && !isBlank(raw, line) && budget >= 0) {
        Delimiter delimiter = at(line);
        if (delimiter != null && delimiter.boundary().equals(opening.boundary())) {
          return -1; // the part ends with its header
        }
        int fieldEnd = fieldEnd(raw, line, raw.length);
        budget -= fieldEnd - line;
        if (!hasFieldName(raw, line, fieldEnd)) {
          return line;
        }
        line = fieldEnd;
      }
      return -1;
    }
  }

  /**
   * The offset of the first line that is not a field or a fold in the header that starts at {@code
   * start} and can run to {@code end}, or -1 if it ends at a blank line or at {@code end} first.
   */
  private static int firstLineNotAField(byte[] raw, int start, int end) {
    int line = start;
    while (line < end && !isBlank(raw, line)) {
      int fieldEnd = fieldEnd(raw, line, end);
      if (!hasFieldName(raw, line, fieldEnd)) {
        return line;
      }
      line = fieldEnd;
    }
    return -1;
  }

  /**
   * Where the field whose first line starts at {@code line} ends: after its folds, by {@code end}.
   */
  private static int fieldEnd(byte[] raw, int line, int end) {
    int fieldEnd = RawMessage.lineAfter(raw, line);
    while (fieldEnd < end && (raw[fieldEnd] == ' ' || raw[fieldEnd] == '\t')) {
      fieldEnd = RawMessage.lineAfter(raw, fieldEnd); // a fold of the field
    }
    return fieldEnd;
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
