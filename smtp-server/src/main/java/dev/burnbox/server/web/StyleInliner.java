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
 * them. Without a {@code <style>} the HTML is returned as it is. Stateless and thread-safe.
 */
final class StyleInliner {
  /** The most rules applied from one mail, and the most elements a mail may have to get any. */
  static final int MAX_RULES = 500;

  static final int MAX_ELEMENTS = 20_000;

  private static final Pattern COMPOUND =
      Pattern.compile("(?:[a-zA-Z][a-zA-Z0-9-]*|\\*)?(?:[.#][a-zA-Z_-][a-zA-Z0-9_-]*)*");
  private static final Pattern PROPERTY = Pattern.compile("-?[a-zA-Z][a-zA-Z0-9-]*");

  private StyleInliner() {}

  /** {@code html} with its style blocks' simple rules inlined and the blocks removed. */
  static String inline(String html) {
    if (!html.toLowerCase(Locale.ROOT).contains("<style")) {
      return html;
    }
    Document document = Jsoup.parse(html);
    if (document.getAllElements().size() > MAX_ELEMENTS) {
      return html;
    }
    List<Rule> rules = new ArrayList<>();
    for (Element style : document.select("style")) {
      parse(style.data(), rules);
      style.remove();
    }
    rules.sort(Comparator.comparingInt(Rule::specificity).thenComparingInt(Rule::order));
    Map<Element, Map<String, String>> styles = new IdentityHashMap<>();
    for (Rule rule : rules.subList(0, Math.min(rules.size(), MAX_RULES))) {
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
    return document.outerHtml();
  }

  /** One selector of a rule with its declarations, by property name, the last of a name winning. */
  private record Rule(
      String selector, int specificity, int order, Map<String, String> declarations) {}

  /**
   * Adds the simple rules of {@code css} to {@code rules}; skips at-rules and what it cannot read.
   */
  private static void parse(String css, List<Rule> rules) {
    String text = css.replaceAll("(?s)/\\*.*?\\*/", " ").replace("<!--", " ").replace("-->", " ");
    int i = 0;
    while (i < text.length()) {
      int open = text.indexOf('{', i);
      int semicolon = text.indexOf(';', i);
      String head = text.substring(i, open < 0 ? text.length() : open).strip();
      if (head.startsWith("@") && semicolon >= 0 && (open < 0 || semicolon < open)) {
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
