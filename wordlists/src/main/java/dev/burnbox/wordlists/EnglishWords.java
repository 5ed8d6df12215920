package dev.burnbox.wordlists;

import java.util.List;

/**
 * The committed English word resources (see {@code wordlists/README.md}): lowercase ASCII words of
 * length 4-20. Loaded once, on first use; immutable and thread-safe.
 */
final class EnglishWords {
  /** The most frequent words, most frequent first (SUBTLEX-US counts, SCOWL words only). */
  static final List<String> COMMON = SpamTerms.loadResource("english-common.txt");

  /** Rarer dictionary words that are not in {@link #COMMON}, alphabetical. */
  static final List<String> RARE = SpamTerms.loadResource("english-rare.txt");

  private EnglishWords() {}
}
