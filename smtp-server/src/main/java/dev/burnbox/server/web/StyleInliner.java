package dev.burnbox.server.web;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.NodeTraversor;

/**
 * Moves the rules of a mail's {@code <style>} blocks into the {@code style} attributes of the
 * elements they select, as mail tools ("premailer") do, so that a newsletter keeps its look once
 * {@link MailHtmlSanitizer} has dropped the blocks and the classes: the sanitizer then filters the
 * declarations as it does any inline style (no {@code url()}, no positioning...).
 *
 * <p>Only simple selectors are applied: a type, classes and an id ({@code td.note#total}), and
 * descendants of such ({@code .footer a}), each comma-separated one on its own. Rules with other
 * selectors, at-rules ({@code @media}, {@code @import}, {@code @font-face}...) and whatever does
 * not parse are skipped. Declarations apply in order of specificity, then of the document (as a
 * browser would for these selectors), and a {@code style} the element has already wins over all of
 * them. Since the sanitizer keeps neither {@code <html>} nor {@code <body>}, when rules style
 * either (a newsletter's background and font), or the body has colours or a style of its own
 * ({@code <body bgcolor="#000000" text="#ffffff">}, {@code <body style="background:#000">}: a dark
 * newsletter turned white on white without them), the body's content is wrapped in a {@code <div>}
 * that gets their declarations: html's, then the body's {@code bgcolor} and {@code text} as {@code
 * background-color} and {@code color}, then the body's rules and style. The body's {@code link}
 * colour becomes the {@code color} of each link without one. Colour attributes count only as simple
 * colours ({@code #rgb}, {@code #rrggbb}, a name). Without a {@code <style>} or such a body the
 * HTML is returned as it is. Stateless and thread-safe.
 *
 * <p>Cost: it runs on every view of a mail's HTML, and the mail is the sender's, so its work is
 * bounded whatever the mail: the style text is read in one pass and at most {@value
 * #MAX_STYLE_CHARS} chars of it; at most {@value #MAX_RULES} rules apply, each a pass over at most
 * {@value #MAX_ELEMENTS} elements; a descendant selector checks the ancestors of each element it
 * looks at, so descendant rules apply only while elements x nesting depth x their parts stays under
 * {@value #MAX_ANCESTOR_CHECKS} (a mail of 5,000 nested elements and 100 such rules took 5.4 s a
 * view before that bound).
 */
final class StyleInliner {
  /** The most rules applied from one mail, and the most elements a mail may have to get any. */
  static final int MAX_RULES = 300;

  static final int MAX_ELEMENTS = 10_000;

  /** The most chars of a mail's style blocks read, all blocks together. */
  static final int MAX_STYLE_CHARS = 100_000;

  /** The most ancestor checks the descendant rules may cost (see the class comment). */
  static final long MAX_ANCESTOR_CHECKS = 5_000_000;

  private static final Pattern COMPOUND =
      Pattern.compile("(?:[a-zA-Z][a-zA-Z0-9-]*|\\*)?(?:[.#][a-zA-Z_-][a-zA-Z0-9_-]*)*");
  private static final Pattern PROPERTY = Pattern.compile("-?[a-zA-Z][a-zA-Z0-9-]*");

  /** The most chars of the {@code <body} tag looked at for colours or a style. */
  private static final int MAX_BODY_TAG = 4096;

  private static final Pattern BODY_LOOKS = Pattern.compile("\\b(bgcolor|text|link|style)\\s*=");
  private static final Pattern HEX_COLOR = Pattern.compile("#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})");
  private static final Pattern NAMED_COLOR = Pattern.compile("[a-zA-Z]{3,20}");

  private StyleInliner() {}

