package dev.burnbox.server.mime;

import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeVisitor;

/**
 * The visible text of an HTML document, with block elements on lines of their own, and what its
 * markup says that a reader does not see.
 */
final class HtmlText {
  /** Attributes whose value is a URL: the markup view keeps its host. */
  private static final Set<String> URL_ATTRIBUTES = Set.of("href", "src", "action", "background");

  /** Attributes whose value is presentation: the markup view keeps it. */
  private static final Set<String> STYLE_ATTRIBUTES =
      Set.of("style", "color", "bgcolor", "face", "size", "align", "border", "width", "height");

  private static final Set<String> HIDDEN = Set.of("script", "style", "template", "head");
  private static final Set<String> BLOCKS =
      Set.of(
          "address",
          "article",
          "aside",
          "blockquote",
          "br",
          "dd",
          "div",
          "dl",
          "dt",
          "fieldset",
          "figcaption",
          "figure",
          "footer",
          "form",
          "h1",
          "h2",
          "h3",
          "h4",
          "h5",
          "h6",
          "header",
          "hr",
          "li",
          "main",
          "nav",
          "ol",
          "p",
          "pre",
          "section",
          "table",
          "td",
          "th",
          "tr",
          "ul",
          "title",
          "option",
          "body",
          "html");

  private HtmlText() {}

  /** Appends the visible text of {@code html} to {@code out}, one block element per line. */
  static void appendVisibleText(String html, StringBuilder out) {
    appendBodyText(Jsoup.parse(html), out);
  }

  private static void appendBodyText(Document document, StringBuilder out) {
    Node body = document.body();
    if (body == null) {
      return;
    }
    int start = out.length();
    body.traverse(new BlockTextVisitor(out));
    trimTrailingNewlines(out, start);
  }

  /**
   * Appends the visible text of {@code html} to {@code text} (as {@link #appendVisibleText}) and
   * its markup to {@code markup}: each element's tag name, its attribute names, the values of
   * presentation attributes ({@code style}, {@code color}, {@code face}...) and the host of each
   * URL attribute ({@code href}, {@code src}...), separated by spaces. One parse for both.
   */
  static void appendTextAndMarkup(String html, StringBuilder text, StringBuilder markup) {
    Document root = Jsoup.parse(html);
    for (Element element : root.getAllElements()) {
      if (element == root) {
        continue;
      }
      markup.append(element.normalName()).append(' ');
      for (org.jsoup.nodes.Attribute attribute : element.attributes()) {
        String key = attribute.getKey().toLowerCase(java.util.Locale.ROOT);
        markup.append(key).append(' ');
        if (URL_ATTRIBUTES.contains(key)) {
          markup.append(host(attribute.getValue())).append(' ');
        } else if (STYLE_ATTRIBUTES.contains(key)) {
          markup.append(attribute.getValue()).append(' ');
        }
      }
    }
    appendBodyText(root, text);
  }

  /** The host of {@code url}, or its scheme for {@code mailto:}/{@code data:}, "" if neither. */
  private static String host(String url) {
    String u = url.strip();
    int scheme = u.indexOf(':');
    int slashes = u.indexOf("//");
    if (slashes < 0 || (scheme >= 0 && scheme < slashes - 1)) {
      return scheme > 0 && scheme < 12 ? u.substring(0, scheme) : "";
    }
    int start = slashes + 2;
    int end = start;
    while (end < u.length() && "/?#:".indexOf(u.charAt(end)) < 0) {
      end++;
    }
    int at = u.lastIndexOf('@', end - 1);
    return u.substring(Math.max(start, at + 1), end);
  }

  /** {@code text} without zero-width spaces and joiners, soft hyphens and byte-order marks. */
  static String withoutInvisibleCharacters(CharSequence text) {
    StringBuilder clean = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean invisible = c == '\u200B' || c == '\u200C' || c == '\u200D' || c == '\u2060';
      invisible |= c == '\u00AD' || c == '\uFEFF';
      if (invisible && clean == null) {
        clean = new StringBuilder(text.length()).append(text, 0, i);
      } else if (!invisible && clean != null) {
        clean.append(c);
      }
    }
    return clean == null ? text.toString() : clean.toString();
  }

  private static void trimTrailingNewlines(StringBuilder out, int start) {
    int end = out.length();
    while (end > start && (out.charAt(end - 1) == '\n' || out.charAt(end - 1) == ' ')) {
      end--;
    }
    out.setLength(end);
  }

  /** Appends text nodes with collapsed white space; ends a line around each block element. */
  private static final class BlockTextVisitor implements NodeVisitor {
    private final StringBuilder out;
    private int hiddenDepth;

    BlockTextVisitor(StringBuilder out) {
      this.out = out;
    }

    @Override
    public void head(Node node, int depth) {
      if (node instanceof Element element) {
        String tag = element.normalName();
        if (HIDDEN.contains(tag)) {
          hiddenDepth++;
        } else if (hiddenDepth == 0 && BLOCKS.contains(tag)) {
          newline();
        }
      } else if (hiddenDepth == 0 && node instanceof TextNode textNode) {
        appendCollapsed(textNode.getWholeText());
      }
    }

    @Override
    public void tail(Node node, int depth) {
      if (node instanceof Element element) {
        String tag = element.normalName();
        if (HIDDEN.contains(tag)) {
          hiddenDepth--;
        } else if (hiddenDepth == 0 && BLOCKS.contains(tag)) {
          newline();
        }
      }
    }

    private void newline() {
      int end = out.length();
      while (end > 0 && out.charAt(end - 1) == ' ') {
        end--;
      }
      out.setLength(end);
      if (end > 0 && out.charAt(end - 1) != '\n') {
        out.append('\n');
      }
    }

    private void appendCollapsed(String text) {
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (Character.isWhitespace(c) || c == '\u00A0') {
          int end = out.length();
          if (end > 0 && out.charAt(end - 1) != ' ' && out.charAt(end - 1) != '\n') {
            out.append(' ');
          }
        } else {
          out.append(c);
        }
      }
    }
  }
}
