package dev.burnbox.bench.matcher;

import com.hankcs.algorithm.AhoCorasickDoubleArrayTrie;
import dev.burnbox.matcher.CaseFolding;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.matcher.TermMatcher;
import dev.burnbox.matcher.TermSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/**
 * One implementation the matcher benchmarks compare, compiled for one term set: every {@link
 * MatcherKind} (by its {@link MatcherKind#cliName()}), plus two peers.
 *
 * <ul>
 *   <li>{@value #HANKCS}: {@code com.hankcs.algorithm.AhoCorasickDoubleArrayTrie}, a popular
 *       double-array Aho-Corasick. It cannot ignore case, so it is built from the term set's folded
 *       scan patterns and scans each mail pre-folded with {@link CaseFolding#foldChar} (done once,
 *       in setup, not timed: this favours it). That yields exactly our matches, which setup checks.
 *   <li>{@value #CALIBRATION}: not a matcher. One dependent lookup per character, {@code s =
 *       table[(s ^ c) & MASK]}, in a 64K-int table (256 KB, the size of a real automaton): the
 *       speed ceiling for any matcher that reads every character through a table. It finds nothing.
 * </ul>
 *
 * <p>Instances are immutable after construction; {@link #scan} is thread-safe given one tally per
 * thread.
 */
abstract class BenchImplementation {
  /** The name of the double-array Aho-Corasick peer. */
  static final String HANKCS = "hankcs";

  /** The name of the calibration loop. */
  static final String CALIBRATION = "calibration";

  /** Every implementation name, matcher kinds first, in {@link MatcherKind} order. */
  static List<String> names() {
    List<String> names = new ArrayList<>();
    for (MatcherKind kind : MatcherKind.values()) {
      names.add(kind.cliName());
    }
    names.add(HANKCS);
    names.add(CALIBRATION);
    return names;
  }

  /** Compiles {@code terms} with the implementation called {@code name}. */
  static BenchImplementation compile(String name, TermSet terms) {
    return switch (name) {
      case HANKCS -> new Hankcs(terms);
      case CALIBRATION -> new Calibration();
      default -> new Ours(MatcherKind.fromCliName(name).compile(terms));
    };
  }

  /** The compiled object whose retained heap is measured. */
  abstract Object compiled();

  /** False for the calibration loop, which reports no occurrences. */
  boolean reportsMatches() {
    return true;
  }

  /** Scans every mail of {@code batch}, reporting each occurrence to {@code tally}. */
  abstract void scan(MailBatch batch, MatchTally tally);

  private static final class Ours extends BenchImplementation {
    private final TermMatcher matcher;

    Ours(TermMatcher matcher) {
      this.matcher = matcher;
    }

    @Override
    Object compiled() {
      return matcher;
    }

    @Override
    void scan(MailBatch batch, MatchTally tally) {
      for (String mail : batch.mails()) {
        matcher.forEachMatch(mail, tally);
      }
    }
  }

  private static final class Hankcs extends BenchImplementation {
    private final AhoCorasickDoubleArrayTrie<Integer> trie = new AhoCorasickDoubleArrayTrie<>();

    Hankcs(TermSet terms) {
      TreeMap<String, Integer> byPattern = new TreeMap<>();
      for (int p = 0; p < terms.patternCount(); p++) {
        byPattern.put(terms.pattern(p), terms.termOfPattern(p));
      }
      trie.build(byPattern);
    }

    @Override
    Object compiled() {
      return trie;
    }

    @Override
    void scan(MailBatch batch, MatchTally tally) {
      AhoCorasickDoubleArrayTrie.IHit<Integer> hit =
          (begin, end, term) -> tally.onMatch(term, begin, end);
      for (char[] mail : batch.folded()) {
        trie.parseText(mail, hit);
      }
    }
  }

  private static final class Calibration extends BenchImplementation {
    private static final int MASK = 0xFFFF;
    private final int[] table = new int[MASK + 1];

    Calibration() {
      Random random = new Random(1);
      for (int i = 0; i < table.length; i++) {
        table[i] = random.nextInt(MASK + 1);
      }
    }

    @Override
    Object compiled() {
      return table;
    }

    @Override
    boolean reportsMatches() {
      return false;
    }

    @Override
    void scan(MailBatch batch, MatchTally tally) {
      int[] t = table;
      int s = 0;
      for (String text : batch.mails()) {
        for (int i = 0, n = text.length(); i < n; i++) {
          s = t[(s ^ text.charAt(i)) & MASK];
        }
      }
      tally.absorb(s);
    }
  }
}
