package dev.burnbox.wordlists;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The Burnbox term-file format: one term per line.
 *
 * <ul>
 *   <li>Lines end with LF, CRLF or CR; files are UTF-8. A UTF-8 byte order mark (U+FEFF) at the
 *       very start of the input is skipped.
 *   <li>Leading and trailing whitespace of each line is removed ({@link String#strip()}, which uses
 *       {@link Character#isWhitespace}: a no-break space is kept).
 *   <li>A line whose first non-blank character is {@code #} is a comment and is ignored. Elsewhere
 *       {@code #} is part of the term ({@code c#}, {@code issue #42}); so a term cannot start with
 *       {@code #}.
 *   <li>Blank lines are ignored.
 *   <li>Terms keep their file order and case; duplicates are kept (matchers deduplicate).
 * </ul>
 *
 * <p>All methods are stateless and thread-safe; returned lists are immutable.
 */
public final class TermList {
  private static final char BOM = '\uFEFF';

  private TermList() {}

  /**
   * Parses terms from {@code in}, which is read to its end but not closed.
   *
   * @return the terms in input order, immutable
   * @throws IOException if reading fails
   */
  public static List<String> parse(Reader in) throws IOException {
    BufferedReader lines = in instanceof BufferedReader b ? b : new BufferedReader(in);
    List<String> terms = new ArrayList<>();
    boolean first = true;
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      if (first && !line.isEmpty() && line.charAt(0) == BOM) {
        line = line.substring(1);
      }
      first = false;
      String term = line.strip();
      if (!term.isEmpty() && term.charAt(0) != '#') {
        terms.add(term);
      }
    }
    return List.copyOf(terms);
  }

  /**
   * Reads a UTF-8 term file.
   *
   * @return the terms in file order, immutable
   * @throws IOException if the file cannot be read or is not valid UTF-8 (a {@link
   *     java.nio.charset.MalformedInputException})
   */
  public static List<String> read(Path file) throws IOException {
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parse(in);
    }
  }
}
