package dev.burnbox.wordlists;

import dev.burnbox.wordlists.SpamModel.Match;
import dev.burnbox.wordlists.SpamModel.Part;
import dev.burnbox.wordlists.SpamModel.Scoring;
import dev.burnbox.wordlists.SpamModel.WeightedTerm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The model-file format: a {@link TermList} term file in which a term may carry a weight, a part
 * and an idf, and the file may set how hits are scored.
 *
 * <pre>
 * # comment                      lines whose first non-blank character is '#' are comments,
 * #! scoring tfidf-l2            except directives, "#!" then a name and a value:
 * #! intercept -1.25               scoring (capped | tfidf-l2), intercept (a number),
 * #! threshold 0.93                threshold (a probability), match (words | substrings),
 * #! match substrings               smoothing (0 or more, for tfidf-l2)
 * #! smoothing 3200
 * viagra                         a plain term: weight 1, part any, idf 1
 * iagr&lt;TAB&gt;2.5&lt;TAB&gt;body&lt;TAB&gt;3.2    term, weight, part, idf: fields split by TAB
 * </pre>
 *
 * <p>Parts are {@code subject}, {@code body}, {@code markup} and {@code any}; weight, part and idf
 * may be left off from the right. A file of plain terms with no directive is exactly a {@link
 * SpamModel#ofPlainTerms plain list}. Anything else is refused with a {@link ModelFileException}
 * naming the file, the line and the reason: a weight or idf that is not a number, an unknown part
 * or directive, a term that is empty, or a file without terms.
 *
 * <p>Stateless and thread-safe.
 */
public final class SpamModelFile {
  private static final char BOM = '\uFEFF';

  private SpamModelFile() {}

  /** A model file's mistake: where it is and what is wrong. */
  public static final class ModelFileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** {@code source:line: reason}; line 0 for the file as a whole. */
    public ModelFileException(String source, int line, String reason) {
      super(line > 0 ? source + ":" + line + ": " + reason : source + ": " + reason);
    }
  }

  /**
   * Parses a model from {@code in}, read to its end but not closed.
   *
   * @param source names the input in errors and in {@link SpamModel#source()}
   * @throws ModelFileException if the input is not a valid model file
   * @throws IOException if reading fails
   */
  public static SpamModel parse(Reader in, String source) throws IOException {
    return parse(in, source, term -> null);
  }

  /**
   * Parses a model from {@code in} as {@link #parse(Reader, String)} does, and also refuses a term
   * that the matcher that will use it could never find.
   *
   * @param unmatchable gives the reason a term can never match, or null if it can
   */
  public static SpamModel parse(Reader in, String source, Function<String, String> unmatchable)
      throws IOException {
    BufferedReader lines = in instanceof BufferedReader b ? b : new BufferedReader(in);
    List<WeightedTerm> terms = new ArrayList<>();
    boolean plain = true;
    Scoring scoring = Scoring.CAPPED;
    double intercept = SpamModel.PLAIN_LIST_INTERCEPT;
    double threshold = SpamModel.DEFAULT_THRESHOLD;
    Match match = Match.WORDS;
    double smoothing = 0;
    int number = 0;
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      number++;
      if (number == 1 && !line.isEmpty() && line.charAt(0) == BOM) {
        line = line.substring(1);
      }
      String stripped = line.strip();
      if (stripped.startsWith("#!")) {
        plain = false;
        String[] directive = stripped.substring(2).strip().split("\\s+", 2);
        String value = directive.length > 1 ? directive[1] : "";
        switch (directive[0]) {
          case "scoring" -> scoring = scoring(value, source, number);
          case "intercept" -> intercept = number(value, "intercept", source, number);
          case "threshold" -> {
            threshold = number(value, "threshold", source, number);
            if (!(threshold > 0 && threshold < 1)) {
              throw new ModelFileException(
                  source, number, "threshold must be a probability between 0 and 1: " + value);
            }
          }
          case "match" -> match = match(value, source, number);
          case "smoothing" -> {
            smoothing = number(value, "smoothing", source, number);
            if (smoothing < 0) {
              throw new ModelFileException(source, number, "smoothing must be 0 or more: " + value);
            }
          }
          default ->
              throw new ModelFileException(source, number, "unknown directive: #! " + directive[0]);
        }
        continue;
      }
      if (stripped.isEmpty() || stripped.charAt(0) == '#') {
        continue;
      }
      WeightedTerm term = term(stripped, source, number);
      String reason = unmatchable.apply(term.term());
      if (reason != null) {
        throw new ModelFileException(source, number, "term '" + term.term() + "' " + reason);
      }
      terms.add(term);
    }
    if (terms.isEmpty()) {
      throw new ModelFileException(source, 0, "holds no terms");
    }
    if (plain) {
      return SpamModel.ofPlainTerms(terms.stream().map(WeightedTerm::term).toList(), source);
    }
    return new SpamModel(terms, scoring, intercept, threshold, match, source, smoothing);
  }

  /**
   * Reads a UTF-8 model file.
   *
   * @throws ModelFileException if it is not a valid model file
   * @throws IOException if it cannot be read or is not valid UTF-8
   */
  public static SpamModel read(Path file) throws IOException {
    return read(file, term -> null);
  }

  /**
   * Reads a UTF-8 model file, refusing terms that can never match (see {@link #parse(Reader,
   * String, Function)}).
   */
  public static SpamModel read(Path file, Function<String, String> unmatchable) throws IOException {
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parse(in, file.toString(), unmatchable);
    }
  }

  /**
   * Writes {@code model} in this format, preceded by {@code header} lines as comments; {@link
   * #parse} gives back an equal model (weights and idfs as written: shortest exact decimal).
   */
  public static void write(SpamModel model, List<String> header, Writer out) throws IOException {
    for (String line : header) {
      out.write(line.isEmpty() ? "#\n" : "# " + line + "\n");
    }
    out.write("#! scoring " + model.scoring().fileName() + "\n");
    out.write("#! intercept " + model.intercept() + "\n");
    out.write("#! threshold " + model.threshold() + "\n");
    out.write("#! match " + model.match().fileName() + "\n");
    if (model.smoothing() != 0) {
      out.write("#! smoothing " + model.smoothing() + "\n");
    }
    for (WeightedTerm t : model.terms()) {
      if (t.term().indexOf('\t') >= 0 || !t.term().equals(t.term().strip())) {
        throw new IllegalArgumentException("a term cannot be written: " + t.term());
      }
      out.write(t.term() + "\t" + t.weight() + "\t" + t.part().fileName() + "\t" + t.idf() + "\n");
    }
  }

  /** Reads a resource of this package; a broken shipped model is a build error, so unchecked. */
  static SpamModel loadResource(String name, String source) {
    try (InputStream stream = SpamModelFile.class.getResourceAsStream(name)) {
      if (stream == null) {
        throw new IllegalStateException("missing resource dev/burnbox/wordlists/" + name);
      }
      return parse(
          new InputStreamReader(
              stream,
              StandardCharsets.UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT)),
          source);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read resource dev/burnbox/wordlists/" + name, e);
    }
  }

  private static WeightedTerm term(String line, String source, int number) {
    String[] fields = line.split("\t", -1);
    if (fields.length > 4) {
      throw new ModelFileException(
          source, number, "too many fields (term, weight, part, idf): " + fields.length);
    }
    String term = fields[0].strip();
    if (term.isEmpty()) {
      throw new ModelFileException(source, number, "empty term");
    }
    double weight = fields.length > 1 ? number(fields[1].strip(), "weight", source, number) : 1;
    Part part = fields.length > 2 ? part(fields[2].strip(), source, number) : Part.ANY;
    double idf = fields.length > 3 ? number(fields[3].strip(), "idf", source, number) : 1;
    if (!(idf > 0)) {
      throw new ModelFileException(source, number, "idf must be positive: " + fields[3].strip());
    }
    return new WeightedTerm(term, weight, part, idf);
  }

  private static double number(String text, String what, String source, int line) {
    try {
      double value = Double.parseDouble(text);
      if (Double.isFinite(value) && !text.endsWith("d") && !text.endsWith("f")) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ModelFileException(source, line, what + " is not a number: '" + text + "'");
  }

  private static Part part(String text, String source, int line) {
    for (Part part : Part.values()) {
      if (part.fileName().equals(text.toLowerCase(Locale.ROOT))) {
        return part;
      }
    }
    throw new ModelFileException(
        source, line, "unknown part '" + text + "' (subject, body, markup or any)");
  }

  private static Scoring scoring(String text, String source, int line) {
    for (Scoring scoring : Scoring.values()) {
      if (scoring.fileName().equals(text)) {
        return scoring;
      }
    }
    throw new ModelFileException(
        source, line, "unknown scoring '" + text + "' (capped or tfidf-l2)");
  }

  private static Match match(String text, String source, int line) {
    for (Match match : Match.values()) {
      if (match.fileName().equals(text)) {
        return match;
      }
    }
    throw new ModelFileException(
        source, line, "unknown match '" + text + "' (words or substrings)");
  }
}
