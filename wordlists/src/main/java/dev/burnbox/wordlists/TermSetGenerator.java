package dev.burnbox.wordlists;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Deterministic generators of large term sets for benchmarks.
 *
 * <p>Guarantees, for every method:
 *
 * <ul>
 *   <li>Determinism: the same {@code (count, seed)} gives the same list, in the same order, on
 *       every JVM and platform. Randomness comes only from {@link Random} seeded with {@code seed},
 *       whose algorithm the Java SE specification fixes for all implementations, applied to the
 *       committed word resources in their file order. Hash-based collections are used only for
 *       membership tests, never for order. Changing a word resource changes the output.
 *   <li>The list has exactly {@code count} terms, each 4-20 characters long ({@link
 *       String#length()}), distinct case-insensitively ({@link Locale#ROOT}).
 *   <li>{@code count} must be between 0 and the method's limit ({@link #HIT_HEAVY_MAX}, {@link
 *       #REALISTIC_SPAM_MAX}); otherwise {@link IllegalArgumentException}.
 *   <li>The returned lists are immutable; the methods are thread-safe.
 * </ul>
 */
public final class TermSetGenerator {
  /** The largest count {@link #hitHeavy} accepts: the size of the common-English word list. */
  public static final int HIT_HEAVY_MAX = 30_000;

  /** The largest count {@link #realisticSpam} accepts. */
  public static final int REALISTIC_SPAM_MAX = 50_000;

  static final int MIN_LENGTH = 4;
  static final int MAX_LENGTH = 20;

  /** hitHeavy draws {@code count} words from the top {@code max(2 * count, 1000)} words. */
  private static final int HIT_HEAVY_MIN_POOL = 1_000;

  /** Longest substring of a common word that the rare-word guard encodes (27^13 fits a long). */
  private static final int GUARD_LENGTH = 13;

  /** Spam-flavoured first words of generated phrases. */
  private static final String[] PREFIXES = {
    "cheap",
    "buy",
    "discount",
    "generic",
    "bonus",
    "exclusive",
    "instant",
    "free",
    "best price",
    "order",
    "guaranteed",
    "miracle",
    "secret",
    "wholesale",
    "premium",
    "unclaimed",
    "urgent",
    "certified",
    "hot",
    "amazing",
    "risk free",
    "100% free",
    "lowest",
    "bulk",
    "claim your",
    "win a",
    "get rich",
    "no cost",
    "double your",
    "lose",
  };

  /** Spam-flavoured last words of generated phrases. */
  private static final String[] SUFFIXES = {
    "online",
    "deal",
    "offer",
    "bonus",
    "now",
    "pills",
    "prize",
    "profits",
    "giveaway",
    "jackpot",
    "rewards",
    "cashback",
    "winner",
    "scheme",
    "refund",
    "voucher",
    "special",
    "4 less",
    "xxl",
    "overnight",
  };

  private TermSetGenerator() {}

  /**
   * Spam-like terms that rarely occur in ordinary mail: terms of the default spam list, phrases
   * combining spam vocabulary with rarer words (such as {@code "cheap anthracite"} or {@code
   * "viagra jackpot"}), and rare dictionary words that are not part of any common word.
   *
   * @param count number of terms, 0 to {@link #REALISTIC_SPAM_MAX}
   * @param seed seed of the pseudo-random choice
   * @throws IllegalArgumentException if {@code count} is out of range
   */
  public static List<String> realisticSpam(int count, long seed) {
    checkCount("realisticSpam", count, REALISTIC_SPAM_MAX, "the generator's limit");
    return RealisticPools.INSTANCE.draw(count, new Random(seed));
  }

  /**
   * Common English words (lowercase, 4-20 letters) drawn without repetition from the {@code max(2 *
   * count, 1000)} most frequent ones (capped at {@link #HIT_HEAVY_MAX}), so that ordinary English
   * text hits a term every few dozen characters.
   *
   * @param count number of terms, 0 to {@link #HIT_HEAVY_MAX}
   * @param seed seed of the pseudo-random choice
   * @throws IllegalArgumentException if {@code count} is out of range
   */
  public static List<String> hitHeavy(int count, long seed) {
    List<String> common = EnglishWords.COMMON;
    checkCount("hitHeavy", count, common.size(), "the size of the common-English word list");
    int pool = Math.min(common.size(), Math.max(2 * count, HIT_HEAVY_MIN_POOL));
    int[] order = partialShuffle(pool, count, new Random(seed));
    List<String> terms = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      terms.add(common.get(order[i]));
    }
    return List.copyOf(terms);
  }

  private static void checkCount(String method, int count, int max, String why) {
    if (count < 0 || count > max) {
      throw new IllegalArgumentException(
          method + ": count must be between 0 and " + max + " (" + why + "), was " + count);
    }
  }

  /** A permutation of 0..n-1 whose first {@code k} entries are a uniform random k-subset. */
  private static int[] partialShuffle(int n, int k, Random rng) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    for (int i = 0; i < Math.min(k, n - 1); i++) {
      int j = i + rng.nextInt(n - i);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    return order;
  }

  private static boolean lengthOk(String term) {
    return term.length() >= MIN_LENGTH && term.length() <= MAX_LENGTH;
  }

  private static String key(String term) {
    return term.toLowerCase(Locale.ROOT);
  }

  /**
   * The sorted {@link #code codes} of every substring of 4 to {@link #GUARD_LENGTH} letters of the
   * given lowercase words: a rare word found here would hit inside common words.
   */
  private static long[] substringCodes(List<String> words) {
    long[] codes = new long[1 << 16];
    int size = 0;
    for (String w : words) {
      for (int from = 0; from + MIN_LENGTH <= w.length(); from++) {
        int last = Math.min(w.length(), from + GUARD_LENGTH);
        for (int to = from + MIN_LENGTH; to <= last; to++) {
          if (size == codes.length) {
            codes = Arrays.copyOf(codes, 2 * size);
          }
          codes[size++] = code(w, from, to);
        }
      }
    }
    codes = Arrays.copyOf(codes, size);
    Arrays.sort(codes);
    return codes;
  }

  /**
   * A base-27 number for {@code s[from, to)}, or -1 if it is longer than {@link #GUARD_LENGTH} or
   * has a character outside {@code a-z}.
   */
  private static long code(String s, int from, int to) {
    if (to - from > GUARD_LENGTH) {
      return -1;
    }
    long code = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < 'a' || c > 'z') {
        return -1;
      }
      code = code * 27 + (c - 'a' + 1);
    }
    return code;
  }

  /** The source lists of {@link #realisticSpam}, built once from the resources. */
  private static final class RealisticPools {
    static final RealisticPools INSTANCE = new RealisticPools();

    /** Default spam terms of length 4-20, first spelling of each, file order. */
    final List<String> spamTerms;

    /** Single-word default spam terms of length 4-14, to combine into phrases. */
    final List<String> spamWords;

    /** Rare words that do not occur inside any word of the common list, alphabetical. */
    final List<String> rareWords;

    private RealisticPools() {
      Map<String, String> byKey = new LinkedHashMap<>();
      for (String term : SpamTerms.defaults()) {
        if (lengthOk(term)) {
          byKey.putIfAbsent(key(term), term);
        }
      }
      spamTerms = List.copyOf(byKey.values());
      List<String> words = new ArrayList<>();
      for (String term : spamTerms) {
        if (term.indexOf(' ') < 0 && term.length() <= 14) {
          words.add(term);
        }
      }
      spamWords = List.copyOf(words);

      long[] insideCommon = substringCodes(EnglishWords.COMMON);
      List<String> rare = new ArrayList<>();
      for (String w : EnglishWords.RARE) {
        long code = code(w, 0, w.length());
        boolean inside = code >= 0 && Arrays.binarySearch(insideCommon, code) >= 0;
        if (!inside && !byKey.containsKey(w)) {
          rare.add(w);
        }
      }
      rareWords = List.copyOf(rare);
    }

    List<String> draw(int count, Random rng) {
      int[] spamOrder = partialShuffle(spamTerms.size(), spamTerms.size(), rng);
      int[] rareOrder = partialShuffle(rareWords.size(), rareWords.size(), rng);
      int nextSpam = 0;
      int nextRare = 0;
      Set<String> seen = new HashSet<>();
      List<String> terms = new ArrayList<>(count);
      while (terms.size() < count) {
        int kind = rng.nextInt(100);
        String term;
        if (kind < 15 && nextSpam < spamOrder.length) {
          term = spamTerms.get(spamOrder[nextSpam++]);
        } else if (kind < 50 && nextRare < rareOrder.length) {
          term = rareWords.get(rareOrder[nextRare++]);
        } else {
          term = phrase(rng);
        }
        if (lengthOk(term) && seen.add(key(term))) {
          terms.add(term);
        }
      }
      return List.copyOf(terms);
    }

    private String phrase(Random rng) {
      String word =
          rng.nextBoolean()
              ? spamWords.get(rng.nextInt(spamWords.size()))
              : rareWords.get(rng.nextInt(rareWords.size()));
      if (rng.nextBoolean()) {
        return PREFIXES[rng.nextInt(PREFIXES.length)] + " " + word;
      }
      return word + " " + SUFFIXES[rng.nextInt(SUFFIXES.length)];
    }
  }
}
