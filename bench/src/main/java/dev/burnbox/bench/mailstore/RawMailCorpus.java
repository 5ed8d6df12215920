package dev.burnbox.bench.mailstore;

import dev.burnbox.bench.MailCorpus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whole raw mails (headers and body, as bytes, as the store receives them) from the SpamAssassin
 * corpus that {@code bench/fetch-corpus.sh} fetches, split for honest dictionary measurements: the
 * <em>training</em> mails are the first {@value #TRAINING_PER_GROUP} of each group in file order
 * (numbered roughly by arrival), the <em>test</em> mails all later ones, on which every codec is
 * measured. Immutable; the arrays must not be modified.
 */
final class RawMailCorpus {
  /** Mails per group that dictionaries may be trained on. */
  static final int TRAINING_PER_GROUP = 500;

  private final Path dir;
  private final List<byte[]> training;
  private final List<byte[]> test;

  private RawMailCorpus(Path dir, List<byte[]> training, List<byte[]> test) {
    this.dir = dir;
    this.training = List.copyOf(training);
    this.test = List.copyOf(test);
  }

  /**
   * Loads the corpus folder {@link MailCorpus} would use.
   *
   * @throws IllegalStateException if there is none (run {@code bench/fetch-corpus.sh})
   */
  static RawMailCorpus locate() {
    return load(MailCorpus.require());
  }

  /** Loads both groups of {@code dir}. */
  static RawMailCorpus load(Path dir) {
    List<byte[]> training = new ArrayList<>();
    List<byte[]> test = new ArrayList<>();
    for (String group : List.of(MailCorpus.HAM_GROUP, MailCorpus.SPAM_GROUP)) {
      List<byte[]> mails = MailCorpus.readGroup(dir.resolve(group));
      if (mails.size() <= TRAINING_PER_GROUP) {
        throw new IllegalStateException("group " + group + " has only " + mails.size() + " mails");
      }
      training.addAll(mails.subList(0, TRAINING_PER_GROUP));
      test.addAll(mails.subList(TRAINING_PER_GROUP, mails.size()));
    }
    return new RawMailCorpus(dir.toAbsolutePath().normalize(), training, test);
  }

  /** The earlier mails, for training dictionaries: ham first, then spam. */
  List<byte[]> training() {
    return training;
  }

  /** The later mails, on which codecs are measured: ham first, then spam. */
  List<byte[]> test() {
    return test;
  }

  /** Total bytes of the test mails. */
  long testBytes() {
    return test.stream().mapToLong(m -> m.length).sum();
  }

  /** E.g. {@code 1,796 test mails (12.3 MB) after 1,000 training mails from <dir>}. */
  String describe() {
    return String.format(
        "SpamAssassin %s + %s in %s: %,d test mails (%,.1f MB, mean %,d bytes) measured after"
            + " %,d training mails (the first %d of each group)",
        MailCorpus.HAM_GROUP,
        MailCorpus.SPAM_GROUP,
        dir,
        test.size(),
        testBytes() / 1e6,
        testBytes() / test.size(),
        training.size(),
        TRAINING_PER_GROUP);
  }
}
