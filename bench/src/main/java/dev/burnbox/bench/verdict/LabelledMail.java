package dev.burnbox.bench.verdict;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * One mail of the labelled corpus and the cross-validation fold it belongs to. Immutable (the raw
 * bytes are not copied: do not change them).
 *
 * @param path the mail's path relative to the corpus folder, e.g. {@code spam-2/00001.txt}
 * @param spam its label
 * @param fold its fold, 0 to {@link #FOLDS} - 1
 * @param raw the mail as received
 */
public record LabelledMail(String path, boolean spam, int fold, byte[] raw) {
  /** The number of folds of every cross-validation here. */
  public static final int FOLDS = 5;

  /** The seed that fixes the folds. */
  public static final long FOLD_SEED = 14;

  /** The corpus group of legitimate mail: the only ham any model here is trained on. */
  public static final String HAM_GROUP = "easy-ham-2";

  /** The corpus group of spam: the only spam any model here is trained on. */
  public static final String SPAM_GROUP = "spam-2";

  /**
   * Every mail of the two groups in {@code corpus}, ham first, each group in file-name order, with
   * folds assigned per group (stratified): the group's files shuffled by {@link #FOLD_SEED}, then
   * dealt round-robin.
   */
  public static List<LabelledMail> load(Path corpus) {
    List<LabelledMail> mails = new ArrayList<>();
    mails.addAll(group(corpus, HAM_GROUP, false));
    mails.addAll(group(corpus, SPAM_GROUP, true));
    return List.copyOf(mails);
  }

  private static List<LabelledMail> group(Path corpus, String group, boolean spam) {
    List<Path> files;
    try (Stream<Path> listing = Files.list(corpus.resolve(group))) {
      files = listing.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + corpus.resolve(group), e);
    }
    if (files.isEmpty()) {
      throw new IllegalStateException("no mail in " + corpus.resolve(group));
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(FOLD_SEED));
    int[] fold = new int[files.size()];
    for (int i = 0; i < order.size(); i++) {
      fold[order.get(i)] = i % FOLDS;
    }
    List<LabelledMail> mails = new ArrayList<>(files.size());
    for (int i = 0; i < files.size(); i++) {
      Path file = files.get(i);
      try {
        mails.add(
            new LabelledMail(
                group + "/" + file.getFileName(), spam, fold[i], Files.readAllBytes(file)));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    return mails;
  }
}
