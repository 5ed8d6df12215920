package dev.burnbox.server.web;

import dev.burnbox.server.mime.BrowserUrls;
import dev.burnbox.server.mime.TelLinks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.owasp.html.AttributePolicy;
import org.owasp.html.HtmlPolicyBuilder;
import org.owasp.html.HtmlStreamEventProcessor;
import org.owasp.html.HtmlStreamEventReceiverWrapper;
import org.owasp.html.PolicyFactory;

/**
 * Makes the HTML of a received mail safe to show: the output of {@link #sanitize(String)} is
 * well-formed HTML that runs no script and loads nothing by itself except images named by {@code
 * <img src>} with an {@code http:} or {@code https:} URL (the mail view's Content-Security-Policy
 * blocks those until the reader asks for images) and the message's own inline images, whose {@code
 * cid:} URLs become this server's URLs for them (see {@link InlineImages}).
 *
 * <p>Kept: text formatting, blocks, lists, tables, {@code <font>}, inline {@code style} attributes
 * reduced property by property to a safe CSS subset (no {@code url()}, no {@code expression()}, no
 * positioning), links with absolute {@code http://}, {@code https://} or {@code mailto:} URLs or
 * {@code tel:} numbers (made to open in a new window with {@code rel="noopener noreferrer
 * nofollow"}), links to an anchor of the mail ({@code href="#name"}, opening in the view) and the
 * {@code id}s and {@code <a name>}s they point to, and images. Dropped: scripts, event handlers,
 * {@code <style>}, {@code <svg>}, frames, forms, {@code <meta>}, {@code <base>}, {@code <link>},
 * {@code <object>}, and every other URL scheme ({@code javascript:}, {@code data:}...).
 *
 * <p>A mail's {@code <style>} blocks are not kept but inlined first ({@link StyleInliner}): the
 * declarations of their simple rules (type, class, id and descendant selectors) move into the
 * matching elements' {@code style} attributes (those of {@code body} and {@code html}, and the
 * body's own colours and style, into a {@code <div>} wrapping the body's content), which this
 * filter then reduces like any other.
 *
 * <p>Built on the OWASP Java HTML Sanitizer rather than jsoup's {@code Safelist} because mail
 * layout lives in inline CSS, which OWASP filters declaration by declaration where a {@code
 * Safelist} can only keep or drop the whole {@code style} attribute. Stateless and thread-safe.
 */
public final class MailHtmlSanitizer {
  private static final String[] TABLE_PARTS = {
    "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "colgroup", "col"
  };

  // A mail has no base URL: a relative URL would point into this server, so only absolute ones
  // stay. For http(s) that takes "//host": a browser resolves "http:evil" or "https:/x" against the
  // page's own URL (found by MailHtmlSanitizerFuzzTest).
  private static final Pattern ABSOLUTE_URL = Pattern.compile("(?i)\\s*(https?://|mailto:).*");

  /**
   * An {@code id} or {@code <a name>} an in-mail link can point to, and that link's {@code href}:
   * the same name after {@code #}. The mail view runs no script, so an element id cannot clobber
   * anything there, and its document holds nothing but the mail.
   */
  private static final String ANCHOR = "[\\p{L}\\p{N}_\\-.:]{1,100}";

  private static final Pattern ANCHOR_NAME = Pattern.compile(ANCHOR);
  private static final Pattern FRAGMENT = Pattern.compile("#" + ANCHOR);

  /**
   * Link targets that stay: absolute http(s) and mailto URLs, {@code tel:} links to a phone number
   * ({@link TelLinks}, the rule the links API lists them by), in-mail anchors. The URL policy runs
   * first: the value has no white space at its ends, and its spaces and brackets are
   * percent-encoded.
   */
  private static final AttributePolicy LINK_TARGETS =
      (element, attribute, value) ->
          ABSOLUTE_URL.matcher(value).matches()
                  || TelLinks.number(value) != null
                  || FRAGMENT.matcher(value).matches()
              ? value
              : null;

  /** Image sources that stay: absolute http(s) URLs. */
  private static final AttributePolicy REMOTE_IMAGES =
      (element, attribute, value) -> ABSOLUTE_URL.matcher(value).matches() ? value : null;

