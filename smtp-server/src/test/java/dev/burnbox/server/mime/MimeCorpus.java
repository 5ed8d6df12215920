package dev.burnbox.server.mime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The hand-written odd messages in {@code src/test/resources/mime-corpus/} and what decoding each
 * must give, from {@code expectations.tsv} there.
 */
final class MimeCorpus {
  private MimeCorpus() {}

  /** One row of expectations.tsv. */
  record Expectation(
      String file,
      String subject,
      String from,
      List<String> scanContains,
      List<String> scanLacks,
      int attachments,
      boolean malformed) {
    @Override
    public String toString() {
      return file;
    }
  }

  static List<Expectation> expectations() {
    List<Expectation> rows = new ArrayList<>();
    for (String line : new String(read("expectations.tsv"), StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] cells = line.split("\t", -1);
      if (cells.length != 7) {
        throw new IllegalStateException("expectations.tsv: 7 cells expected in " + line);
      }
      rows.add(
          new Expectation(
              cells[0],
              cells[1],
              cells[2],
              snippets(cells[3]),
              snippets(cells[4]),
              Integer.parseInt(cells[5]),
              Boolean.parseBoolean(cells[6])));
    }
    return rows;
  }

  /** The raw bytes of corpus file {@code name}. */
  static byte[] read(String name) {
    try (InputStream in = MimeCorpus.class.getResourceAsStream("/mime-corpus/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no mime-corpus/" + name + " on the test class path");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every message of the corpus, in file order. */
  static List<byte[]> messages() {
    return expectations().stream().map(row -> read(row.file())).toList();
  }

  private static List<String> snippets(String cell) {
    if (cell.equals("-") || cell.isEmpty()) {
      return List.of();
    }
    return Arrays.stream(cell.split(";;")).map(s -> s.replace("\\n", "\n")).toList();
  }
}
