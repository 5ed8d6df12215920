package dev.burnbox.server;

import dev.burnbox.matcher.MatchOptions;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.matcher.TermMatcher;
import dev.burnbox.matcher.TermSet;
import dev.burnbox.server.config.BurnboxVersion;
import dev.burnbox.wordlists.SpamTerms;
import dev.burnbox.wordlists.TermList;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code burnbox scan}: prints every occurrence of the terms in each file, one line each, as {@code
 * path<TAB>start<TAB>end<TAB>term}, in the matcher contract's order (end, then start; offsets are
 * UTF-16 {@code String} indices into the file's text).
 *
 * <p>Files are read as UTF-8 with no MIME decoding; malformed bytes become U+FFFD. A file that
 * cannot be read is reported on stderr, the other files are still scanned, and the exit code is 1.
 */
@Command(
    name = "scan",
    mixinStandardHelpOptions = true,
    versionProvider = BurnboxVersion.Provider.class,
    description =
        "Print every occurrence of spam terms in files: path, start, end, term (tab-separated).")
final class ScanCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--terms",
      paramLabel = "FILE",
      description =
          "Term file: one term per line, UTF-8, '#' comment lines and blank lines ignored, "
              + "whitespace trimmed. Default: the built-in spam list.")
  Path termsFile;

  @Option(
      names = "--algorithm",
      paramLabel = "NAME",
      defaultValue = "best",
      description =
          "naive, boyer-moore, trie, aho-corasick, wu-manber, org-ahocorasick or best "
              + "(default: ${DEFAULT-VALUE}).")
  String algorithm;

  @Option(names = "--ignore-case", description = "Match under Unicode simple case folding.")
  boolean ignoreCase;

  @Option(
      names = "--whole-words",
      description = "Only report matches with no letter or digit right before or after them.")
  boolean wholeWords;

  @Parameters(paramLabel = "FILE", arity = "1..*", description = "Files to scan ('-' is stdin).")
  List<String> files;

  @Override
  public Integer call() {
    MatcherKind kind = parseAlgorithm();
    List<String> terms = readTerms();
    TermSet set = TermSet.of(terms, new MatchOptions(ignoreCase, wholeWords));
    TermMatcher matcher = kind == null ? TermMatcher.best(set) : kind.compile(set);

    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int exitCode = 0;
    for (String file : files) {
      String text;
      try {
        text = readText(file);
      } catch (IOException e) {
        err.println("burnbox scan: cannot read " + file + ": " + describe(e));
        exitCode = 1;
        continue;
      }
      matcher.forEachMatch(
          text,
          (term, start, end) ->
              out.append(file)
                  .append('\t')
                  .append(Integer.toString(start))
                  .append('\t')
                  .append(Integer.toString(end))
                  .append('\t')
                  .append(set.term(term))
                  .append('\n'));
    }
    out.flush();
    err.flush();
    return exitCode;
  }

  private MatcherKind parseAlgorithm() {
    if (algorithm.equals("best")) {
      return null;
    }
    try {
      return MatcherKind.fromCliName(algorithm);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "Unknown --algorithm '" + algorithm + "'");
    }
  }

  private List<String> readTerms() {
    if (termsFile == null) {
      return SpamTerms.defaults();
    }
    try {
      return TermList.read(termsFile);
    } catch (IOException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "Cannot read --terms " + termsFile + ": " + describe(e));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "Bad term in --terms " + termsFile + ": " + e.getMessage());
    }
  }

  private static String readText(String file) throws IOException {
    byte[] bytes;
    if (file.equals("-")) {
      InputStream in = System.in;
      bytes = in.readAllBytes();
    } else {
      bytes = Files.readAllBytes(Path.of(file));
    }
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE)
        .decode(ByteBuffer.wrap(bytes))
        .toString();
  }

  private static String describe(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
