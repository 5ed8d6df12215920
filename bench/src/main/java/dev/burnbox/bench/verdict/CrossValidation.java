package dev.burnbox.bench.verdict;

import dev.burnbox.server.mime.DecodedMail.ScanParts;
import dev.burnbox.server.mime.MailDecoder;
import java.util.ArrayList;
import java.util.List;

/**
 * The labelled corpus decoded once and turned into n-gram vectors, and k-fold cross-validation of
 * the model trainer over it: each fold is scored by a model trained on the other folds only.
 */
final class CrossValidation {
  final List<LabelledMail> mails;
  final List<ScanParts> parts;
  final List<NgramFeatures.Vector> vectors;
  final NgramFeatures features = new NgramFeatures();
  final boolean[] spam;

  CrossValidation(List<LabelledMail> mails) {
    this.mails = mails;
    MailDecoder decoder = MailDecoder.withDefaults();
    parts = new ArrayList<>(mails.size());
    vectors = new ArrayList<>(mails.size());
    spam = new boolean[mails.size()];
    for (int i = 0; i < mails.size(); i++) {
      ScanParts p = decoder.decode(mails.get(i).raw()).scanParts();
      parts.add(p);
      vectors.add(features.extract(p));
      spam[i] = mails.get(i).spam();
    }
  }

  /** The model trained on every mail outside {@code fold} (on every mail if fold is -1). */
  ModelTrainer.Trained trainWithout(int fold, ModelTrainer.Settings settings) {
    List<NgramFeatures.Vector> train = new ArrayList<>();
    List<Boolean> labels = new ArrayList<>();
    for (int i = 0; i < mails.size(); i++) {
      if (mails.get(i).fold() != fold) {
        train.add(vectors.get(i));
        labels.add(spam[i]);
      }
    }
    boolean[] y = new boolean[labels.size()];
    for (int i = 0; i < y.length; i++) {
      y[i] = labels.get(i);
    }
    return ModelTrainer.train(train, y, features, settings);
  }

  /** Every mail's score from the model that did not see its fold. */
  double[] outOfFoldScores(ModelTrainer.Settings settings) {
    double[] scores = new double[mails.size()];
    for (int fold = 0; fold < LabelledMail.FOLDS; fold++) {
      ModelTrainer.Trained model = trainWithout(fold, settings);
      for (int i = 0; i < mails.size(); i++) {
        if (mails.get(i).fold() == fold) {
          scores[i] = model.score(vectors.get(i));
        }
      }
    }
    return scores;
  }
}
