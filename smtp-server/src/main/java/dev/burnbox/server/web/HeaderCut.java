package dev.burnbox.server.web;

/**
 * Bounds on how much of a sender's header text a page or an API response shows, so that none grows
 * with what a sender puts in a header: a listing entry (inbox page, JSON listing, live event) shows
 * at most {@value #LISTING} characters of a subject, sender or other header value, a message (page
 * and JSON) at most {@value #MESSAGE} characters of each value and its first {@value
 * #MESSAGE_HEADERS} header fields. The raw source ({@code /api/v1/messages/{id}/raw}) always has
 * them whole.
 *
 * <p>Guarantees: {@link #cut} returns at most {@code max} characters of the text plus one ellipsis,
 * never splits a surrogate pair, and returns text that fits unchanged. Stateless and thread-safe.
 */
final class HeaderCut {
  /** Characters of a header value in a listing entry. */
  static final int LISTING = 200;

  /** Characters of a header value on a message (page or JSON); real headers fit whole. */
  static final int MESSAGE = 2000;

  /** Header fields shown for a message (page or JSON); real mail has far fewer. */
  static final int MESSAGE_HEADERS = 200;

  /** What marks a cut value. */
  static final String ELLIPSIS = "\u2026";

  private HeaderCut() {}

  /** {@code text} if it has at most {@code max} characters, else its first ones and "…". */
  static String cut(String text, int max) {
    if (text == null || text.length() <= max) {
      return text;
    }
    int end = max;
    if (Character.isHighSurrogate(text.charAt(end - 1))
        && Character.isLowSurrogate(text.charAt(end))) {
      end--;
    }
    return text.substring(0, end) + ELLIPSIS;
  }

  /** Whether {@link #cut} shortens {@code text} at {@code max}. */
  static boolean isCut(String text, int max) {
    return text != null && text.length() > max;
  }
}
