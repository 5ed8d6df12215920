package dev.burnbox.bench.mime;

import dev.burnbox.bench.MailCorpus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Every raw mail (headers and body, as received) of the SpamAssassin corpus that {@code
 * bench/fetch-corpus.sh} fetches, ham then spam, in file order; no generated fallback, since MIME
 * structure is what is measured. Immutable; the arrays must not be modified.
 *
 * @param dir the corpus folder
 * @param mails the raw mails
 */
record MimeBenchMails(Path dir, List<byte[]> mails) {
  MimeBenchMails {
    mails = List.copyOf(mails);
  }

  /**
   * Loads the corpus folder {@link MailCorpus} would use.
   *
   * @throws IllegalStateException if there is none
   */
  static MimeBenchMails locate() {
    Path dir = MailCorpus.require();
    List<byte[]> mails = new ArrayList<>(MailCorpus.readGroup(dir.resolve(MailCorpus.HAM_GROUP)));
    mails.addAll(MailCorpus.readGroup(dir.resolve(MailCorpus.SPAM_GROUP)));
    return new MimeBenchMails(dir.toAbsolutePath().normalize(), mails);
  }

  /** Total bytes of all mails. */
  long bytes() {
    return mails.stream().mapToLong(m -> m.length).sum();
  }

  /** E.g. {@code 2,797 mails (23.1 MB, mean 8,260 bytes) of SpamAssassin ... in <dir>}. */
  String describe() {
    return String.format(
        "%,d mails (%,.1f MB, mean %,d bytes) of SpamAssassin %s + %s in %s",
        mails.size(),
        bytes() / 1e6,
        bytes() / mails.size(),
        MailCorpus.HAM_GROUP,
        MailCorpus.SPAM_GROUP,
        dir);
  }
}
