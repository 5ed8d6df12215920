package dev.burnbox.server.web;

import static dev.burnbox.server.web.Html.escape;

import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.server.pipeline.SpamExplanation;
import dev.burnbox.server.pipeline.SpamExplanation.TermHit;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.server.pipeline.SpamScanner.Highlight;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The HTML of spam verdicts on the pages: the inbox badge and its terms, mail text with the model's
 * terms marked, and the "Why" panel of a message.
 *
 * <p>Guarantees: every string from a mail or a model goes through {@link Html#escape}; the only
 * markup is this class's own. {@link #marked} reproduces the text exactly, character for character,
 * with {@code <mark>} elements around the highlighted ranges, whatever ranges it is given.
 * Stateless and thread-safe.
 */
final class SpamHtml {
  /** How many contributions the Why panel lists each way. */
  static final int WHY_TERMS = 5;

  private SpamHtml() {}

  /** A probability as a whole percentage: "97%", "<1%" and ">99%" near the ends. */
  static String percent(double probability) {
    if (probability > 0 && probability < 0.005) {
      return "<1%";
    }
    if (probability < 1 && probability >= 0.995) {
      return ">99%";
    }
    return Math.round(probability * 100) + "%";
  }

  /** A weight or contribution with its sign and two decimals: "+1.92", "-0.40". */
  static String signed(double value) {
    return String.format(Locale.ROOT, "%+.2f", value);
  }

  /**
   * The inbox badge, with a leading space: "spam 97%" for spam, a quieter "12%" otherwise, which a
   * screen reader reads as "spam, probability 97%" or "not spam, spam probability 12%" (the words
   * the eye does not need are visually hidden); the stored top terms and the score on hover; "" for
   * mail that was never scanned. {@code /static/rows.js} builds the same badge for live mail.
   */
  static String badge(SpamVerdict verdict) {
    if (verdict.equals(SpamVerdict.CLEAN)) {
      return "";
    }
    String terms = verdict.terms().isEmpty() ? "no spam terms" : String.join(", ", verdict.terms());
    String percent = escape(percent(verdict.probability()));
    return " <span class=\"%s\" title=\"%s\">%s</span>"
        .formatted(
            verdict.spam() ? "spam" : "spam quiet",
            escape(terms + " (score " + signed(verdict.score()) + ")"),
            verdict.spam()
                ? "spam<span class=\"visually-hidden\">, probability</span> " + percent
                : "<span class=\"visually-hidden\">not spam, spam probability </span>" + percent);
  }

  /**
   * A listing row's verdict: the {@link #badge} in a {@code spam-line}, and for spam the verdict's
   * terms (at most {@value SpamScanner#VERDICT_TERMS}) shown as small text beside it, read out
   * after the badge as "for the words viagra, casino"; with a leading space; "" for mail that was
   * never scanned. {@code /static/rows.js} builds the same for live mail (the inbox page's and the
   * operator monitor's).
   */
  static String listed(SpamVerdict verdict) {
    String badge = badge(verdict);
    if (badge.isEmpty()) {
      return "";
    }
    List<String> terms = verdict.terms();
    String shown =
        verdict.spam() && !terms.isEmpty()
            ? " <span class=\"spam-terms\"><span class=\"visually-hidden\">for the words </span>"
                + escape(
                    String.join(
                        ", ", terms.subList(0, Math.min(terms.size(), SpamScanner.VERDICT_TERMS))))
                + "</span>"
            : "";
    return " <span class=\"spam-line\">" + badge.substring(1) + shown + "</span>";
  }

  /**
   * {@code text} as HTML, each highlighted range inside a {@code <mark>} whose title names its
   * terms and summed weight (class {@code ham} when that weight is negative). Ranges are clamped to
   * the text, kept off the middle of surrogate pairs, and merged where they overlap.
   */
  static String marked(String text, List<Highlight> highlights) {
    StringBuilder html = new StringBuilder(text.length() + 48 * highlights.size() + 16);
    int done = 0;
    for (Range range : ranges(text, highlights)) {
      html.append(escape(text.substring(done, range.start)));
      html.append(range.weight < 0 ? "<mark class=\"ham\" title=\"" : "<mark title=\"")
          .append(escape(String.join(", ", range.terms) + " " + signed(range.weight)))
          .append("\">")
          .append(escape(text.substring(range.start, range.end)))
          .append("</mark>");
      done = range.end;
    }
    return html.append(escape(text.substring(done))).toString();
  }

  /**
   * The Why panel: the verdict stored at delivery (probability against the threshold in use now),
   * then the strongest contributions for and against spam with the model in use now.
   */
  static String why(SpamVerdict stored, SpamExplanation now) {
    String disagreement =
        Math.abs(now.probability() - stored.probability()) < 0.005
            ? ""
            : " <span class=\"now\">With the model in use now: %s.</span>"
                .formatted(escape(percent(now.probability())));
    List<WordShare> words = byWord(now.terms());
    List<WordShare> forSpam = words.stream().filter(w -> w.contribution() > 0).toList();
    List<WordShare> against = words.stream().filter(w -> w.contribution() < 0).toList();
    return """
        <section class="why" id="why" aria-labelledby="why-title"><h2 id="why-title">Why</h2>
        <p class="verdict"><strong>%s</strong>: probability <span class="probability">%s</span>, \
        spam from <span class="threshold">%s</span>.%s</p>
        <div class="contributions">
        %s%s</div>
        <p class="note">Words as the model in use now weighs them: each word's share is the sum \
        of its terms'%s.</p>
        </section>
        """
        .formatted(
            stored.spam() ? "Spam" : "Not spam",
            escape(percent(stored.probability())),
            escape(percent(now.threshold())),
            disagreement,
            contributions("for", "For spam", forSpam),
            contributions("against", "Against", against),
            now.terms().stream().anyMatch(t -> !t.word().equals(t.term()))
                ? " (a character n-gram counts for the first word that holds it)"
                : "");
  }

  /**
   * A word's share of the score in one part: the terms that stand for it there (a character
   * n-gram's word, or a whole term itself), strongest first, and their contributions summed.
   */
  private record WordShare(String word, String part, List<TermHit> terms, double contribution) {}

  /** {@code hits} grouped by word and part, the largest share (either way) first. */
  private static List<WordShare> byWord(List<TermHit> hits) {
    Map<List<String>, List<TermHit>> groups = new LinkedHashMap<>();
    for (TermHit hit : hits) {
      groups.computeIfAbsent(List.of(hit.word(), hit.part()), k -> new ArrayList<>()).add(hit);
    }
    List<WordShare> shares = new ArrayList<>(groups.size());
    for (List<TermHit> terms : groups.values()) {
      double sum = terms.stream().mapToDouble(TermHit::contribution).sum();
      shares.add(new WordShare(terms.getFirst().word(), terms.getFirst().part(), terms, sum));
    }
    shares.sort(Comparator.comparingDouble((WordShare w) -> -Math.abs(w.contribution())));
    return shares;
  }

  /** A table of the first {@value #WHY_TERMS} of {@code words} (already strongest first). */
  private static String contributions(String className, String caption, List<WordShare> words) {
    StringBuilder html =
        new StringBuilder(
            "<table class=\"%s\"><caption>%s</caption>\n".formatted(className, caption)
                + "<thead><tr><th scope=\"col\">Word</th><th scope=\"col\">Part</th>"
                + "<th scope=\"col\">Terms</th>"
                + "<th scope=\"col\" class=\"num\">Contribution</th></tr></thead>\n<tbody>\n");
    if (words.isEmpty()) {
      html.append("<tr><td colspan=\"4\" class=\"none\">none</td></tr>\n");
    }
    for (WordShare word : words.subList(0, Math.min(WHY_TERMS, words.size()))) {
      html.append(
          "<tr><td class=\"term\">%s</td><td>%s</td><td class=\"terms\">%s</td>"
                  .formatted(escape(word.word()), escape(word.part()), escape(termsOf(word)))
              + "<td class=\"num\">%s</td></tr>\n".formatted(escape(signed(word.contribution()))));
    }
    return html.append("</tbody></table>\n").toString();
  }

  /** The most terms listed for one word. */
  private static final int WORD_TERMS = 6;

  /**
   * The terms of a word with their counts, {@code clic ×1, lick ×1} (a no-break space before each
   * count); only the count ({@code ×3}) when the word is its one term.
   */
  private static String termsOf(WordShare word) {
    List<TermHit> terms = word.terms();
    if (terms.size() == 1 && terms.getFirst().term().equals(word.word())) {
      return "\u00D7" + terms.getFirst().count();
    }
    StringBuilder text = new StringBuilder();
    for (TermHit term : terms.subList(0, Math.min(WORD_TERMS, terms.size()))) {
      text.append(text.isEmpty() ? "" : ", ")
          .append(term.term())
          .append("\u00A0\u00D7") // no line break between a term and its count
          .append(term.count());
    }
    return terms.size() > WORD_TERMS ? text.append(", \u2026").toString() : text.toString();
  }

  /** A range of the text to mark: start and end chars, summed weight, terms in order. */
  private record Range(int start, int end, double weight, Set<String> terms) {}

  /** The highlights as ordered, disjoint ranges inside {@code text}. */
  private static List<Range> ranges(String text, List<Highlight> highlights) {
    List<Highlight> sorted = new ArrayList<>(highlights);
    sorted.sort(Comparator.comparingInt(Highlight::start).thenComparingInt(Highlight::end));
    List<Range> ranges = new ArrayList<>();
    for (Highlight h : sorted) {
      int start = outsidePair(text, Math.clamp(h.start(), 0, text.length()), -1);
      int end = outsidePair(text, Math.clamp(h.end(), 0, text.length()), +1);
      if (start >= end) {
        continue;
      }
      Range last = ranges.isEmpty() ? null : ranges.getLast();
      if (last != null && start < last.end) {
        Set<String> terms = new LinkedHashSet<>(last.terms);
        terms.addAll(h.terms());
        ranges.set(
            ranges.size() - 1,
            new Range(last.start, Math.max(last.end, end), last.weight + h.weight(), terms));
      } else {
        ranges.add(new Range(start, end, h.weight(), new LinkedHashSet<>(h.terms())));
      }
    }
    return ranges;
  }

  /** {@code index}, moved by {@code direction} if it falls between the halves of a pair. */
  private static int outsidePair(String text, int index, int direction) {
    if (index > 0
        && index < text.length()
        && Character.isHighSurrogate(text.charAt(index - 1))
        && Character.isLowSurrogate(text.charAt(index))) {
      return index + direction;
    }
    return index;
  }
}
