package dev.burnbox.server.pipeline;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.matcher.NormalizedText;
import dev.burnbox.matcher.TermCounts;
import dev.burnbox.matcher.TermMatcher;
import dev.burnbox.matcher.TermSet;
import dev.burnbox.matcher.TextNormalizer;
import dev.burnbox.server.mime.DecodedMail;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

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
 *
 * <p>Copies are scored once: the verdicts of recently scanned texts are kept with the model (up to
 * {@value #RECENT_CHARS} chars of text in all, texts of at most {@value #RECENT_TEXT_MAX} chars),
 * so a campaign's copies, which differ in their headers but not in the parts the model reads, cost
 * a hash and one comparison of their text each after the first. The verdict is the same as scoring
 * again would give: it depends on nothing but that text and the model, and a new model starts with
 * none kept.
 */
public final class SpamScanner {
  /** How many terms a stored verdict keeps for the inbox badge. */
  public static final int VERDICT_TERMS = 5;

  /**
   * How many of the strongest terms a verdict's few are chosen from: an n-gram model's strongest
   * are often pieces of one word, which is named once.
   */
  private static final int VERDICT_CANDIDATES = 3 * VERDICT_TERMS;

  /** The longest word a verdict names for an n-gram; a longer one is named by the n-gram. */
  static final int WORD_MAX = 32;

  /**
   * The most chars of the mail a word named for an n-gram may span as written (its {@value
   * #WORD_MAX} letters and digits with the separators, marks and invisible characters between
   * them); a word written longer is named by the n-gram.
   */
  static final int WRITTEN_MAX = 4 * WORD_MAX;

  private static final double[] LOG_TF = new double[256];

  static {
    for (int n = 1; n < LOG_TF.length; n++) {
      LOG_TF[n] = 1 + Math.log(n);
    }
  }

  private static final TextNormalizer NORMALIZER = TextNormalizer.standard();

  /** How many chars of scanned text the recent verdicts may hold in all: 2 to 4 MiB. */
  static final int RECENT_CHARS = 1 << 21;

  /** The longest text whose verdict is kept; longer mail is rare and scored each time. */
  static final int RECENT_TEXT_MAX = 1 << 16;

  private final MatcherKind kind;
  private final Double thresholdOverride;
  private final AtomicReference<CompiledModel> current;
  private final LongAdder keptVerdicts = new LongAdder();
  private final LongAdder scoredVerdicts = new LongAdder();
  private final CompletableFuture<CompiledModel> first; // the first model, done unless compiling

  /** The first model is in {@code first} only: a background compile may fail at any moment. */
  private SpamScanner(
      MatcherKind kind, Double thresholdOverride, CompletableFuture<CompiledModel> first) {
    this.kind = kind;
    this.thresholdOverride = thresholdOverride;
    this.current = new AtomicReference<>();
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

  /**
   * The stored verdict of a message's parts: score, probability, spam or not, and the {@value
   * #VERDICT_TERMS} terms that pushed it most towards spam, strongest first; for a model of
   * character n-grams, the words that hold them, as the mail writes them ({@code Click} for its
   * n-grams {@code clic}, {@code lick} and {@code ick}; {@code word345}, which the model read as
   * {@code wordeas}), each named once however differently written.
   */
  public SpamVerdict scan(ScanParts parts) {
    CompiledModel model = model();
    ScanParts read = model.readPartsOf(parts);
    RecentText key = new RecentText(false, read.subject(), read.body(), read.markup());
    return scan(model, key, () -> read);
  }

  /**
   * {@link #scan(ScanParts)} of {@code mail}'s {@link DecodedMail#scanParts()}, which are worked
   * out (its HTML parsed, the costliest step for HTML mail) only when no verdict is kept for its
   * decoded subject, scanned text and scanned HTML.
   */
  public SpamVerdict scan(DecodedMail mail) {
    CompiledModel model = model();
    RecentText key =
        new RecentText(
            true,
            model.reads(Part.SUBJECT) ? mail.subject() : "",
            model.reads(Part.BODY) ? mail.scannedText() : "",
            model.reads(Part.BODY) || model.reads(Part.MARKUP) ? mail.scannedHtml() : "");
    return scan(model, key, () -> model.readPartsOf(mail.scanParts()));
  }

  private SpamVerdict scan(CompiledModel model, RecentText key, Supplier<ScanParts> parts) {
    SpamVerdict known = model.recent().getIfPresent(key);
    if (known != null) {
      keptVerdicts.increment();
      return known;
    }
    scoredVerdicts.increment();
    SpamVerdict verdict = score(model, parts.get());
    if (key.chars() <= RECENT_TEXT_MAX) {
      model.recent().put(key, verdict);
    }
    return verdict;
  }

  /**
   * What a kept verdict is kept under: the three texts the model reads, either a mail's parts as
   * scanned ({@code decoded} false: subject, body, markup) or its decoded texts ({@code decoded}
   * true: subject, scanned text, scanned HTML); the two never share a key.
   */
  private record RecentText(boolean decoded, String subject, String second, String third) {
    int chars() {
      return subject.length() + second.length() + third.length();
    }
  }

  /**
   * The verdict {@link #scan} gives, always scored afresh and not kept: what benchmarks of the
   * scoring itself measure.
   */
  public SpamVerdict score(ScanParts parts) {
    return score(model(), parts);
  }

  private static SpamVerdict score(CompiledModel model, ScanParts parts) {
    Hits hits = model.count(parts);
    try {
      return model.verdict(hits);
    } finally {
      model.giveBack(hits);
    }
  }

  /** How many {@link #scan}s gave a kept verdict (a copy's) since this scanner was made. */
  public long keptVerdicts() {
    return keptVerdicts.sum();
  }

  /** How many {@link #scan}s scored their text since this scanner was made. */
  public long scoredVerdicts() {
    return scoredVerdicts.sum();
  }

  /**
   * The full explanation of a message's verdict with the model in use now: every term found, with
   * its part, count, weight and contribution to the score, strongest contribution (either way)
   * first.
   */
  public SpamExplanation explain(ScanParts parts) {
    CompiledModel model = model();
    Hits hits = model.count(parts); // not given back: explaining is rare
    SpamVerdict verdict = model.verdict(hits);
    return new SpamExplanation(
        verdict.score(),
        verdict.probability(),
        model.threshold(),
        verdict.spam(),
        model.model().intercept(),
        model.explain(hits));
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
    if (text.isEmpty()) {
      return List.of();
    }
    NormalizedText normalized = NORMALIZER.normalize(text);
    String scanned = normalized.text();
    // the matches of every pass that counts in this part ({start, end, pass, term}), in the
    // matchers' order: by end, then start
    List<int[]> matches = new ArrayList<>();
    for (int p = 0; p < model.passes().length; p++) {
      int pass = p;
      if (model.passes()[p].source().covers(part)) {
        model
            .passes()[p]
            .matcher()
            .forEachMatch(
                scanned, (term, start, end) -> matches.add(new int[] {start, end, pass, term}));
      }
    }
    matches.sort(Comparator.<int[]>comparingInt(m -> m[1]).thenComparingInt(m -> m[0]));
    List<Highlight> out = new ArrayList<>();
    int openStart = -1; // the range being merged, normalised offsets
    int openEnd = -1;
    double weight = 0;
    Set<String> termsInRange = new LinkedHashSet<>();
    for (int[] match : matches) {
      // An n-gram marks its whole word: "cheap", not "c" left out of "heap". openStart and
      // openEnd are word edges (no letter just outside), so the word of a match that starts
      // inside the open range starts there too, and the word of a match that ends before
      // openEnd ends before it too: only a match reaching out of the range walks, and only the
      // chars outside it, so a long word is walked once, not once for each of its matches.
      int start = match[0];
      if (openStart >= 0 && start > openStart && start <= openEnd) {
        // its word starts in [openStart, start]; it starts at openEnd only if start does
        start = start == openEnd && !letterBefore(scanned, start) ? openEnd : openStart;
      } else {
        while (letterBefore(scanned, start)) {
          start--;
        }
      }
      int end = match[1];
      if (end > openEnd) {
        while (end < scanned.length() && Character.isLetter(scanned.charAt(end))) {
          end++;
        }
      }
      if (openStart >= 0 && start >= openEnd) {
        out.add(range(normalized, openStart, openEnd, weight, termsInRange));
        openStart = -1;
        weight = 0;
        termsInRange.clear();
      }
      openStart = openStart < 0 ? start : Math.min(openStart, start);
      openEnd = Math.max(openEnd, end);
      for (int line : model.passes()[match[2]].lines()[match[3]]) {
        WeightedTerm term = model.model().terms().get(line);
        weight += term.weight();
        termsInRange.add(term.term());
      }
    }
    if (openStart >= 0) {
      out.add(range(normalized, openStart, openEnd, weight, termsInRange));
    }
    return out;
  }

  /** Whether the char before {@code i} is a letter. */
  private static boolean letterBefore(String text, int i) {
    return i > 0 && Character.isLetter(text.charAt(i - 1));
  }

  private static Highlight range(
      NormalizedText normalized, int start, int end, double weight, Set<String> terms) {
    return new Highlight(
        normalized.originalStart(start), normalized.originalEnd(end), weight, List.copyOf(terms));
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
    ScanPass[] passes = model().passes();
    return passes.length > 0 ? passes[0].matcher().kind() : kind;
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

  /**
   * The text each pass scans: one part, or for {@link Part#ANY} terms the three parts joined by
   * line feeds, which no term of a line-based file can contain, so such a term is counted once
   * wherever it occurs and never across two parts.
   */
  private static final Part[] SOURCES = {Part.SUBJECT, Part.BODY, Part.MARKUP, Part.ANY};

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
    boolean tfidf = model.scoring() == Scoring.TFIDF_L2;
    List<ScanPass> passes = new ArrayList<>();
    for (Part source : SOURCES) {
      Map<String, List<Integer>> linesByTerm = new LinkedHashMap<>();
      for (int line = 0; line < terms.size(); line++) {
        if (terms.get(line).part() == source) {
          linesByTerm.computeIfAbsent(normalized[line], t -> new ArrayList<>()).add(line);
        }
      }
      if (linesByTerm.isEmpty()) {
        continue;
      }
      TermSet set = TermSet.of(linesByTerm.keySet(), options);
      int[][] lines = new int[set.size()][];
      double[] values = new double[2 * set.size()];
      for (int t = 0; t < set.size(); t++) {
        lines[t] = linesByTerm.get(set.term(t)).stream().mapToInt(Integer::intValue).toArray();
        for (int line : lines[t]) {
          WeightedTerm term = terms.get(line);
          values[2 * t] += term.weight() * (tfidf ? term.idf() : 1);
          values[2 * t + 1] += tfidf ? term.idf() * term.idf() : 0;
        }
      }
      TermMatcher matcher = kind == null ? TermMatcher.best(set) : kind.compile(set);
      passes.add(new ScanPass(source, matcher, lines, values));
    }
    return new CompiledModel(
        model, passes.toArray(ScanPass[]::new), threshold != null ? threshold : model.threshold());
  }

  /**
   * One matcher pass of a scan: the model's terms of exactly one {@link #SOURCES source}, for each
   * of the matcher's terms the model lines it stands for (usually one), and what a hit of it adds,
   * side by side so that scoring a hit reads one cache line: {@code values[2t]} is the sum of
   * weight x idf over its lines (the sum of weights when counts are capped), {@code values[2t + 1]}
   * the sum of idf².
   */
  private record ScanPass(Part source, TermMatcher matcher, int[][] lines, double[] values) {}

  /**
   * A scan's distinct hits, each a term of one pass with its count and contribution to the score,
   * in the order they were found; reused from scan to scan.
   */
  private static final class Hits {
    final TermCounts found; // one pass's matcher terms, counted and cleared pass by pass
    int size;
    int[] passes = new int[64];
    int[] terms = new int[64];
    int[] counts = new int[64];
    double[] contributions = new double[64];
    double norm; // what every contribution was divided by
    final String[] texts; // the normalised text each pass scanned, for the words of its hits
    NormalizedText subject; // the parts as normalised, for the words as written; null if unread
    NormalizedText body;
    NormalizedText markup;

    Hits(int passTerms, int passes) {
      found = new TermCounts(passTerms);
      texts = new String[passes];
    }

    void add(int pass, int term, int count, double contribution) {
      if (size == terms.length) {
        passes = Arrays.copyOf(passes, size * 2);
        terms = Arrays.copyOf(terms, size * 2);
        counts = Arrays.copyOf(counts, size * 2);
        contributions = Arrays.copyOf(contributions, size * 2);
      }
      passes[size] = pass;
      terms[size] = term;
      counts[size] = count;
      contributions[size++] = contribution;
    }
  }

  /** A model ready to score: its passes, and spare {@link Hits} for the next scans. */
  private record CompiledModel(
      SpamModel model,
      ScanPass[] passes,
      double threshold,
      boolean tfidf,
      int passTerms,
      Queue<Hits> spare,
      AtomicInteger spareCount,
      Cache<RecentText, SpamVerdict> recent) {
    /** The most {@link Hits} kept for reuse, about the scans that run at once. */
    static final int SPARE_HITS = 64;

    CompiledModel(SpamModel model, ScanPass[] passes, double threshold) {
      this(
          model,
          passes,
          threshold,
          model.scoring() == Scoring.TFIDF_L2,
          Arrays.stream(passes).mapToInt(pass -> pass.matcher().terms().size()).max().orElse(0),
          new ConcurrentLinkedQueue<>(),
          new AtomicInteger(),
          Caffeine.newBuilder()
              .maximumWeight(RECENT_CHARS)
              .<RecentText, SpamVerdict>weigher((text, verdict) -> text.chars())
              .executor(Runnable::run) // upkeep on the scanning thread, not the common pool
              .build());
    }

    /** Whether a pass reads {@code part} (one of the concrete parts). */
    boolean reads(Part part) {
      for (ScanPass pass : passes) {
        if (pass.source().covers(part)) {
          return true;
        }
      }
      return false;
    }

    /** {@code parts} with the parts no pass reads left empty: what the verdict depends on. */
    ScanParts readPartsOf(ScanParts parts) {
      boolean subject = reads(Part.SUBJECT);
      boolean body = reads(Part.BODY);
      boolean markup = reads(Part.MARKUP);
      if (subject && body && markup) {
        return parts;
      }
      return new ScanParts(
          subject ? parts.subject() : "", body ? parts.body() : "", markup ? parts.markup() : "");
    }

    /**
     * Counts every pass's terms and scores each distinct hit: {@code x} is {@code 1 + ln n}
     * (tf-idf) or {@code min(n, 3)} (capped) for a count {@code n}, a hit adds {@code values[2t] x
     * / norm} to the score, and the norm is {@code sqrt(sum of values[2t + 1] x² + smoothing)}
     * (tf-idf) or 1.
     */
    Hits count(ScanParts text) {
      Hits reused = spare.poll();
      if (reused != null) {
        spareCount.decrementAndGet();
      }
      Hits hits = reused != null ? reused : new Hits(passTerms, passes.length);
      String subject = null;
      String body = null;
      String markup = null;
      double squares = 0;
      for (int p = 0; p < passes.length; p++) {
        ScanPass pass = passes[p];
        Part source = pass.source();
        if (subject == null && source.covers(Part.SUBJECT)) {
          hits.subject = NORMALIZER.normalize(text.subject());
          subject = hits.subject.text();
        }
        if (body == null && source.covers(Part.BODY)) {
          hits.body = NORMALIZER.normalize(text.body());
          body = hits.body.text();
        }
        if (markup == null && source.covers(Part.MARKUP)) {
          hits.markup = NORMALIZER.normalize(text.markup());
          markup = hits.markup.text();
        }
        String scanned =
            switch (source) {
              case SUBJECT -> subject;
              case BODY -> body;
              case MARKUP -> markup;
              case ANY -> subject + '\n' + body + '\n' + markup;
            };
        hits.texts[p] = scanned;
        if (scanned.isEmpty()) {
          continue;
        }
        TermCounts found = hits.found;
        pass.matcher().count(scanned, found);
        double[] values = pass.values();
        for (int i = 0; i < found.distinct(); i++) {
          int term = found.term(i);
          int count = found.count(term);
          double x = tfidf ? logTf(count) : Math.min(count, 3);
          hits.add(p, term, count, values[2 * term] * x);
          squares += values[2 * term + 1] * x * x;
        }
        found.clear();
      }
      hits.norm = tfidf ? Math.sqrt(squares + model.smoothing()) : 1;
      if (tfidf) {
        for (int i = 0; i < hits.size; i++) {
          hits.contributions[i] /= hits.norm;
        }
      }
      return hits;
    }

    /**
     * Keeps {@code hits}, emptied, for the next scan if fewer than {@value #SPARE_HITS} are kept: a
     * scan then allocates nothing proportional to the model.
     */
    void giveBack(Hits hits) {
      hits.size = 0;
      Arrays.fill(hits.texts, null); // no mail's text kept past its scan
      hits.subject = null;
      hits.body = null;
      hits.markup = null;
      if (spareCount.get() < SPARE_HITS) {
        spareCount.incrementAndGet();
        spare.offer(hits);
      }
    }

    /** {@code 1 + ln n}, from a table for the usual small counts. */
    private static double logTf(int count) {
      return count < LOG_TF.length ? LOG_TF[count] : 1 + Math.log(count);
    }

    /** The model term a hit shows as: its first line's. */
    String termOf(Hits hits, int i) {
      return model.terms().get(passes[hits.passes[i]].lines()[hits.terms[i]][0]).term();
    }

    /** Each model line behind every hit, with what it added to the score, strongest first. */
    List<SpamExplanation.TermHit> explain(Hits hits) {
      String[][] words = model.match() == SpamModel.Match.SUBSTRINGS ? firstWords(hits) : null;
      List<SpamExplanation.TermHit> terms = new ArrayList<>(hits.size);
      for (int i = 0; i < hits.size; i++) {
        int count = hits.counts[i];
        double x = tfidf ? logTf(count) : Math.min(count, 3);
        String word = words == null ? null : words[hits.passes[i]][hits.terms[i]];
        for (int line : passes[hits.passes[i]].lines()[hits.terms[i]]) {
          WeightedTerm term = model.terms().get(line);
          double contribution =
              tfidf ? term.weight() * (term.idf() * x) / hits.norm : term.weight() * x;
          terms.add(
              new SpamExplanation.TermHit(
                  term.term(),
                  term.part().fileName(),
                  count,
                  term.weight(),
                  contribution,
                  word != null ? word : term.term()));
        }
      }
      terms.sort(
          Comparator.comparingDouble((SpamExplanation.TermHit t) -> -Math.abs(t.contribution()))
              .thenComparing(SpamExplanation.TermHit::term));
      return terms;
    }

    SpamVerdict verdict(Hits hits) {
      double score = model.intercept();
      for (int i = 0; i < hits.size; i++) {
        score += hits.contributions[i];
      }
      double probability = SpamModel.probability(score);
      // the strongest positive contributions, by insertion into a short sorted array: O(n)
      int[] best = new int[VERDICT_CANDIDATES];
      int kept = 0;
      for (int i = 0; i < hits.size; i++) {
        double c = hits.contributions[i];
        if (c <= 0 || (kept == best.length && c <= hits.contributions[best[kept - 1]])) {
          continue;
        }
        int at = kept == best.length ? kept - 1 : kept++;
        while (at > 0 && hits.contributions[best[at - 1]] < c) {
          best[at] = best[at - 1];
          at--;
        }
        best[at] = i;
      }
      boolean ngrams = model.match() == SpamModel.Match.SUBSTRINGS;
      List<String> top = new ArrayList<>(VERDICT_TERMS);
      // one term may count in two parts, two n-grams in one word, one word be written two ways
      Set<String> named = new HashSet<>(); // as normalised
      for (int i = 0; i < kept && top.size() < VERDICT_TERMS; i++) {
        String term = ngrams ? null : termOf(hits, best[i]);
        Word word = ngrams ? wordOf(hits, best[i]) : new Word(term, term);
        if (named.add(word.normalized())) {
          top.add(word.written());
        }
      }
      return new SpamVerdict(top, score, probability, probability >= threshold);
    }

    /**
     * The word an n-gram hit stands for on a badge, as normalised and as the mail writes it: the
     * first word (letters and digits) of its part's normalised text that holds the n-gram ({@code
     * click} for {@code clic} and {@code lick}, {@code paypa1} for {@code ypa}) and the chars of
     * the mail it was read from ({@code Click}, {@code PayPa1}); or the n-gram itself, twice, if
     * that word is over {@value #WORD_MAX} characters or written over {@value #WRITTEN_MAX}.
     */
    private Word wordOf(Hits hits, int i) {
      int pass = hits.passes[i];
      String text = hits.texts[pass];
      String ngram = passes[pass].matcher().terms().term(hits.terms[i]);
      int at = text.indexOf(ngram); // found: it was counted
      int[] word = at < 0 ? null : wordAround(text, at, at + ngram.length());
      String written = word == null ? null : written(hits, pass, word[0], word[1]);
      if (written == null) {
        String term = termOf(hits, i);
        return new Word(term, term);
      }
      return new Word(text.substring(word[0], word[1]), written);
    }

    /** A word of a mail as the model read it and as the mail writes it. */
    private record Word(String normalized, String written) {}

    /**
     * How the mail writes {@code [start, end)} of pass {@code pass}'s normalised text: the chars of
     * its part (the subject, body or markup as given) that it was read from, format characters
     * (zero-width, bidi controls, soft hyphens: invisible, or turning the text shown around) left
     * out; null if they span over {@value #WRITTEN_MAX} chars or are all invisible.
     */
    private String written(Hits hits, int pass, int start, int end) {
      NormalizedText part;
      int offset = 0; // where the part starts in the pass's text
      switch (passes[pass].source()) {
        case SUBJECT -> part = hits.subject;
        case BODY -> part = hits.body;
        case MARKUP -> part = hits.markup;
        default -> { // subject, body and markup joined by line feeds, which no word holds
          int bodyStart = hits.subject.text().length() + 1;
          int markupStart = bodyStart + hits.body.text().length() + 1;
          part = start < bodyStart ? hits.subject : start < markupStart ? hits.body : hits.markup;
          offset = start < bodyStart ? 0 : start < markupStart ? bodyStart : markupStart;
        }
      }
      int from = part.originalStart(start - offset);
      int to = part.originalEnd(end - offset);
      if (to - from > WRITTEN_MAX) {
        return null;
      }
      String original = part.original();
      StringBuilder word = new StringBuilder(to - from);
      for (int at = from; at < to; at += Character.charCount(original.codePointAt(at))) {
        int c = original.codePointAt(at);
        if (Character.getType(c) != Character.FORMAT) {
          word.appendCodePoint(c);
        }
      }
      return word.isEmpty() ? null : word.toString();
    }

    /**
     * The word of every term of every pass, in one matcher pass over each part, indexed by pass and
     * matcher term: the first word (letters and digits) of the normalised text that holds the term
     * and is at most {@value #WORD_MAX} characters (and written in at most {@value #WRITTEN_MAX}),
     * as the mail writes it; null for a term not found or found only in longer words. Linear in the
     * text and its matches, however long its words, where {@link #wordOf} for each of a long mail's
     * thousands of hits would read the text once per hit: a match reads at most {@value #WORD_MAX}
     * + 1 chars either side of it, and {@value #WRITTEN_MAX} of the mail.
     */
    private String[][] firstWords(Hits hits) {
      String[][] words = new String[passes.length][];
      for (int p = 0; p < passes.length; p++) {
        int pass = p;
        String text = hits.texts[p];
        if (text == null || text.isEmpty()) {
          continue;
        }
        String[] first = new String[passes[p].matcher().terms().size()];
        passes[p]
            .matcher()
            .forEachMatch(
                text,
                (term, start, end) -> {
                  if (first[term] == null) {
                    int[] word = wordAround(text, start, end);
                    first[term] = word == null ? null : written(hits, pass, word[0], word[1]);
                  }
                });
        words[p] = first;
      }
      return words;
    }

    /**
     * Where the letters and digits around {@code text[start, end)} start and end, or null if over
     * {@value #WORD_MAX} characters. Reads at most {@value #WORD_MAX} + 1 chars either side,
     * however long the word.
     */
    private static int[] wordAround(String text, int start, int end) {
      int leftmost = Math.max(0, end - WORD_MAX - 1); // from there on the word is too long
      while (start > leftmost && Character.isLetterOrDigit(text.charAt(start - 1))) {
        start--;
      }
      int rightmost = Math.min(text.length(), start + WORD_MAX + 1);
      while (end < rightmost && Character.isLetterOrDigit(text.charAt(end))) {
        end++;
      }
      return end - start <= WORD_MAX ? new int[] {start, end} : null;
    }
  }
}
