package dev.burnbox.matcher;

/**
 * For each UTF-16 unit {@code f}, the units {@code u} with {@link CaseFolding#foldChar}{@code (u)
 * == f}: the inverse of the per-unit fold table.
 *
 * <p>Skipping matchers use it to build their shift tables over <em>raw</em> text units, so that the
 * hot loop needs no fold lookup: a table entry for a folded pattern unit is also written for every
 * unit that folds to it. Only verification folds.
 *
 * <p>Thread-safe: built once on first use (one pass over the 65,536 units, about 200 KiB), then
 * immutable.
 */
final class FoldPreimages {
  private static final int UNITS = Character.MAX_VALUE + 1;
  // Units grouped by their folding: the preimage of f is members[start[f] .. start[f + 1]).
  private static final int[] START = new int[UNITS + 1];
  private static final char[] MEMBERS = new char[UNITS];

  static {
    char[] fold = CaseFolding.charFoldTable();
    for (int u = 0; u < UNITS; u++) {
      START[fold[u] + 1]++;
    }
    for (int f = 0; f < UNITS; f++) {
      START[f + 1] += START[f];
    }
    int[] next = START.clone();
    for (int u = 0; u < UNITS; u++) {
      MEMBERS[next[fold[u]]++] = (char) u;
    }
  }

  private FoldPreimages() {}

  /**
   * The units a scan may see in place of pattern unit {@code f}: every unit folding to {@code f}
   * when {@code ignoreCase}, else {@code f} alone. Possibly empty (when nothing folds to {@code
   * f}). A new array on each call; meant for building tables, not for scanning.
   */
  static char[] of(char f, boolean ignoreCase) {
    if (!ignoreCase) {
      return new char[] {f};
    }
    char[] out = new char[START[f + 1] - START[f]];
    System.arraycopy(MEMBERS, START[f], out, 0, out.length);
    return out;
  }
}
