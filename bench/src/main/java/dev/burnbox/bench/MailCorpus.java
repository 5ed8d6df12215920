package dev.burnbox.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Mail bodies for the matcher benchmarks and tests: real ones from the SpamAssassin corpus that
 * {@code bench/fetch-corpus.sh} puts in {@code bench/corpus/}, or, when that folder is absent,
 * deterministic generated mail-like text, so that benchmarks and tests run without a download.
 *
 * <p>A body is everything after the header block (the first blank line); it is not MIME-decoded, so
 * spam bodies keep their HTML and base64 parts, as a content filter would first see them. Files are
 * decoded as UTF-8 with malformed bytes replaced.
 *
 * <p>{@link #source()} says which of the two was used; reports and tests print it. Immutable.
 */
public final class MailCorpus {
  /**
   * System property naming the corpus folder; by default {@code bench/corpus} or {@code corpus}.
   */
  public static final String CORPUS_PROPERTY = "burnbox.corpus";

  /** The corpus group of legitimate mail. */
  public static final String HAM_GROUP = "easy-ham-2";

  /** The corpus group of spam. */
  public static final String SPAM_GROUP = "spam-2";

  private static final long GENERATOR_SEED = 20_021_108L;
  private static final int GENERATED_MAILS = 1_400;

  private final String source;
  private final List<String> ham;
  private final List<String> spam;

  private MailCorpus(String source, List<String> ham, List<String> spam) {
    this.source = source;
    this.ham = List.copyOf(ham);
    this.spam = List.copyOf(spam);
  }

  /**
   * Loads the corpus from the folder named by {@value #CORPUS_PROPERTY}, else from the first of
   * {@code bench/corpus} and {@code corpus} (relative to the working directory) that holds both
   * groups, else generates one.
   */
  public static MailCorpus locate() {
    return find().map(MailCorpus::load).orElseGet(MailCorpus::generated);
  }

  /**
   * The corpus folder: the one named by {@value #CORPUS_PROPERTY}, else the first of {@code
   * bench/corpus} and {@code corpus} that holds both groups; empty if there is none.
   */
  public static Optional<Path> find() {
    return candidates().stream().filter(MailCorpus::isCorpus).findFirst();
  }

  /**
   * {@link #find}, for benchmarks that need real mail.
   *
   * @throws IllegalStateException if there is no corpus (run {@code bench/fetch-corpus.sh})
   */
  public static Path require() {
    return find()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no SpamAssassin corpus in "
                        + candidates()
                        + ": run bench/fetch-corpus.sh first"));
  }

  private static List<Path> candidates() {
    String configured = System.getProperty(CORPUS_PROPERTY);
    return configured != null && !configured.isBlank()
        ? List.of(Path.of(configured))
        : List.of(Path.of("bench", "corpus"), Path.of("corpus"));
  }

  /** True if {@code dir} holds both corpus groups. */
  public static boolean isCorpus(Path dir) {
    return Files.isDirectory(dir.resolve(HAM_GROUP)) && Files.isDirectory(dir.resolve(SPAM_GROUP));
  }

  /** Loads the bodies of every mail in {@code dir}'s two groups, in file-name order. */
  public static MailCorpus load(Path dir) {
    List<String> ham = loadGroup(dir.resolve(HAM_GROUP));
    List<String> spam = loadGroup(dir.resolve(SPAM_GROUP));
    if (ham.isEmpty() || spam.isEmpty()) {
      throw new IllegalStateException("corpus folder has an empty group: " + dir.toAbsolutePath());
    }
    String source =
        String.format(
            "SpamAssassin corpus in %s (%d %s and %d %s bodies)",
            dir.toAbsolutePath().normalize(), ham.size(), HAM_GROUP, spam.size(), SPAM_GROUP);
    return new MailCorpus(source, ham, spam);
  }

  /**
   * Generated mail-like text (seeded, so identical on every run); see {@link MailTextGenerator}.
   */
  public static MailCorpus generated() {
    MailTextGenerator generator = new MailTextGenerator(new Random(GENERATOR_SEED));
    List<String> ham = new ArrayList<>();
    List<String> spam = new ArrayList<>();
    for (int i = 0; i < GENERATED_MAILS; i++) {
      ham.add(generator.hamBody());
      spam.add(generator.spamBody());
    }
    return new MailCorpus(
        "generated mail-like text (no bench/corpus/; run bench/fetch-corpus.sh for real mail)",
        ham,
        spam);
  }

  /** The body of a raw mail: everything after the first blank line (all of it if there is none). */
  public static String body(String rawMail) {
    int lf = rawMail.indexOf("\n\n");
    int crlf = rawMail.indexOf("\r\n\r\n");
    if (lf < 0 && crlf < 0) {
      return rawMail;
    }
    if (crlf >= 0 && (lf < 0 || crlf < lf)) {
      return rawMail.substring(crlf + 4);
    }
    return rawMail.substring(lf + 2);
  }

  private static List<String> loadGroup(Path group) {
    List<String> bodies = new ArrayList<>();
    for (byte[] raw : readGroup(group)) {
      bodies.add(body(new String(raw, StandardCharsets.UTF_8)));
    }
    return bodies;
  }

  /**
   * Every mail of a corpus group folder, whole and raw (headers and body, as received), in
   * file-name order.
   *
   * @throws UncheckedIOException if the folder or a mail cannot be read
   */
  public static List<byte[]> readGroup(Path group) {
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

  /** Where the mail came from, for reports and test output. */
  public String source() {
    return source;
  }

  /** True if the bodies are real mail rather than generated text. */
  public boolean isReal() {
    return !source.startsWith("generated");
  }

  /** Bodies of legitimate mail (few hits for spam term lists). */
  public List<String> hamBodies() {
    return ham;
  }

  /** Bodies of spam. */
  public List<String> spamBodies() {
    return spam;
  }

  /**
   * A fixed batch of {@code count} mails of exactly {@code chars} characters each, cut from the
   * bodies joined by blank lines, in order: short bodies are joined with the next ones, long ones
   * are split. A mail that would end inside a surrogate pair ends with a space instead.
   *
   * @throws IllegalArgumentException if the bodies are too short for the batch
   */
  public static String[] batch(List<String> bodies, int count, int chars) {
    StringBuilder all = new StringBuilder();
    for (String body : bodies) {
      if (all.length() >= (long) count * chars) {
        break;
      }
      all.append(body).append("\n\n");
    }
    if (all.length() < (long) count * chars) {
      throw new IllegalArgumentException(
          "bodies hold " + all.length() + " chars, need " + (long) count * chars);
    }
    String[] mails = new String[count];
    for (int i = 0; i < count; i++) {
      char[] mail = all.substring(i * chars, (i + 1) * chars).toCharArray();
      if (Character.isHighSurrogate(mail[chars - 1])) {
        mail[chars - 1] = ' ';
      }
      if (Character.isLowSurrogate(mail[0])) {
        mail[0] = ' ';
      }
      mails[i] = new String(mail);
    }
    return mails;
  }
}
