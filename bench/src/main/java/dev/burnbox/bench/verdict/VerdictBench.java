package dev.burnbox.bench.verdict;

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
          model[i] = scanner.scan(decoder.decode(mails.get(i).raw()).scanParts()).score();
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
      builtin[i] = plain.scan(decoder.decode(mails.get(i).raw()).scanParts()).score();
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
    System.out.printf(
        Locale.ROOT,
        "scored through the service's scanner: %.0f mails/s per core (built-in list %.0f);"
            + " service vs trainer scores differ by at most %.2e%n",
        n / (scanCpu / 1e9),
        n / (plainCpu / 1e9),
        maxDifference);
  }

  /** Prints the cross-validated AUC and recall of the shipped form over a grid of settings. */
  static void tune(Path corpus) {
    CrossValidation cv = new CrossValidation(LabelledMail.load(corpus));
    ModelTrainer.Settings base = ModelTrainer.Settings.SHIPPED;
    if (System.getProperty("short") != null) {
      String[] texts = {
        "hello",
        "Lunch at noon?",
        "Noon at the usual place?",
        "test",
        "hi",
        "Your verification code is 123456",
        "Hi Bob, see you tomorrow. Ann",
        "Thanks, got it.",
        "Meeting moved to 3pm",
        "Claim your prize now! Click here",
      };
      ModelTrainer.Trained probe = cv.trainWithout(-1, base);
      double[] lengths =
          cv.vectors.stream().mapToDouble(v -> probe.squaredLength(v)).sorted().toArray();
      System.out.printf(
          Locale.ROOT,
          "squared vector length of training mails: p5 %.0f p25 %.0f median %.0f p75 %.0f%n",
          lengths[lengths.length / 20],
          lengths[lengths.length / 4],
          lengths[lengths.length / 2],
          lengths[3 * lengths.length / 4]);
      for (String text : texts) {
        System.out.printf(
            Locale.ROOT,
            "   %-40s squared length %.0f%n",
            text,
            probe.squaredLength(
                cv.features.extract(
                    new dev.burnbox.server.mime.DecodedMail.ScanParts("", text, ""))));
      }
      for (double[] grid :
          new double[][] {
            {1600, 64}, {3200, 64}, {6400, 64}, {3200, 256}, {6400, 256}, {3200, 16}
          }) {
        double smoothing = grid[0];
        boolean intercept = false;
        ModelTrainer.Settings s =
            new ModelTrainer.Settings(
                    base.minDocs(), grid[1], base.maxTerms(), base.tf(), base.parts(), false, 0)
                .withSmoothing(smoothing);
        System.out.println("C " + grid[1]);
        RocMetrics roc = new RocMetrics(cv.outOfFoldScores(s), cv.spam);
        double cut = roc.thresholdForFalsePositiveRate(TARGET_FALSE_POSITIVES);
        ModelTrainer.Trained t = cv.trainWithout(-1, s);
        System.out.printf(
            Locale.ROOT,
            "smoothing %.0f intercept %s: AUC %.5f recall@0.5%% %.3f threshold p %.4f (score %.3f),"
                + " b %.3f%n",
            smoothing,
            intercept,
            roc.auc(),
            roc.recallAtFalsePositiveRate(TARGET_FALSE_POSITIVES),
            SpamModel.probability(cut),
            cut,
            t.intercept());
        for (String text : texts) {
          double score =
              t.score(
                  cv.features.extract(
                      new dev.burnbox.server.mime.DecodedMail.ScanParts("", text, "")));
          System.out.printf(Locale.ROOT, "   %-40s p %.3f%n", text, SpamModel.probability(score));
        }
      }
      return;
    }
    for (int minDocs : new int[] {3, 5, 10}) {
      for (double c : new double[] {1, 4, 16, 64}) {
        for (int terms : new int[] {5_000, 10_000, 20_000}) {
          ModelTrainer.Settings s =
              new ModelTrainer.Settings(
                  minDocs, c, terms, base.tf(), base.parts(), base.intercept(), base.smoothing());
          RocMetrics roc = new RocMetrics(cv.outOfFoldScores(s), cv.spam);
          System.out.printf(
              Locale.ROOT,
              "minDocs %2d  C %4.0f  terms %6d  AUC %.5f  recall@0.1%% %.3f  @0.5%% %.3f  @1%% %.3f%n",
              minDocs,
              c,
              terms,
              roc.auc(),
              roc.recallAtFalsePositiveRate(0.001),
              roc.recallAtFalsePositiveRate(0.005),
              roc.recallAtFalsePositiveRate(0.01));
        }
      }
    }
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
