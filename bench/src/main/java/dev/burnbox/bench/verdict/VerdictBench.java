package dev.burnbox.bench.verdict;

import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.TermMatcher;
import dev.burnbox.matcher.TermSet;
import dev.burnbox.matcher.TextNormalizer;
import dev.burnbox.server.mime.DecodedMail.ScanParts;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.wordlists.SpamModel;
import dev.burnbox.wordlists.SpamModelFile;
import dev.burnbox.wordlists.SpamTerms;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import org.openjdk.jol.info.GraphLayout;

/**
 * The spam verdict benchmark and the shipped model's derivation, on the SpamAssassin groups
 * easy-ham-2 and spam-2 only, with 5-fold cross-validation (folds fixed by {@link
 * LabelledMail#FOLD_SEED}).
 *
 * <ul>
 *   <li>{@code cv CORPUS OUT}: for each fold, trains the model on the other four, compiles it into
 *       the service's {@link SpamScanner} and scores the fold's raw mails through decode and
 *       verdict, timing that step in CPU time; also scores the built-in term list and a variant
 *       with capped counts. Writes {@code OUT/folds.tsv} (for the SpamAssassin peer), {@code
 *       OUT/burnbox-scores.tsv} and {@code OUT/burnbox-cost.tsv}.
 *   <li>{@code report OUT DOCS COMMAND}: reads those files and SpamAssassin's ({@code OUT/sa/}),
 *       writes the "Spam verdicts" section of {@code DOCS/benchmarks.md} and {@code
 *       DOCS/verdict-roc.png}.
 *   <li>{@code tune CORPUS}: the cross-validated figures of the settings around the shipped ones,
 *       and how each scores short notes (the evidence for {@link ModelTrainer.Settings#SHIPPED}).
 *   <li>{@code derive CORPUS MODEL_FILE}: picks the threshold that flags at most 0.5% of ham in
 *       cross-validation, trains on every mail and writes the model file. Same input, same file.
 * </ul>
 */
public final class VerdictBench {
  /** The false-positive rate the default threshold is chosen for. */
  static final double TARGET_FALSE_POSITIVES = 0.005;

  private VerdictBench() {}

  public static void main(String[] args) throws IOException {
    if (args.length >= 3 && args[0].equals("cv")) {
      crossValidate(Path.of(args[1]), Path.of(args[2]));
    } else if (args.length >= 4 && args[0].equals("report")) {
      VerdictReport.write(Path.of(args[1]), Path.of(args[2]), args[3]);
    } else if (args.length >= 2 && args[0].equals("tune")) {
      tune(Path.of(args[1]));
    } else if (args.length >= 3 && args[0].equals("derive")) {
      derive(Path.of(args[1]), Path.of(args[2]));
    } else {
      System.err.println(
          "usage: VerdictBench cv CORPUS OUT | report OUT DOCS COMMAND | derive CORPUS MODEL_FILE");
      System.exit(2);
    }
  }

