package dev.burnbox.bench.verdict;

import dev.burnbox.matcher.TextNormalizer;
import dev.burnbox.server.mime.DecodedMail.ScanParts;
import dev.burnbox.wordlists.SpamModel.Part;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The candidate terms of the learned model: character n-grams of {@value #MIN_LENGTH} to {@value
 * #MAX_LENGTH} letters inside the words of each part's normalised text, each with its part.
 *
 * <p>A word is a maximal run of letters, so a letter n-gram occurs in the text exactly where it
 * occurs inside a word: the counts here are the counts a {@code TermMatcher} over the same n-grams
 * finds in the same normalised text (the spam scanner's view), and a model trained on them scores a
 * mail in the service exactly as here. Not thread-safe (one dictionary is filled).
 */
final class NgramFeatures {
  static final int MIN_LENGTH = 3;
  static final int MAX_LENGTH = 5;
  private static final Part[] PARTS = {Part.SUBJECT, Part.BODY, Part.MARKUP};

  private final TextNormalizer normalizer = TextNormalizer.standard();
  private final Map<String, Integer> ids = new HashMap<>();
  private final List<String> terms = new ArrayList<>();
  private final List<Part> parts = new ArrayList<>();

  /**
   * A mail's feature counts: ids ascending, each with its count.
   *
   * @param ids feature ids, ascending
   * @param counts how often each occurs
   */
  record Vector(int[] ids, int[] counts) {}

  /** Counts the n-grams of each part of {@code mail}, giving new n-grams new ids. */
  Vector extract(ScanParts mail) {
    Map<Integer, Integer> counts = new HashMap<>();
    String[] texts = {mail.subject(), mail.body(), mail.markup()};
    for (int p = 0; p < PARTS.length; p++) {
      String text = normalizer.normalize(texts[p]).text();
      int i = 0;
      while (i < text.length()) {
        if (!Character.isLetter(text.charAt(i))) {
          i++;
          continue;
        }
        int start = i;
        while (i < text.length() && Character.isLetter(text.charAt(i))) {
          i++;
        }
        for (int from = start; from < i; from++) {
          for (int len = MIN_LENGTH; len <= MAX_LENGTH && from + len <= i; len++) {
            counts.merge(id(PARTS[p], text.substring(from, from + len)), 1, Integer::sum);
          }
        }
      }
    }
    int[] sorted = counts.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
    int[] values = Arrays.stream(sorted).map(counts::get).toArray();
    return new Vector(sorted, values);
  }

  private int id(Part part, String ngram) {
    String key = part.ordinal() + ngram;
    Integer id = ids.get(key);
    if (id == null) {
      id = terms.size();
      ids.put(key, id);
      terms.add(ngram);
      parts.add(part);
    }
    return id;
  }

  /** How many distinct features were seen. */
  int size() {
    return terms.size();
  }

  /** The n-gram of feature {@code id}. */
  String term(int id) {
    return terms.get(id);
  }

  /** The part of feature {@code id}. */
  Part part(int id) {
    return parts.get(id);
  }
}
