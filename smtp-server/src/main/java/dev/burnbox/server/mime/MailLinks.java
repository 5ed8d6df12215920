package dev.burnbox.server.mime;

import java.net.IDN;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * The links of a decoded message, for tests that follow a sign-up link: every {@code <a href>} of
 * its HTML parts (resolved against {@code <base href>}, with the anchor's text), then every {@code
 * http(s)://} or {@code www.} URL written in its text parts, then those written in the visible text
 * of its HTML parts (a URL to paste into the browser), in document order, each URL once (its first
 * occurrence wins). Only {@code http}, {@code https}, {@code mailto} and {@code tel} links are kept
 * ({@code javascript:} and the like are not links to follow); a {@code tel:} link only with a phone
 * number ({@link TelLinks}, the rule by which the mail view keeps it), written as {@link URI}
 * writes it ({@code tel:+1%20(555)%20010-0199}). Transfer encodings and HTML entities are already
 * undone by the decoder and the HTML parser; tracking redirects are reported as written, never
 * followed.
 *
 * <p>Each URL is listed as a browser requests it, whichever part it comes from (see {@link
 * #browserForm}): tabs and line breaks inside it dropped, spaces, quotes and non-ASCII characters
 * percent-encoded as UTF-8 ({@code ?t=a%20b}, {@code ?t=%C3%A4}), a Unicode host name in its
 * punycode form ({@code https://xn--bcher-kva.example/}), a host with {@code _} ({@code
 * my_host.example.com}) kept although {@link URI} reads no host in it. A URL in angle brackets in a
 * text part may be wrapped across lines (RFC 3986, Appendix C): its lines are joined. Stateless and
 * thread-safe; O(size of the message).
 */
public final class MailLinks {
  /** The most links reported for one message. */
  public static final int MAX_LINKS = 500;

  /** A URL in plain text: up to white space, quotes or angle brackets. */
  private static final Pattern TEXT_URL =
      Pattern.compile("(?i)\\b(?:https?://|www\\.)[^\\s<>\"'\\u0000-\\u001f]+");

  /** Punctuation that ends a sentence rather than a URL. */
  private static final String TRAILING = ".,;:!?)]}'\"";

  /**
   * The ASCII characters that stay as they are outside a URL's host: those {@link URI} accepts in a
   * path, query or fragment (and {@code %} and {@code #}, checked apart). Every other character is
   * percent-encoded.
   */
  private static final String URL_ASCII =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'();/?:@&=+$,";

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  /**
   * One link.
   *
   * @param url the absolute URL
   * @param text the anchor's visible text (HTML), or the URL itself (text parts)
   * @param part {@code html} or {@code text}
   */
  public record Link(String url, String text, String part) {}

  private MailLinks() {}

  /** The links of {@code mail}; see the class comment. */
  public static List<Link> of(DecodedMail mail) {
    Map<String, Link> links = new LinkedHashMap<>();
    if (!mail.html().isEmpty()) {
      Document document = Jsoup.parse(mail.html());
      Element base = document.selectFirst("base[href]");
      String baseUri = base == null ? "" : base.attr("href");
      for (Element anchor : document.select("a[href]")) {
        String url = absolute(baseUri, anchor.attr("href"));
        if (url != null) {
          links.putIfAbsent(url, new Link(url, anchor.text().strip(), "html"));
        }
      }
    }
    addTextUrls(mail.text(), "text", links);
    if (!mail.html().isEmpty()) {
      addTextUrls(mail.htmlText(), "html", links);
    }
    List<Link> out = new ArrayList<>(links.values());
    return out.size() > MAX_LINKS ? out.subList(0, MAX_LINKS) : out;
  }

  /**
   * Adds to {@code links} (up to {@link #MAX_LINKS}) the {@code http(s)://} and {@code www.} URLs
   * written in {@code text}, in their {@link #browserForm}, as found in {@code part}. One pass over
   * {@code text}: the search for the end of a bracketed URL stops at the next {@code <}, where the
   * next one's search could start.
   */
  private static void addTextUrls(String text, String part, Map<String, Link> links) {
    Matcher found = TEXT_URL.matcher(text);
    int from = 0;
    while (links.size() < MAX_LINKS && found.find(from)) {
      from = found.end();
      String written;
      int closing = inAngleBrackets(text, found.start()) ? closingBracket(text, found.end()) : -1;
      if (closing >= 0) {
        written = withoutWhitespace(text, found.start(), closing);
        from = closing + 1;
      } else {
        written = withoutTrailingPunctuation(found.group());
      }
      if (written.toLowerCase(Locale.ROOT).startsWith("www.")) {
        written = "http://" + written;
      }
      String url = absolute("", written);
      if (url != null) {
        links.putIfAbsent(url, new Link(url, url, part));
      }
    }
  }

  /** Whether the URL at {@code start} of {@code text} follows {@code <} or {@code <URL:}. */
  private static boolean inAngleBrackets(String text, int start) {
    return (start >= 1 && text.charAt(start - 1) == '<')
        || (start >= 5 && text.regionMatches(true, start - 5, "<URL:", 0, 5));
  }

  /**
   * The index of the {@code >} that closes a bracketed URL whose first line ends at {@code from},
   * or -1 if the URL does not go on to a {@code >} over whole lines: white space inside it must
   * hold exactly one line break (a wrapped line, not a space between words nor a blank line), and a
   * {@code <} ends the search. Reads at most up to that {@code <}.
   */
  private static int closingBracket(String text, int from) {
    int i = from;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '>') {
        return i;
      }
      if (c == '<') {
        return -1;
      }
      if (Character.isWhitespace(c)) {
        int lineBreaks = 0;
        for (; i < text.length() && Character.isWhitespace(text.charAt(i)); i++) {
          lineBreaks += text.charAt(i) == '\n' ? 1 : 0;
        }
        if (lineBreaks != 1) {
          return -1;
        }
      } else {
        i++;
      }
    }
    return -1;
  }

  /** {@code text[start, end)} without its white space. */
  private static String withoutWhitespace(String text, int start, int end) {
    StringBuilder joined = new StringBuilder(end - start);
    for (int i = start; i < end; i++) {
      if (!Character.isWhitespace(text.charAt(i))) {
        joined.append(text.charAt(i));
      }
    }
    return joined.toString();
  }

  /**
   * {@code href} in its {@link #browserForm} resolved against {@code base}, if it is an http(s) or
   * mailto link, or the {@link #phoneLink} of a {@code tel:} link; else null.
   */
  private static String absolute(String base, String href) {
    href = cleaned(href);
    if (href.regionMatches(true, 0, "tel:", 0, 4)) {
      return phoneLink(href);
    }
    href = browserForm(href);
    String baseForm = base.isEmpty() ? "" : browserForm(cleaned(base));
    if (href == null || baseForm == null) {
      return null;
    }
    try {
      URI uri = baseForm.isEmpty() ? new URI(href) : new URI(baseForm).resolve(href);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return switch (scheme) {
        case "http", "https" -> hasHost(uri) ? uri.toString() : null;
        case "mailto" -> uri.toString();
        default -> null;
      };
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Whether {@code uri} names a host a browser goes to: one {@link URI} reads as a host, or a host
   * name with {@code _} ({@code my_host.example.com}, {@code _dmarc.example.com}) or with a label
   * that starts or ends with {@code -}, which URI reads as a registry name only but the WHATWG URL
   * standard, and so a browser, takes: letters, digits, {@code -} and {@code _} in labels not empty
   * (but for a dot at the end), the last not a number, any port at most 65535.
   */
  private static boolean hasHost(URI uri) {
    if (uri.getHost() != null) {
      return true;
    }
    String authority = uri.getRawAuthority();
    if (authority == null) {
      return false;
    }
    String host = authority.substring(authority.lastIndexOf('@') + 1);
    int colon = host.lastIndexOf(':');
    if (colon >= 0) {
      String port = host.substring(colon + 1);
      if (port.length() > 5
          || !port.chars().allMatch(c -> c >= '0' && c <= '9')
          || (!port.isEmpty() && Integer.parseInt(port) > 65535)) {
        return false;
      }
      host = host.substring(0, colon);
    }
    return isHostName(host.endsWith(".") ? host.substring(0, host.length() - 1) : host);
  }

  /**
   * Whether {@code name} is labels of ASCII letters, digits, {@code -} and {@code _} between dots,
   * none empty, the last not a number as a browser would read it as part of an IPv4 address ({@code
   * 123}, {@code 0x1f}).
   */
  private static boolean isHostName(String name) {
    String[] labels = name.split("\\.", -1);
    for (String label : labels) {
      if (label.isEmpty() || !label.chars().allMatch(MailLinks::isHostNameChar)) {
        return false;
      }
    }
    String last = labels[labels.length - 1].toLowerCase(Locale.ROOT);
    boolean decimal = last.chars().allMatch(c -> c >= '0' && c <= '9');
    boolean hex =
        last.startsWith("0x")
            && last.substring(2).chars().allMatch(c -> Character.digit(c, 16) >= 0);
    return !decimal && !hex;
  }

  private static boolean isHostNameChar(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_';
  }

  /**
   * The {@code tel:} link {@code href} as {@link URI} writes it (spaces as {@code %20}), if its
   * number is a phone number ({@link TelLinks#number}); else null.
   */
  private static String phoneLink(String href) {
    String number = TelLinks.number(href);
    if (number == null) {
      return null;
    }
    try {
      return new URI("tel", number, null).toString();
    } catch (URISyntaxException e) {
      return null;
    }
  }

  /**
   * {@code url} as a browser cleans it before it parses it (WHATWG URL standard): without ASCII
   * tabs and newlines anywhere ({@link BrowserUrls}, as the mail view drops them), nor C0 controls
   * and spaces at either end.
   */
  private static String cleaned(String url) {
    String kept = BrowserUrls.withoutTabsAndNewlines(url);
    int start = 0;
    int end = kept.length();
    while (start < end && kept.charAt(start) <= ' ') {
      start++;
    }
    while (end > start && kept.charAt(end - 1) <= ' ') {
      end--;
    }
    return kept.substring(start, end);
  }

  /**
   * {@code url} (already {@link #cleaned}) as a browser requests it, in a form {@link URI} accepts:
   * a Unicode host name in punycode ({@link IDN#toASCII}), and outside the host every character but
   * {@link #URL_ASCII}, a {@code %} starting an escape and the first {@code #} percent-encoded as
   * UTF-8. Browsers leave a few of these as they are ({@code | ^ [ ]}, a lone {@code %}, a second
   * {@code #}); servers read both forms alike. Null if the host is no valid international domain
   * name. O(length of url).
   */
  static String browserForm(String url) {
    StringBuilder form = new StringBuilder(url.length() + 16);
    int rest = 0;
    int authority = authorityStart(url);
    if (authority >= 0) {
      int end = authority;
      while (end < url.length() && "/?#\\".indexOf(url.charAt(end)) < 0) {
        end++;
      }
      String host = asciiHost(url.substring(authority, end));
      if (host == null) {
        return null;
      }
      form.append(url, 0, authority).append(host);
      rest = end;
    }
    boolean fragment = false;
    for (int i = rest; i < url.length(); ) {
      int c = url.codePointAt(i);
      i += Character.charCount(c);
      if (c == '#' && !fragment) {
        fragment = true;
        form.append('#');
      } else if (c == '%' && isEscape(url, i)) {
        form.append('%');
      } else if (c < 128 && URL_ASCII.indexOf(c) >= 0) {
        form.append((char) c);
      } else {
        String character =
            c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE
                ? "\uFFFD"
                : Character.toString(c);
        for (byte b : character.getBytes(StandardCharsets.UTF_8)) {
          form.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
        }
      }
    }
    return form.toString();
  }

  /** Where the authority of {@code url} starts (after {@code scheme://} or a leading //), or -1. */
  private static int authorityStart(String url) {
    if (url.startsWith("//")) {
      return 2;
    }
    int i = 0;
    while (i < url.length()
        && (Character.isLetterOrDigit(url.charAt(i)) || "+-.".indexOf(url.charAt(i)) >= 0)
        && url.charAt(i) < 128) {
      i++;
    }
    return i > 0 && url.startsWith("://", i) ? i + 3 : -1;
  }

  /**
   * {@code authority} with its host name in punycode if it has non-ASCII characters; as it is
   * otherwise; null if that host is no valid international domain name.
   */
  private static String asciiHost(String authority) {
    if (authority.chars().allMatch(c -> c < 128)) {
      return authority;
    }
    int hostStart = authority.lastIndexOf('@') + 1;
    int hostEnd = authority.lastIndexOf(':');
    if (hostEnd < hostStart) {
      hostEnd = authority.length();
    }
    try {
      return authority.substring(0, hostStart)
          + IDN.toASCII(authority.substring(hostStart, hostEnd))
          + authority.substring(hostEnd);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Whether the two characters at {@code i} of {@code url} are hex digits. */
  private static boolean isEscape(String url, int i) {
    return i + 1 < url.length()
        && Character.digit(url.charAt(i), 16) >= 0
        && Character.digit(url.charAt(i + 1), 16) >= 0
        && url.charAt(i) < 128
        && url.charAt(i + 1) < 128;
  }

  /**
   * {@code url} without the sentence's punctuation after it: one pass over it, however much
   * punctuation it ends in.
   */
  private static String withoutTrailingPunctuation(String url) {
    int opened = 0; // '(' is not trailing punctuation: the same count for every end below
    int closed = 0; // ')' in url[0, end)
    for (int i = 0; i < url.length(); i++) {
      opened += url.charAt(i) == '(' ? 1 : 0;
      closed += url.charAt(i) == ')' ? 1 : 0;
    }
    int end = url.length();
    while (end > 0 && TRAILING.indexOf(url.charAt(end - 1)) >= 0) {
      if (url.charAt(end - 1) == ')') {
        // a closing bracket that closes one opened inside the URL belongs to it (Wikipedia links)
        if (opened >= closed) {
          break;
        }
        closed--;
      }
      end--;
    }
    return url.substring(0, end);
  }
}