  static void crossValidate(Path corpus, Path out) throws IOException {
    Files.createDirectories(out);
    List<LabelledMail> mails = LabelledMail.load(corpus);
    long started = System.nanoTime();
    CrossValidation cv = new CrossValidation(mails);
    System.out.printf(
        Locale.ROOT,
        "decoded %d mails, %d n-gram features, in %.1f s%n",
        mails.size(),
        cv.features.size(),
        (System.nanoTime() - started) / 1e9);

    int n = mails.size();
    double[] model = new double[n];
    double[] trainerScore = new double[n];
    double[] capped = new double[n];
    double[] withMarkup = new double[n];
    double[] builtin = new double[n];
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    MailDecoder decoder = MailDecoder.withDefaults();
    long scanCpu = 0;
    List<String> cost = new ArrayList<>();
    cost.add("fold\tterms\tbuild_ms\theap_bytes\ttrain_s");
    for (int fold = 0; fold < LabelledMail.FOLDS; fold++) {
      long t0 = System.nanoTime();
      ModelTrainer.Trained trained = cv.trainWithout(fold, ModelTrainer.Settings.SHIPPED);
      ModelTrainer.Trained cappedModel =
          cv.trainWithout(fold, ModelTrainer.Settings.SHIPPED.withTf(ModelTrainer.Tf.CAPPED));
      ModelTrainer.Trained markupModel =
          cv.trainWithout(
              fold, ModelTrainer.Settings.SHIPPED.withParts(EnumSet.allOf(SpamModel.Part.class)));
      double trainSeconds = (System.nanoTime() - t0) / 1e9;
      SpamModel spamModel = trained.toSpamModel(cv.features, 0.5, "fold " + fold);
      long b0 = System.nanoTime();
      SpamScanner scanner = SpamScanner.of(null, null, spamModel);
      long buildNanos = System.nanoTime() - b0;
      long heap = GraphLayout.parseInstance(scanner).totalSize();
      cost.add(
          String.format(
              Locale.ROOT,
              "%d\t%d\t%.1f\t%d\t%.1f",
              fold,
              spamModel.terms().size(),
              buildNanos / 1e6,
              heap,
              trainSeconds));
      long c0 = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < n; i++) {
        if (mails.get(i).fold() == fold) {
          model[i] = scanner.score(decoder.decode(mails.get(i).raw()).scanParts()).score();
        }
      }
      scanCpu += threads.getCurrentThreadCpuTime() - c0;
      for (int i = 0; i < n; i++) {
        if (mails.get(i).fold() == fold) {
          trainerScore[i] = trained.score(cv.vectors.get(i));
          capped[i] = cappedModel.score(cv.vectors.get(i));
          withMarkup[i] = markupModel.score(cv.vectors.get(i));
        }
      }
      System.out.printf(
          Locale.ROOT,
          "fold %d: trained in %.1f s, %d terms, built in %.0f ms, %.1f MiB%n",
          fold,
          trainSeconds,
          spamModel.terms().size(),
          buildNanos / 1e6,
          heap / 1048576.0);
    }
    SpamScanner plain =
        SpamScanner.of(null, null, SpamModel.ofPlainTerms(SpamTerms.defaults(), "built-in list"));
    long p0 = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < n; i++) {
      builtin[i] = plain.score(decoder.decode(mails.get(i).raw()).scanParts()).score();
    }
    long plainCpu = threads.getCurrentThreadCpuTime() - p0;
    double maxDifference = 0;
    for (int i = 0; i < n; i++) {
      maxDifference = Math.max(maxDifference, Math.abs(model[i] - trainerScore[i]));
    }
    cost.add(
        String.format(
            Locale.ROOT,
            "# decode+verdict cpu seconds: model %.3f, builtin %.3f, mails %d;"
                + " max |service score - trainer score| %.2e",
            scanCpu / 1e9,
            plainCpu / 1e9,
            n,
            maxDifference));

    try (Writer folds = Files.newBufferedWriter(out.resolve("folds.tsv"));
        Writer scores = Files.newBufferedWriter(out.resolve("burnbox-scores.tsv"))) {
      scores.write("path\tlabel\tfold\tbuiltin\tmodel\tcapped\tmarkup\n");
      for (int i = 0; i < n; i++) {
        LabelledMail m = mails.get(i);
        String label = m.spam() ? "spam" : "ham";
        folds.write(m.path() + "\t" + label + "\t" + m.fold() + "\n");
        scores.write(
            String.format(
                Locale.ROOT,
                "%s\t%s\t%d\t%.6f\t%.6f\t%.6f\t%.6f%n",
                m.path(),
                label,
                m.fold(),
                builtin[i],
                model[i],
                capped[i],
                withMarkup[i]));
      }
    }
    Files.write(out.resolve("burnbox-cost.tsv"), cost, StandardCharsets.UTF_8);
    Files.writeString(out.resolve("normalisation.txt"), normalisationHits(cv));
    System.out.printf(
        Locale.ROOT,
        "scored through the service's scanner: %.0f mails/s per core (built-in list %.0f);"
            + " service vs trainer scores differ by at most %.2e%n",
        n / (scanCpu / 1e9),
        n / (plainCpu / 1e9),
        maxDifference);
  }

  /** Short notes no training mail resembles: how a model scores mail with little evidence. */
  static final List<String> SHORT_NOTES =
      List.of(
          "hello",
          "test",
          "Lunch at noon?",
          "Thanks, got it.",
          "Meeting moved to 3pm",
          "Hi Bob, see you tomorrow. Ann",
          "Your verification code is 123456",
          "Claim your prize now! Click here");

  /**
   * Prints, for each setting of the grid around the shipped one, the cross-validated AUC, recall at
   * 0.1%, 0.5% and 1% false positives, the threshold for 0.5%, and the probability of each of
   * {@link #SHORT_NOTES} under a model trained on every mail: the settings' evidence.
   */
  static void tune(Path corpus) {
    CrossValidation cv = new CrossValidation(LabelledMail.load(corpus));
    ModelTrainer.Settings shipped = ModelTrainer.Settings.SHIPPED;
    List<ModelTrainer.Settings> grid = new ArrayList<>();
    for (double c : new double[] {4, 16, 64, 256, 1024}) {
      for (double smoothing : new double[] {0, 1600, 3200, 6400}) {
        for (boolean intercept : new boolean[] {true, false}) {
          grid.add(
              new ModelTrainer.Settings(
                  shipped.minDocs(),
                  c,
                  shipped.maxTerms(),
                  shipped.tf(),
                  shipped.parts(),
                  intercept,
                  smoothing));
        }
      }
    }
    for (int minDocs : new int[] {3, 10}) {
      grid.add(
          new ModelTrainer.Settings(
              minDocs,
              shipped.c(),
              shipped.maxTerms(),
              shipped.tf(),
              shipped.parts(),
              shipped.intercept(),
              shipped.smoothing()));
    }
    for (int terms : new int[] {5_000, 20_000}) {
      grid.add(
          new ModelTrainer.Settings(
              shipped.minDocs(),
              shipped.c(),
              terms,
              shipped.tf(),
              shipped.parts(),
              shipped.intercept(),
              shipped.smoothing()));
    }
    System.out.println(
        "minDocs\tC\tterms\tintercept\tsmoothing\tAUC\tr@0.1%\tr@0.5%\tr@1%\tthreshold\t"
            + String.join("\t", SHORT_NOTES));
    for (ModelTrainer.Settings s : grid) {
      RocMetrics roc = new RocMetrics(cv.outOfFoldScores(s), cv.spam);
      ModelTrainer.Trained all = cv.trainWithout(-1, s);
      StringBuilder row =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "%d\t%.0f\t%d\t%s\t%.0f\t%.5f\t%.3f\t%.3f\t%.3f\t%.4f",
                  s.minDocs(),
                  s.c(),
                  s.maxTerms(),
                  s.intercept(),
                  s.smoothing(),
                  roc.auc(),
                  roc.recallAtFalsePositiveRate(0.001),
                  roc.recallAtFalsePositiveRate(0.005),
                  roc.recallAtFalsePositiveRate(0.01),
                  SpamModel.probability(
                      roc.thresholdForFalsePositiveRate(TARGET_FALSE_POSITIVES))));
      for (String note : SHORT_NOTES) {
        double score = all.score(cv.features.extract(new ScanParts("", note, "")));
        row.append(String.format(Locale.ROOT, "\t%.3f", SpamModel.probability(score)));
      }
      System.out.println(row);
    }
  }

  /**
   * What the normalisation adds on the training ham: occurrences of the shipped model's body terms
   * in the normalised bodies against plain lower-cased ones, and the ham mails where they differ.
   */
  static String normalisationHits(CrossValidation cv) {
    TextNormalizer normalizer = TextNormalizer.standard();
    List<String> terms =
        SpamModel.defaults().terms().stream()
            .filter(t -> t.part() == SpamModel.Part.BODY)
            .map(t -> normalizer.normalizeTerm(t.term()))
            .distinct()
            .toList();
    TermMatcher matcher = TermMatcher.best(TermSet.of(terms, MatchOptions.EXACT));
    long normalised = 0;
    long plain = 0;
    int ham = 0;
    int differing = 0;
    for (int i = 0; i < cv.mails.size(); i++) {
      if (cv.spam[i]) {
        continue;
      }
      String body = cv.parts.get(i).body();
      long withNormalisation = count(matcher, normalizer.normalize(body).text());
      long without = count(matcher, body.toLowerCase(Locale.ROOT));
      normalised += withNormalisation;
      plain += without;
      ham++;
      differing += withNormalisation != without ? 1 : 0;
    }
    return String.format(
        Locale.ROOT,
        "On the %d training ham mails, the shipped model's body terms occur %,d times in the"
            + " normalised text against %,d in the lower-cased text: the normalisation adds %,d hits"
            + " (%+.2f%%), in %d mails.",
        ham,
        normalised,
        plain,
        normalised - plain,
        100.0 * (normalised - plain) / plain,
        differing);
  }

  private static long count(TermMatcher matcher, String text) {
    long[] n = {0};
    matcher.forEachMatch(text, (term, start, end) -> n[0]++);
    return n[0];
  }

  static void derive(Path corpus, Path modelFile) throws IOException {
    List<LabelledMail> mails = LabelledMail.load(corpus);
    CrossValidation cv = new CrossValidation(mails);
    ModelTrainer.Settings settings = ModelTrainer.Settings.SHIPPED;
    RocMetrics roc = new RocMetrics(cv.outOfFoldScores(settings), cv.spam);
    double scoreThreshold = roc.thresholdForFalsePositiveRate(TARGET_FALSE_POSITIVES);
    double threshold = round(SpamModel.probability(scoreThreshold));
    ModelTrainer.Trained trained = cv.trainWithout(-1, settings);
    SpamModel model = trained.toSpamModel(cv.features, threshold, modelFile.toString());
    int ham = roc.hamCount();
    int spam = roc.spamCount();
    List<String> header =
        List.of(
            "Burnbox's spam model: character n-grams (3 to 5 letters inside words) of the"
                + " normalised "
                + settings.parts().stream()
                    .map(SpamModel.Part::fileName)
                    .collect(java.util.stream.Collectors.joining(" and ")),
            "weighted by L2-regularised logistic regression over tf-idf vectors of unit length"
                + " (LIBLINEAR, cost "
                + settings.c()
                + "), the "
                + settings.maxTerms()
                + " n-grams of largest weight kept, each in at least "
                + settings.minDocs()
                + " training mails; no intercept, smoothing "
                + settings.smoothing()
                + ".",
            "Learned from the SpamAssassin public corpus groups easy-ham-2 ("
                + ham
                + " mails) and spam-2 ("
                + spam
                + " mails) only.",
            String.format(
                Locale.ROOT,
                "Threshold: flags at most %.1f%% of ham in 5-fold cross-validation (seed %d):"
                    + " AUC %.4f, recall %.1f%% there.",
                TARGET_FALSE_POSITIVES * 100,
                LabelledMail.FOLD_SEED,
                roc.auc(),
                roc.recallAtFalsePositiveRate(TARGET_FALSE_POSITIVES) * 100),
            "Generated by wordlists/scripts/derive-model.sh; do not edit by hand.",
            "Format: term TAB weight TAB part TAB idf (see wordlists/README.md).");
    Files.createDirectories(modelFile.toAbsolutePath().getParent());
    try (Writer out = Files.newBufferedWriter(modelFile, StandardCharsets.UTF_8)) {
      SpamModelFile.write(model, header, out);
    }
    System.out.printf(
        Locale.ROOT,
        "wrote %s: %d terms, threshold %s (cross-validated AUC %.4f, recall %.3f at %.1f%% FP)%n",
        modelFile,
        model.terms().size(),
        threshold,
        roc.auc(),
        roc.recallAtFalsePositiveRate(TARGET_FALSE_POSITIVES),
        TARGET_FALSE_POSITIVES * 100);
  }

  private static double round(double value) {
    return Double.parseDouble(String.format(Locale.ROOT, "%.6g", value));
  }
}
