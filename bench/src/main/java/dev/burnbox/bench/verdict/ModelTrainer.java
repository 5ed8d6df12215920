package dev.burnbox.bench.verdict;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;
import dev.burnbox.wordlists.SpamModel;
import dev.burnbox.wordlists.SpamModel.Part;
import dev.burnbox.wordlists.SpamModel.WeightedTerm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Learns a spam model from labelled feature vectors: L2-regularised logistic regression (LIBLINEAR,
 * through its Java port) over tf-idf vectors normalised to unit length, on the n-grams found in at
 * least {@code minDocs} training mails; then keeps the {@code maxTerms} n-grams of largest weight
 * and learns again on those alone, so that the shipped model's vectors are normalised over exactly
 * the terms a scanner will find. Deterministic: the same input gives the same model.
 */
final class ModelTrainer {
  /** How a count becomes a term's value before normalisation. */
  enum Tf {
    /** {@code 1 + ln n}: the shipped form ({@link SpamModel.Scoring#TFIDF_L2}). */
    LOG,
    /** {@code min(n, 3)}: measured for comparison only. */
    CAPPED
  }

  /**
   * @param minDocs the fewest training mails an n-gram must occur in to be a candidate
   * @param c LIBLINEAR's cost: larger means less regularisation
   * @param maxTerms the most terms the model keeps
   * @param tf how counts become values
   * @param parts the parts whose n-grams are candidates
   * @param intercept whether an intercept is learned; without one, a mail with no hits scores 0
   * @param smoothing added to a vector's squared length before dividing by its square root: a mail
   *     with little evidence (a short one) is pulled towards a score of 0
   */
  record Settings(
      int minDocs,
      double c,
      int maxTerms,
      Tf tf,
      Set<Part> parts,
      boolean intercept,
      double smoothing) {
    /**
     * The settings of the shipped model. Its parts are the subject and the body only: the markup
     * part is left out because the only ham it may learn from (easy-ham-2) is plain text (15 of
     * 1,400 mails have an HTML part, against 773 of 1,396 spam), so every markup n-gram learns
     * "HTML means spam", the very mistake a model must not make on legitimate newsletters.
     *
     * <p>No intercept and a smoothing of 3,200 (a quarter to a half of a training mail's squared
     * vector length: median 7,000, 5th percentile 1,650): the training mail is all long, so without
     * these a five-word note ("Meeting moved to 3pm", "Hi Bob, see you tomorrow") was scored as
     * surely as a whole letter, and mostly as spam (p 0.79 to 0.99, the intercept alone 0.79). With
     * them a mail without hits scores 0 (p 0.5, below the threshold) and a short one stays near it.
     * Cost and C (256) were chosen by the cross-validated AUC and recall at 0.5% false positives
     * over C in {1, 4, 16, 64, 256}, minimum documents in {3, 5, 10}, terms in {5,000, 10,000,
     * 20,000} and smoothing in {0, 100, 400, 1,600, 3,200, 6,400} ({@code VerdictBench tune}).
     */
    static final Settings SHIPPED =
        new Settings(5, 256, 10_000, Tf.LOG, EnumSet.of(Part.SUBJECT, Part.BODY), false, 3200);

    Settings withTf(Tf other) {
      return new Settings(minDocs, c, maxTerms, other, parts, intercept, smoothing);
    }

    Settings withParts(Set<Part> other) {
      return new Settings(minDocs, c, maxTerms, tf, other, intercept, smoothing);
    }

    Settings withIntercept(boolean other) {
      return new Settings(minDocs, c, maxTerms, tf, parts, other, smoothing);
    }

    Settings withSmoothing(double other) {
      return new Settings(minDocs, c, maxTerms, tf, parts, intercept, other);
    }
  }

  /**
   * A trained model over feature ids.
   *
   * @param ids feature ids, ascending
   * @param weights their weights
   * @param idf their inverse document frequencies
   * @param intercept the score of a mail without hits
   * @param tf how counts become values
   */
  record Trained(
      int[] ids, double[] weights, double[] idf, double intercept, Tf tf, double smoothing) {
    /** The score of {@code mail}: intercept plus weights times its normalised tf-idf values. */
    double score(NgramFeatures.Vector mail) {
      double[] dotAndSquares = new double[2];
      forEachValue(
          mail,
          ids,
          idf,
          tf,
          (j, value) -> {
            dotAndSquares[0] += weights[j] * value;
            dotAndSquares[1] += value * value;
          });
      double squares = dotAndSquares[1];
      return squares == 0
          ? intercept
          : intercept + dotAndSquares[0] / Math.sqrt(squares + smoothing);
    }

    /** The squared length of {@code mail}'s unnormalised tf-idf vector over this model's terms. */
    double squaredLength(NgramFeatures.Vector mail) {
      double[] squares = new double[1];
      forEachValue(mail, ids, idf, tf, (j, value) -> squares[0] += value * value);
      return squares[0];
    }

    /** The model as the service reads it. */
    SpamModel toSpamModel(NgramFeatures features, double threshold, String source) {
      if (tf != Tf.LOG) {
        throw new IllegalStateException("only the log form is a service scoring form");
      }
      List<WeightedTerm> terms = new ArrayList<>(ids.length);
      Integer[] order = IntStream.range(0, ids.length).boxed().toArray(Integer[]::new);
      Arrays.sort(
          order,
          Comparator.comparingDouble((Integer i) -> -Math.abs(weights[i]))
              .thenComparing(i -> features.term(ids[i]))
              .thenComparing(i -> features.part(ids[i])));
      for (int i : order) {
        terms.add(
            new WeightedTerm(
                features.term(ids[i]), round(weights[i]), features.part(ids[i]), round(idf[i])));
      }
      return new SpamModel(
          terms,
          SpamModel.Scoring.TFIDF_L2,
          round(intercept),
          threshold,
          SpamModel.Match.SUBSTRINGS,
          source,
          smoothing);
    }
  }