  /**
   * Drops the tabs and line breaks inside every {@code href} and {@code src}, as a browser does
   * ({@link BrowserUrls}, the rule the links API reads URLs by), before the policy reads them: the
   * policy would percent-encode them ({@code %0a}) into a URL the browser no longer reads as the
   * mail's sender meant it.
   */
  private static final HtmlStreamEventProcessor URLS_AS_BROWSERS_READ_THEM =
      receiver ->
          new HtmlStreamEventReceiverWrapper(receiver) {
            @Override
            public void openTag(String elementName, List<String> attributes) {
              List<String> read = new ArrayList<>(attributes);
              for (int i = 0; i + 1 < read.size(); i += 2) {
                if (read.get(i).equals("href") || read.get(i).equals("src")) {
                  read.set(i + 1, BrowserUrls.withoutTabsAndNewlines(read.get(i + 1)));
                }
              }
              underlying.openTag(elementName, read);
            }
          };

  private static final PolicyFactory POLICY = policy(REMOTE_IMAGES);

  /** The policy, with {@code imageSources} deciding what each {@code <img src>} becomes. */
  private static PolicyFactory policy(AttributePolicy imageSources) {
    return new HtmlPolicyBuilder()
        .withPreprocessor(URLS_AS_BROWSERS_READ_THEM)
        .allowCommonInlineFormattingElements()
        .allowCommonBlockElements()
        .allowElements(TABLE_PARTS)
        .allowElements("center", "hr", "pre", "dl", "dt", "dd", "img", "a", "abbr", "cite")
        .allowStyling()
        .allowAttributes("title", "dir", "lang", "align")
        .globally()
        .allowAttributes(
            "valign", "bgcolor", "width", "height", "border", "cellpadding", "cellspacing")
        .onElements(TABLE_PARTS)
        .allowAttributes("colspan", "rowspan")
        .onElements("td", "th")
        .allowAttributes("color", "face", "size")
        .onElements("font")
        .allowAttributes("href")
        .matching(LINK_TARGETS)
        .onElements("a")
        .allowAttributes("id")
        .matching(ANCHOR_NAME)
        .globally()
        .allowAttributes("name")
        .matching(ANCHOR_NAME)
        .onElements("a")
        .allowAttributes("src")
        .matching(imageSources)
        .onElements("img")
        .allowAttributes("alt", "width", "height", "border")
        .onElements("img")
        // cid: reaches the image policy, which makes it this server's URL or drops it
        .allowUrlProtocols("http", "https", "mailto", "tel", "cid")
        // a link opens in a new window, except one to an anchor of the mail, which scrolls the view
        .allowElements(
            (name, attributes) -> {
              String href = href(attributes);
              if (href != null && !href.startsWith("#")) {
                attributes.add("target");
                attributes.add("_blank");
              }
              return name;
            },
            "a")
        .requireRelsOnLinks("noopener", "noreferrer", "nofollow")
        .toFactory();
  }

  /**
   * An {@code <img>} whose {@code src} is a remote URL, as {@link #sanitize} writes it: every
   * attribute value quoted with {@code "} and holding no {@code "} or {@code <} of its own.
   */
  private static final Pattern REMOTE_IMAGE =
      Pattern.compile("<img\\b[^<]*\\ssrc=\"(?i:https?)://");

  /**
   * Whether {@code safeHtml}, an output of {@link #sanitize}, shows remote images (which the mail
   * view's Content-Security-Policy blocks until the reader asks for them).
   */
  public static boolean hasRemoteImages(String safeHtml) {
    return REMOTE_IMAGE.matcher(safeHtml).find();
  }

  /** The {@code href} of {@code attributes} (name, value, name, value...), or null. */
  private static String href(List<String> attributes) {
    for (int i = 0; i + 1 < attributes.size(); i += 2) {
      if (attributes.get(i).equals("href")) {
        return attributes.get(i + 1);
      }
    }
    return null;
  }

  /** The safe form of {@code html}; "" for "" . Never throws on malformed input. */
  public String sanitize(String html) {
    return sanitize(html, Map.of());
  }

  /**
   * The safe form of {@code html}, where an {@code <img src="cid:...">} naming a Content-ID of
   * {@code inlineImages} becomes that image's URL on this server (built by {@link InlineImages}, so
   * a path of this server that the mail itself cannot name); other {@code cid:} sources are
   * dropped.
   */
  public String sanitize(String html, Map<String, String> inlineImages) {
    if (html.isEmpty()) {
      return "";
    }
    html = StyleInliner.inline(html);
    if (inlineImages.isEmpty()) {
      return POLICY.sanitize(html);
    }
    AttributePolicy remoteOrInline =
        (element, attribute, value) -> {
          String contentId = InlineImages.contentId(value);
          return contentId == null
              ? REMOTE_IMAGES.apply(element, attribute, value)
              : inlineImages.get(contentId);
        };
    return policy(remoteOrInline).sanitize(html);
  }
}
