package dev.burnbox.server.mime;

import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeVisitor;

/** The visible text of an HTML document, with block elements on lines of their own. */
final class HtmlText {
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
    Node root = Jsoup.parse(html).body();
    if (root == null) {
      return;
    }
    int start = out.length();
    root.traverse(new BlockTextVisitor(out));
    trimTrailingNewlines(out, start);
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