  private ModelTrainer() {}

  /** Trains on {@code mails} (vectors) with labels {@code spam}. */
  static Trained train(
      List<NgramFeatures.Vector> mails, boolean[] spam, NgramFeatures features, Settings settings) {
    int featureCount = features.size();
    int[] docs = new int[featureCount];
    for (NgramFeatures.Vector mail : mails) {
      for (int id : mail.ids()) {
        docs[id]++;
      }
    }
    int[] candidates =
        IntStream.range(0, featureCount)
            .filter(id -> docs[id] >= settings.minDocs())
            .filter(id -> settings.parts().contains(features.part(id)))
            .toArray();
    double[] idf = new double[candidates.length];
    for (int j = 0; j < candidates.length; j++) {
      idf[j] = Math.log((1.0 + mails.size()) / (1.0 + docs[candidates[j]])) + 1;
    }
    double[] all = fit(mails, spam, candidates, idf, settings);

    Integer[] order = IntStream.range(0, candidates.length).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingDouble((Integer j) -> -Math.abs(all[j])));
    int keep = Math.min(settings.maxTerms(), candidates.length);
    int[] kept = Arrays.stream(order, 0, keep).mapToInt(Integer::intValue).sorted().toArray();
    int[] ids = Arrays.stream(kept).map(j -> candidates[j]).toArray();
    double[] keptIdf = Arrays.stream(kept).mapToDouble(j -> idf[j]).toArray();
    double[] w = fit(mails, spam, ids, keptIdf, settings);
    return new Trained(
        ids,
        Arrays.copyOf(w, ids.length),
        keptIdf,
        w[ids.length],
        settings.tf(),
        settings.smoothing());
  }

  /** Weights for {@code ids} and, last, the intercept. */
  private static double[] fit(
      List<NgramFeatures.Vector> mails,
      boolean[] spam,
      int[] ids,
      double[] idf,
      Settings settings) {
    Problem problem = new Problem();
    problem.l = mails.size();
    problem.n = settings.intercept() ? ids.length + 1 : ids.length;
    problem.bias = settings.intercept() ? 1 : -1;
    problem.x = new Feature[mails.size()][];
    problem.y = new double[mails.size()];
    for (int m = 0; m < mails.size(); m++) {
      problem.x[m] = vector(mails.get(m), ids, idf, settings);
      problem.y[m] = spam[m] ? 1 : -1;
    }
    Linear.disableDebugOutput();
    Linear.resetRandom();
    de.bwaldvogel.liblinear.Model model =
        Linear.train(problem, new Parameter(SolverType.L2R_LR, settings.c(), 0.001));
    double[] w = model.getFeatureWeights(); // for the first label seen: flip if that was ham
    double sign = model.getLabels()[0] == 1 ? 1 : -1;
    double[] out = new double[ids.length + 1];
    for (int j = 0; j < problem.n; j++) {
      out[j] = sign * w[j];
    }
    return out;
  }

  /** A mail's normalised tf-idf vector over {@code ids}, plus the bias feature if wanted. */
  private static Feature[] vector(
      NgramFeatures.Vector mail, int[] ids, double[] idf, Settings settings) {
    Tf tf = settings.tf();
    boolean bias = settings.intercept();
    List<Feature> features = new ArrayList<>();
    double[] squares = new double[1];
    forEachValue(
        mail,
        ids,
        idf,
        tf,
        (j, value) -> {
          features.add(new FeatureNode(j + 1, value));
          squares[0] += value * value;
        });
    double norm = Math.sqrt(squares[0] + settings.smoothing());
    Feature[] out = new Feature[features.size() + (bias ? 1 : 0)];
    for (int i = 0; i < features.size(); i++) {
      Feature f = features.get(i);
      out[i] = new FeatureNode(f.getIndex(), f.getValue() / norm);
    }
    if (bias) {
      out[features.size()] = new FeatureNode(ids.length + 1, 1);
    }
    return out;
  }

  /** What {@link #forEachValue} reports: a model term's position and its tf-idf value. */
  private interface ValueSink {
    void accept(int position, double value);
  }

  /**
   * Reports, in order, each of {@code mail}'s features that is among {@code ids} (both ascending)
   * with its position there and its unnormalised value {@code idf * tf(count)}.
   */
  private static void forEachValue(
      NgramFeatures.Vector mail, int[] ids, double[] idf, Tf tf, ValueSink sink) {
    int j = 0;
    for (int i = 0; i < mail.ids().length; i++) {
      int id = mail.ids()[i];
      while (j < ids.length && ids[j] < id) {
        j++;
      }
      if (j < ids.length && ids[j] == id) {
        sink.accept(j, idf[j] * tf(tf, mail.counts()[i]));
      }
    }
  }

  static double tf(Tf tf, int count) {
    return tf == Tf.LOG ? 1 + Math.log(count) : Math.min(count, 3);
  }

  /** Nine significant digits: the file stays short and the scores agree to 1e-7. */
  private static double round(double value) {
    return Double.parseDouble(String.format(java.util.Locale.ROOT, "%.9g", value));
  }
}
