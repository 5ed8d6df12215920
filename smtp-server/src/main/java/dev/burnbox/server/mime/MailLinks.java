package dev.burnbox.server.mime;

import java.net.URI;
import java.net.URISyntaxException;
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
 * its HTML parts (resolved against {@code <base href>}, with the anchor's text) and every {@code
 * http(s)://} or {@code www.} URL written in its text parts, in document order, HTML first, each
 * URL once (its first occurrence wins). Only {@code http}, {@code https}, {@code mailto} and {@code
 * tel} links are kept ({@code javascript:} and the like are not links to follow); a {@code tel:}
 * link only with a number the mail view keeps too (digits, {@code + - . ( )} and spaces), written
 * as {@link URI} writes it ({@code tel:+1%20(555)%20010-0199}). Transfer encodings and HTML
 * entities are already undone by the decoder and the HTML parser; tracking redirects are reported
 * as written, never followed. Stateless and thread-safe; O(size of the message).
 */
public final class MailLinks {
  /** The most links reported for one message. */
  public static final int MAX_LINKS = 500;

  /** A URL in plain text: up to white space, quotes or angle brackets. */
  private static final Pattern TEXT_URL =
      Pattern.compile("(?i)\\b(?:https?://|www\\.)[^\\s<>\"'\\u0000-\\u001f]+");

  /**
   * A phone number as the mail view keeps it in a {@code tel:} link (see {@code
   * MailHtmlSanitizer}): digits, {@code + - . ( )} and spaces.
   */
  private static final Pattern PHONE_NUMBER = Pattern.compile("[0-9+\\-.() ]+");

  /** Punctuation that ends a sentence rather than a URL. */
  private static final String TRAILING = ".,;:!?)]}'\"";

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
        String url = absolute(baseUri, anchor.attr("href").strip());
        if (url != null) {
          links.putIfAbsent(url, new Link(url, anchor.text().strip(), "html"));
        }
      }
    }
    Matcher found = TEXT_URL.matcher(mail.text());
    while (found.find() && links.size() < MAX_LINKS) {
      String url = withoutTrailingPunctuation(found.group());
      if (url.toLowerCase(Locale.ROOT).startsWith("www.")) {
        url = "http://" + url;
      }
      links.putIfAbsent(url, new Link(url, url, "text"));
    }
    List<Link> out = new ArrayList<>(links.values());
    return out.size() > MAX_LINKS ? out.subList(0, MAX_LINKS) : out;
  }

  /**
   * {@code href} resolved against {@code base}, if it is an http(s) or mailto link, or the {@link
   * #phoneLink} of a {@code tel:} link; else null.
   */
  private static String absolute(String base, String href) {
    if (href.regionMatches(true, 0, "tel:", 0, 4)) {
      return phoneLink(href.substring(4));
    }
    try {
      URI uri = base.isEmpty() ? new URI(href) : new URI(base).resolve(href);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return switch (scheme) {
        case "http", "https" -> uri.getHost() == null ? null : uri.toString();
        case "mailto" -> uri.toString();
        default -> null;
      };
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * {@code tel:} and {@code number} as {@link URI} writes them (spaces as {@code %20}), if the
   * number is a {@link #PHONE_NUMBER} once its {@code %20}, {@code %28} and {@code %29} are spaces
   * and brackets again; else null.
   */
  private static String phoneLink(String number) {
    String plain = number.replace("%20", " ").replace("%28", "(").replace("%29", ")");
    if (!PHONE_NUMBER.matcher(plain).matches()) {
      return null;
    }
    try {
      return new URI("tel", plain, null).toString();
    } catch (URISyntaxException e) {
      return null;
    }
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
