package dev.burnbox.bench;

import dev.burnbox.wordlists.TermSetGenerator;
import java.util.List;

/**
 * The two shapes of term set the matcher benchmarks use, both from {@link TermSetGenerator} with a
 * fixed seed so that every run and every implementation sees the same terms.
 *
 * <p>Every size, 10 terms included, comes from the generators rather than from {@code
 * SpamTerms.defaults()}: that keeps one shape per line of the chart, and the curated list does not
 * come in a hit-heavy flavour.
 */
public enum TermSetKind {
  /** Spam-like phrases and rare words: few hits on ham, some on spam. */
  REALISTIC("realistic"),
  /** Common English words: a hit every few dozen characters of any English text. */
  HIT_HEAVY("hitHeavy");

  /** The seed of every generated term set. */
  public static final long SEED = 42L;

  private final String paramName;

  TermSetKind(String paramName) {
    this.paramName = paramName;
  }

  /** The name used as a JMH {@code @Param} value and in reports. */
  public String paramName() {
    return paramName;
  }

  /** {@code count} terms of this shape. */
  public List<String> terms(int count) {
    return switch (this) {
      case REALISTIC -> TermSetGenerator.realisticSpam(count, SEED);
      case HIT_HEAVY -> TermSetGenerator.hitHeavy(count, SEED);
    };
  }

  /**
   * The kind with the given {@link #paramName()}.
   *
   * @throws IllegalArgumentException if there is none
   */
  public static TermSetKind fromParamName(String name) {
    for (TermSetKind kind : values()) {
      if (kind.paramName.equals(name)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("unknown term set kind: " + name);
  }
}
