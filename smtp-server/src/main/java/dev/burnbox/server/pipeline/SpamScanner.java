package dev.burnbox.server.pipeline;

import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.matcher.NormalizedText;
import dev.burnbox.matcher.TermCounts;
import dev.burnbox.matcher.TermMatcher;
import dev.burnbox.matcher.TermSet;
import dev.burnbox.matcher.TextNormalizer;
import dev.burnbox.server.mime.DecodedMail.ScanParts;
import dev.burnbox.wordlists.SpamModel;
import dev.burnbox.wordlists.SpamModel.Part;
import dev.burnbox.wordlists.SpamModel.Scoring;
import dev.burnbox.wordlists.SpamModel.WeightedTerm;
import dev.burnbox.wordlists.SpamModelFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Scores a message with a {@link SpamModel}: one pass of a {@link TermMatcher} over each part
 * (subject, body, markup) of its {@linkplain TextNormalizer normalised} text, the weights of the
 * terms found combined as the model's scoring says into a score, and the score through the logistic
 * function into the probability that the message is spam. The model can be replaced while mail
 * flows.
 *
 * <p>Because the text is normalised before matching (invisible characters dropped, NFKC and case
 * folding, look-alike letters, leetspeak, spaced letters joined), {@code v1agra}, {@code
 * v.i.a.g.r.a} and {@code vіagra} with a Cyrillic і are the same word to the model; {@link
 * #highlight} maps matches back to the original text.
 *
 * <p>Thread-safe. {@link #scan} runs lock-free on the model current when it starts; {@link #reload}
 * compiles a new model first and then swaps it in atomically, so a scan sees either the old model
 * or the new one, and a bad file leaves the old one in place. Cost: one normalisation and one
 * matcher pass per part, then O(distinct hits) arithmetic.
 */
public final class SpamScanner {
  /** How many terms a stored verdict keeps for the inbox badge. */
  public static final int VERDICT_TERMS = 5;

  private static final Part[] PARTS = {Part.SUBJECT, Part.BODY, Part.MARKUP};
  private static final double[] LOG_TF = new double[256];

  static {
    for (int n = 1; n < LOG_TF.length; n++) {
      LOG_TF[n] = 1 + Math.log(n);
    }
  }

  private static final TextNormalizer NORMALIZER = TextNormalizer.standard();

  private final MatcherKind kind;
  private final Double thresholdOverride;
  private final AtomicReference<CompiledModel> current;
  private final CompletableFuture<CompiledModel> first; // the first model, done unless compiling

  private SpamScanner(
      MatcherKind kind, Double thresholdOverride, CompletableFuture<CompiledModel> first) {
    this.kind = kind;
    this.thresholdOverride = thresholdOverride;
    this.current = new AtomicReference<>(first.getNow(null));
    this.first = first;
  }

  /**
   * A scanner over {@code model}.
   *
   * @param kind the matcher algorithm, or null for {@link MatcherKind#bestFor}
   * @param threshold the probability from which a message is spam, or null for the model's own
   * @throws IllegalArgumentException if the threshold is not strictly between 0 and 1, or a term is
   *     empty once normalised
   */
  public static SpamScanner of(MatcherKind kind, Double threshold, SpamModel model) {
    if (threshold != null) {
      SpamModel.checkThreshold(threshold);
    }
    return new SpamScanner(
        kind, threshold, CompletableFuture.completedFuture(compile(kind, model, threshold)));
  }

  /**
   * A scanner whose model, the built-in one or the one in {@code terms}, is read and compiled on a
   * thread of its own, so that the service can open its ports meanwhile. Until it is ready, every
   * method that needs the model ({@link #scan}, {@link #explain}, {@link #highlight}, {@link
   * #threshold}...) waits for it: no mail is scored, so none is taken, without it. {@link
   * #awaitModel} waits and reports a model that could not be read.
   *
   * @param terms the model or term list file, or null for {@link SpamModel#defaults()}
   * @throws IllegalArgumentException if the threshold is not strictly between 0 and 1
   */
  public static SpamScanner compileInBackground(MatcherKind kind, Double threshold, Path terms) {
    if (threshold != null) {
      SpamModel.checkThreshold(threshold);
    }
    CompletableFuture<CompiledModel> first = new CompletableFuture<>();
    Thread.ofPlatform()
        .daemon()
        .name("burnbox-spam-model")
        .start(
            () -> {
              try {
                SpamModel model = terms == null ? SpamModel.defaults() : read(terms);
                first.complete(compile(kind, model, threshold));
              } catch (IOException | RuntimeException | Error e) {
                first.completeExceptionally(e);
              }
            });
    return new SpamScanner(kind, threshold, first);
  }

  /**
   * Waits until the first model is ready (at once unless it is {@linkplain #compileInBackground
   * compiled in the background}).
   *
   * @throws IOException if its file could not be read
   * @throws IllegalArgumentException if its file is not a valid model
   */
  public void awaitModel() throws IOException {
    try {
      model();
    } catch (CompletionException e) {
      if (e.getCause() instanceof IOException cause) {
        throw cause;
      }
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** The model in use; the first one is waited for (see {@link #compileInBackground}). */
  private CompiledModel model() {
    CompiledModel model = current.get();
    if (model == null) {
      current.compareAndSet(null, first.join()); // a reload meanwhile wins
      model = current.get();
    }
    return model;
  }

  /** A scanner over the shipped model ({@link SpamModel#defaults()}). */
  public static SpamScanner withDefaultModel(MatcherKind kind, Double threshold) {
    return of(kind, threshold, SpamModel.defaults());
  }

  /**
   * A scanner over the model or plain term list in {@code file} (see {@link SpamModelFile}).
   *
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if the file is not a valid model (the message names the line)
   */
  public static SpamScanner fromFile(MatcherKind kind, Double threshold, Path file)
      throws IOException {
    return of(kind, threshold, read(file));
  }

  /**
   * Replaces the model with the one in {@code file}. On any error the current model stays in use
   * and the error is thrown for the caller to report.
   *
   * @return how many terms the new model has
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if the file is not a valid model (the message names the line)
   */
  public int reload(Path file) throws IOException {
    CompiledModel next = compile(kind, read(file), thresholdOverride);
    current.set(next);
    return next.model().terms().size();
  }

  private static SpamModel read(Path file) throws IOException {
    return SpamModelFile.read(
        file, term -> NORMALIZER.normalizeTerm(term).isEmpty() ? "is empty once normalised" : null);
  }

  /** The stored verdict of a message's parts: score, probability, spam or not, top terms. */
  public SpamVerdict scan(ScanParts parts) {
    CompiledModel model = model();
    Hits hits = model.count(parts);
    try {
      return model.verdict(hits);
    } finally {
      model.giveBack(hits);
    }
  }

  /**
   * The full explanation of a message's verdict with the model in use now: every term found, with
   * its part, count, weight and contribution to the score, strongest contribution (either way)
   * first.
   */
  public SpamExplanation explain(ScanParts parts) {
    CompiledModel model = model();
    Hits hits = model.count(parts);
    SpamVerdict verdict = model.verdict(hits);
    List<SpamExplanation.TermHit> terms = new ArrayList<>(hits.size);
    // (hits is not given back: explaining is rare, and the garbage collector takes it)
    for (int i = 0; i < hits.size; i++) {
      int line = hits.lines[i];
      WeightedTerm term = model.model().terms().get(line);
      terms.add(
          new SpamExplanation.TermHit(
              term.term(),
              term.part().fileName(),
              hits.counts[line],
              term.weight(),
              hits.contributions[i]));
    }
    terms.sort(
        Comparator.comparingDouble((SpamExplanation.TermHit t) -> -Math.abs(t.contribution()))
            .thenComparing(SpamExplanation.TermHit::term));
    return new SpamExplanation(
        verdict.score(),
        verdict.probability(),
        model.threshold(),
        verdict.spam(),
        model.model().intercept(),
        terms);
  }

  /**
   * Where the model's terms of {@code part} weigh most in {@code text}, as ranges of the original
   * text (exact through the normalisation), in order. A match covers its whole word (a character
   * n-gram marks the word it is part of), and overlapping matches are merged into one range, whose
   * weight is the sum of the weights of the terms in it; of those, the ranges whose weight is at
   * least {@value #HIGHLIGHT_SHARE} of the largest (either way) are returned: a plain list's terms
   * all weigh the same and are all returned, while of a learned model's thousands of n-grams, which
   * touch most words a little, only the words that decide are.
   */
  public List<Highlight> highlight(String text, Part part) {
    List<Highlight> all = allHighlights(text, part);
    double strongest = 0;
    for (Highlight h : all) {
      strongest = Math.max(strongest, Math.abs(h.weight()));
    }
    double cut = strongest * HIGHLIGHT_SHARE;
    return all.stream().filter(h -> Math.abs(h.weight()) >= cut && h.weight() != 0).toList();
  }

  /** The share of the strongest range's weight a range needs to be highlighted. */
  public static final double HIGHLIGHT_SHARE = 0.25;

  private List<Highlight> allHighlights(String text, Part part) {
    CompiledModel model = model();
    PartMatcher matcher = model.parts()[Arrays.asList(PARTS).indexOf(part)];
    if (matcher == null || text.isEmpty()) {
      return List.of();
    }
    NormalizedText normalized = NORMALIZER.normalize(text);
    String scanned = normalized.text();
    List<Highlight> out = new ArrayList<>();
    int[] open = {-1, -1}; // start and end of the range being merged, normalised offsets
    double[] weight = {0};
    Set<String> termsInRange = new LinkedHashSet<>();
    matcher
        .matcher()
        .forEachMatch(
            scanned,
            (term, matchStart, matchEnd) -> {
              // an n-gram marks its whole word: "cheap", not "c" left out of "heap"
              int start = matchStart;
              while (start > 0 && Character.isLetter(scanned.charAt(start - 1))) {
                start--;
              }
              int end = matchEnd;
              while (end < scanned.length() && Character.isLetter(scanned.charAt(end))) {
                end++;
              }
              if (open[0] >= 0 && start >= open[1]) {
                out.add(range(normalized, open, weight[0], termsInRange));
                open[0] = -1;
                weight[0] = 0;
                termsInRange.clear();
              }
              if (open[0] < 0) {
                open[0] = start;
              }
              open[0] = Math.min(open[0], start);
              open[1] = Math.max(open[1], end);
              for (int line : matcher.lines()[term]) {
                weight[0] += model.weights()[line];
                termsInRange.add(model.model().terms().get(line).term());
              }
            });
    if (open[0] >= 0) {
      out.add(range(normalized, open, weight[0], termsInRange));
    }
    return out;
  }

  private static Highlight range(
      NormalizedText normalized, int[] open, double weight, Set<String> terms) {
    return new Highlight(
        normalized.originalStart(open[0]),
        normalized.originalEnd(open[1]),
        weight,
        List.copyOf(terms));
  }

  /**
   * A range of an original text where model terms matched.
   *
   * @param start first char, inclusive
   * @param end last char, exclusive
   * @param weight the summed weights of the terms matched in the range
   * @param terms those terms, in order of first match
   */
  public record Highlight(int start, int end, double weight, List<String> terms) {}

  /** The probability from which a message is spam. */
  public double threshold() {
    return model().threshold();
  }

  /** The algorithm of the matchers in use (the chosen one when built with null). */
  public MatcherKind matcherKind() {
    CompiledModel model = model();
    for (PartMatcher part : model.parts()) {
      if (part != null) {
        return part.matcher().kind();
      }
    }
    return kind;
  }

  /** How many terms the model in use has. */
  public int termCount() {
    return model().model().terms().size();
  }

  /** Where the model in use came from: a file path or "built-in model". */
  public String source() {
    return model().model().source();
  }

  // ---- compiling and scoring ----

  private static CompiledModel compile(MatcherKind kind, SpamModel model, Double threshold) {
    MatchOptions options =
        model.match() == SpamModel.Match.WORDS ? new MatchOptions(true, true) : MatchOptions.EXACT;
    List<WeightedTerm> terms = model.terms();
    String[] normalized = new String[terms.size()];
    for (int line = 0; line < terms.size(); line++) {
      normalized[line] = NORMALIZER.normalizeTerm(terms.get(line).term());
      if (normalized[line].isEmpty()) {
        throw new IllegalArgumentException(
            model.source() + ": term '" + terms.get(line).term() + "' is empty once normalised");
      }
    }
    PartMatcher[] parts = new PartMatcher[PARTS.length];
    for (int p = 0; p < PARTS.length; p++) {
      Map<String, List<Integer>> linesByTerm = new LinkedHashMap<>();
      for (int line = 0; line < terms.size(); line++) {
        if (terms.get(line).part().covers(PARTS[p])) {
          linesByTerm.computeIfAbsent(normalized[line], t -> new ArrayList<>()).add(line);
        }
      }
      if (linesByTerm.isEmpty()) {
        continue;
      }
      TermSet set = TermSet.of(linesByTerm.keySet(), options);
      int[][] lines = new int[set.size()][];
      for (int i = 0; i < set.size(); i++) {
        lines[i] = linesByTerm.get(set.term(i)).stream().mapToInt(Integer::intValue).toArray();
      }
      parts[p] = new PartMatcher(kind == null ? TermMatcher.best(set) : kind.compile(set), lines);
    }
    return new CompiledModel(model, parts, threshold != null ? threshold : model.threshold());
  }

  /**
   * One part's matcher and, for each of its distinct terms, the model lines it stands for; {@code
   * onlyLine} has that line when it is the only one (the usual case), else -1.
   */
  private record PartMatcher(TermMatcher matcher, int[][] lines, int[] onlyLine) {
    PartMatcher(TermMatcher matcher, int[][] lines) {
      this(matcher, lines, Arrays.stream(lines).mapToInt(l -> l.length == 1 ? l[0] : -1).toArray());
    }
  }

  /** The model lines a message hit, their counts, and once scored their contributions. */
  private static final class Hits {
    final int[] counts; // by model line
    final TermCounts partTerms; // one part's matcher terms, counted and cleared part by part
    int[] lines = new int[64]; // the lines hit, in the order their part's counts listed them
    int size;
    double[] contributions = new double[64]; // by position in lines, once scored

    Hits(int lines, int partTerms) {
      counts = new int[lines];
      this.partTerms = new TermCounts(partTerms);
    }

    void hit(int line, int times) {
      if (counts[line] == 0) {
        if (size == lines.length) {
          lines = Arrays.copyOf(lines, size * 2);
        }
        lines[size++] = line;
      }
      counts[line] += times;
    }
  }

  /**
   * A model ready to score: its matchers, and its weights and idfs by line in arrays (the scoring
   * loop reads them once per distinct hit).
   */
  private record CompiledModel(
      SpamModel model,
      PartMatcher[] parts,
      double threshold,
      double[] weights,
      double[] idfs,
      int partTerms,
      Queue<Hits> spare,
      AtomicInteger spareCount) {
    /** The most cleared {@link Hits} kept for reuse, about the scans that run at once. */
    static final int SPARE_HITS = 64;

    CompiledModel(SpamModel model, PartMatcher[] parts, double threshold) {
      this(
          model,
          parts,
          threshold,
          model.terms().stream().mapToDouble(WeightedTerm::weight).toArray(),
          model.terms().stream().mapToDouble(WeightedTerm::idf).toArray(),
          Arrays.stream(parts)
              .filter(Objects::nonNull)
              .mapToInt(part -> part.matcher().terms().size())
              .max()
              .orElse(0),
          new ConcurrentLinkedQueue<>(),
          new AtomicInteger());
    }

    Hits count(ScanParts text) {
      Hits reused = spare.poll();
      if (reused != null) {
        spareCount.decrementAndGet();
      }
      Hits hits = reused != null ? reused : new Hits(model.terms().size(), partTerms);
      String[] texts = {text.subject(), text.body(), text.markup()};
      TermCounts found = hits.partTerms;
      for (int p = 0; p < PARTS.length; p++) {
        PartMatcher part = parts[p];
        if (part == null || texts[p].isEmpty()) {
          continue;
        }
        part.matcher().count(NORMALIZER.normalize(texts[p]).text(), found);
        int[][] lines = part.lines();
        int[] onlyLine = part.onlyLine();
        for (int i = 0; i < found.distinct(); i++) {
          int term = found.term(i);
          int line = onlyLine[term];
          if (line >= 0) {
            hits.hit(line, found.count(term));
          } else {
            for (int each : lines[term]) {
              hits.hit(each, found.count(term));
            }
          }
        }
        found.clear();
      }
      score(hits);
      return hits;
    }

    /** Fills in each hit's contribution to the score. */
    private void score(Hits hits) {
      if (hits.contributions.length < hits.size) {
        hits.contributions = new double[hits.lines.length];
      }
      double[] contributions = hits.contributions;
      if (model.scoring() == Scoring.CAPPED) {
        for (int i = 0; i < hits.size; i++) {
          int line = hits.lines[i];
          contributions[i] = weights[line] * Math.min(hits.counts[line], 3);
        }
      } else {
        double squares = 0;
        for (int i = 0; i < hits.size; i++) {
          int line = hits.lines[i];
          int count = hits.counts[line];
          double value = idfs[line] * logTf(count);
          contributions[i] = value;
          squares += value * value;
        }
        double norm = Math.sqrt(squares + model.smoothing());
        for (int i = 0; i < hits.size; i++) {
          contributions[i] = weights[hits.lines[i]] * contributions[i] / norm;
        }
      }
    }

    /**
     * Clears {@code hits} (only the counts it set) for the next scan and keeps it if fewer than
     * {@value #SPARE_HITS} are kept: a scan then allocates nothing proportional to the model.
     */
    void giveBack(Hits hits) {
      for (int i = 0; i < hits.size; i++) {
        hits.counts[hits.lines[i]] = 0;
      }
      hits.size = 0;
      if (spareCount.get() < SPARE_HITS) {
        spareCount.incrementAndGet();
        spare.offer(hits);
      }
    }

    /** {@code 1 + ln n}, from a table for the usual small counts. */
    private static double logTf(int count) {
      return count < LOG_TF.length ? LOG_TF[count] : 1 + Math.log(count);
    }

    SpamVerdict verdict(Hits hits) {
      double score = model.intercept();
      for (int i = 0; i < hits.size; i++) {
        score += hits.contributions[i];
      }
      double probability = SpamModel.probability(score);
      // the few strongest positive contributions, by insertion into a short sorted array: O(n)
      int[] best = new int[VERDICT_TERMS];
      int kept = 0;
      for (int i = 0; i < hits.size; i++) {
        double c = hits.contributions[i];
        if (c <= 0 || (kept == VERDICT_TERMS && c <= hits.contributions[best[kept - 1]])) {
          continue;
        }
        int at = kept == VERDICT_TERMS ? kept - 1 : kept++;
        while (at > 0 && hits.contributions[best[at - 1]] < c) {
          best[at] = best[at - 1];
          at--;
        }
        best[at] = i;
      }
      List<String> top = new ArrayList<>(kept);
      for (int i = 0; i < kept; i++) {
        String term = model.terms().get(hits.lines[best[i]]).term();
        if (!top.contains(term)) { // one term may count in the subject and in the body
          top.add(term);
        }
      }
      return new SpamVerdict(top, score, probability, probability >= threshold);
    }
  }
}
