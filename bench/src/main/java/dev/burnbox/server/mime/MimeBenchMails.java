package dev.burnbox.server.mime;

import dev.burnbox.bench.MailCorpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

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
    String configured = System.getProperty(MailCorpus.CORPUS_PROPERTY);
    List<Path> candidates =
        configured != null && !configured.isBlank()
            ? List.of(Path.of(configured))
            : List.of(Path.of("bench", "corpus"), Path.of("corpus"));
    for (Path dir : candidates) {
      if (MailCorpus.isCorpus(dir)) {
        List<byte[]> mails = new ArrayList<>(read(dir.resolve(MailCorpus.HAM_GROUP)));
        mails.addAll(read(dir.resolve(MailCorpus.SPAM_GROUP)));
        return new MimeBenchMails(dir.toAbsolutePath().normalize(), mails);
      }
    }
    throw new IllegalStateException(
        "no SpamAssassin corpus in " + candidates + ": run bench/fetch-corpus.sh first");
  }

  private static List<byte[]> read(Path group) {
    try (Stream<Path> files = Files.list(group)) {
      List<byte[]> mails = new ArrayList<>();
      for (Path file : files.filter(f -> f.toString().endsWith(".txt")).sorted().toList()) {
        mails.add(Files.readAllBytes(file));
      }
      return mails;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read corpus group " + group, e);
    }
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