  /**
   * {@code html} with its style blocks' simple rules inlined and the blocks removed, and the body's
   * own colours and style on a block wrapping its content.
   */
  static String inline(String html) {
    String lower = html.toLowerCase(Locale.ROOT);
    if (!lower.contains("<style") && !bodyHasLooks(lower)) {
      return html;
    }
    Document document = Jsoup.parse(html);
    int elements = document.getAllElements().size();
    if (elements > MAX_ELEMENTS) {
      return html;
    }
    List<Rule> rules = new ArrayList<>();
    int styleChars = 0;
    for (Element style : document.select("style")) {
      String css = style.data();
      if (styleChars < MAX_STYLE_CHARS) {
        parse(css.substring(0, Math.min(css.length(), MAX_STYLE_CHARS - styleChars)), rules);
      }
      styleChars += css.length();
      style.remove();
    }
    rules = rules.subList(0, Math.min(rules.size(), MAX_RULES));
    long ancestorChecks = 0;
    for (Rule rule : rules) {
      ancestorChecks += (long) elements * (rule.selector().split(" ").length - 1);
    }
    if (ancestorChecks * depth(document) > MAX_ANCESTOR_CHECKS) {
      rules = rules.stream().filter(rule -> rule.selector().indexOf(' ') < 0).toList();
    }
    rules = new ArrayList<>(rules);
    rules.sort(Comparator.comparingInt(Rule::specificity).thenComparingInt(Rule::order));
    Map<Element, Map<String, String>> styles = new IdentityHashMap<>();
    for (Rule rule : rules) {
      for (Element element : document.select(rule.selector())) {
        styles.computeIfAbsent(element, e -> new LinkedHashMap<>()).putAll(rule.declarations());
      }
    }
    styles.forEach(
        (element, declarations) -> {
          StringBuilder style = new StringBuilder();
          declarations.forEach(
              (name, value) -> style.append(name).append(": ").append(value).append("; "));
          String own = element.attr("style").strip();
          element.attr("style", (style + own).strip()); // own declarations come last: they win
        });
    Element body = document.body();
    String linkColor = color(body.attr("link"));
    if (linkColor != null) {
      for (Element link : body.select("a[href]")) { // the link's own colour, if any, comes later
        link.attr("style", ("color: " + linkColor + "; " + link.attr("style")).strip());
      }
    }
    String bodyColors = bodyColors(body);
    if (!bodyColors.isEmpty()
        || !body.attr("style").isBlank()
        || styles.containsKey(body.parent())) {
      wrapBody(body, bodyColors);
    }
    return document.outerHtml();
  }

  /**
   * Whether the first {@code <body} tag of {@code lowerHtml} (lower-cased) may carry colours or a
   * style ({@code bgcolor}, {@code text}, {@code link}, {@code style}): a check of that tag's first
   * {@value #MAX_BODY_TAG} chars only.
   */
  private static boolean bodyHasLooks(String lowerHtml) {
    int start = lowerHtml.indexOf("<body");
    if (start < 0) {
      return false;
    }
    int end = lowerHtml.indexOf('>', start);
    int limit = Math.min(lowerHtml.length(), start + MAX_BODY_TAG);
    String tag = lowerHtml.substring(start, end < 0 ? limit : Math.min(end, limit));
    return BODY_LOOKS.matcher(tag).find();
  }

  /**
   * The body's {@code bgcolor} and {@code text} attributes as CSS ({@code background-color: #000;
   * color: #fff}), those that are simple colours; "" if none.
   */
  private static String bodyColors(Element body) {
    List<String> declarations = new ArrayList<>();
    String background = color(body.attr("bgcolor"));
    if (background != null) {
      declarations.add("background-color: " + background);
    }
    String text = color(body.attr("text"));
    if (text != null) {
      declarations.add("color: " + text);
    }
    return String.join("; ", declarations);
  }

  /**
   * An HTML colour attribute's value as a CSS colour: {@code #rgb} or {@code #rrggbb} (the {@code
   * #} added if the mail left it out, as browsers read it) or a colour name; null for anything
   * else.
   */
  private static String color(String value) {
    String v = value.strip();
    if (HEX_COLOR.matcher(v).matches()) {
      return v.startsWith("#") ? v : "#" + v;
    }
    return NAMED_COLOR.matcher(v).matches() ? v : null;
  }

  /**
   * Moves the content of {@code body} into a {@code <div>} styled as the {@code html} element, the
   * body's colour attributes ({@code bodyColors}) and the body's style are, in that order, as the
   * sanitizer drops both elements with their style.
   */
  private static void wrapBody(Element body, String bodyColors) {
    List<String> styles = new ArrayList<>();
    for (String style : List.of(body.parent().attr("style"), bodyColors, body.attr("style"))) {
      style = style.strip();
      while (style.endsWith(";")) {
        style = style.substring(0, style.length() - 1).strip();
      }
      if (!style.isEmpty()) {
        styles.add(style);
      }
    }
    Element wrapper = new Element("div").attr("style", String.join("; ", styles));
    wrapper.appendChildren(new ArrayList<>(body.childNodes()));
    body.appendChild(wrapper);
  }

  /** How deeply the elements of {@code document} nest. */
  private static int depth(Document document) {
    int[] deepest = {0};
    NodeTraversor.traverse((node, depth) -> deepest[0] = Math.max(deepest[0], depth), document);
    return deepest[0];
  }

  /** One selector of a rule with its declarations, by property name, the last of a name winning. */
  private record Rule(
      String selector, int specificity, int order, Map<String, String> declarations) {}

  /**
   * Adds the simple rules of {@code css} to {@code rules}; skips at-rules and what it cannot read.
   */
  private static void parse(String css, List<Rule> rules) {
    String text = withoutComments(css).replace("<!--", " ").replace("-->", " ");
    int i = 0;
    while (i < text.length()) {
      int open = text.indexOf('{', i);
      int headEnd = open < 0 ? text.length() : open;
      String head = text.substring(i, headEnd).strip();
      int semicolon = head.startsWith("@") ? text.indexOf(';', i, headEnd) : -1;
      if (semicolon >= 0) {
        i = semicolon + 1; // @import url(...); @charset "...";
        continue;
      }
      if (open < 0) {
        return;
      }
      int close = matchingBrace(text, open);
      if (close < 0) {
        return;
      }
      String body = text.substring(open + 1, close);
      if (!head.startsWith("@") && body.indexOf('{') < 0) {
        Map<String, String> declarations = declarations(body);
        for (String selector : head.split(",")) {
          String simple = selector.strip().replaceAll("\\s+", " ");
          if (!declarations.isEmpty() && isSimple(simple)) {
            rules.add(new Rule(simple, specificity(simple), rules.size(), declarations));
          }
        }
      }
      i = close + 1;
    }
  }

  /** {@code css} with its comments made spaces, in one pass (an unclosed one runs to the end). */
  private static String withoutComments(String css) {
    StringBuilder out = new StringBuilder(css.length());
    int i = 0;
    while (i < css.length()) {
      int start = css.indexOf("/*", i);
      if (start < 0) {
        out.append(css, i, css.length());
        break;
      }
      out.append(css, i, start).append(' ');
      int end = css.indexOf("*/", start + 2);
      i = end < 0 ? css.length() : end + 2;
    }
    return out.toString();
  }

  private static int matchingBrace(String text, int open) {
    int depth = 0;
    for (int i = open; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  private static Map<String, String> declarations(String body) {
    Map<String, String> declarations = new LinkedHashMap<>();
    for (String declaration : body.split(";")) {
      int colon = declaration.indexOf(':');
      if (colon > 0) {
        String name = declaration.substring(0, colon).strip().toLowerCase(Locale.ROOT);
        String value = declaration.substring(colon + 1).strip();
        if (PROPERTY.matcher(name).matches() && !value.isEmpty()) {
          declarations.put(name, value);
        }
      }
    }
    return declarations;
  }

  private static boolean isSimple(String selector) {
    if (selector.isEmpty()) {
      return false;
    }
    for (String compound : selector.split(" ")) {
      if (compound.isEmpty() || !COMPOUND.matcher(compound).matches()) {
        return false;
      }
    }
    return true;
  }

  /** Ids count 10,000, classes 100, types 1: a selector has far fewer than 100 of each. */
  private static int specificity(String selector) {
    int specificity = 0;
    for (String compound : selector.split(" ")) {
      for (String part : compound.split("(?=[.#])")) {
        if (part.startsWith("#")) {
          specificity += 10_000;
        } else if (part.startsWith(".")) {
          specificity += 100;
        } else if (!part.isEmpty() && !part.equals("*")) {
          specificity += 1;
        }
      }
    }
    return specificity;
  }
}
