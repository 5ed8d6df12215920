package dev.burnbox.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Replaces the generated part of a markdown file, between {@link #BEGIN} and {@link #END}, leaving
 * everything else byte for byte as it was. A missing file is created with a short introduction; a
 * file without the markers gets them appended.
 */
public final class MarkdownSection {
  /** Opens the generated section. */
  public static final String BEGIN = "<!-- matcher-bench:begin -->";

  /** Closes it. */
  public static final String END = "<!-- matcher-bench:end -->";

  static final String NEW_FILE_INTRO =
      "# Matcher benchmarks\n\n"
          + "Throughput, build time and retained heap of the term matchers (`matcher` module),"
          + " measured with JMH by\n"
          + "`bench/run-matcher-bench.sh [quick|full]`. The section between the markers below is"
          + " generated:\n"
          + "edit around it, not inside it.\n\n";

  private MarkdownSection() {}

  /**
   * {@code document} with the text between the markers replaced by {@code content}.
   *
   * @throws IllegalArgumentException if the markers are missing, repeated or out of order
   */
  public static String replace(String document, String content) {
    int begin = document.indexOf(BEGIN);
    int end = document.indexOf(END);
    if (begin < 0 || end < 0) {
      throw new IllegalArgumentException("markers " + BEGIN + " / " + END + " not found");
    }
    if (end < begin
        || document.indexOf(BEGIN, begin + 1) >= 0
        || document.indexOf(END, end + 1) >= 0) {
      throw new IllegalArgumentException("markers repeated or out of order");
    }
    String body = content.endsWith("\n") ? content : content + "\n";
    return document.substring(0, begin + BEGIN.length()) + "\n" + body + document.substring(end);
  }

  /** The markers with nothing between them. */
  public static String emptySection() {
    return BEGIN + "\n" + END + "\n";
  }

  /** Writes {@code content} between the markers of {@code file}; see the class comment. */
  public static void update(Path file, String content) throws IOException {
    String document;
    if (Files.exists(file)) {
      document = Files.readString(file, StandardCharsets.UTF_8);
      if (!document.contains(BEGIN) && !document.contains(END)) {
        document +=
            (document.isEmpty() || document.endsWith("\n") ? "\n" : "\n\n") + emptySection();
      }
    } else {
      document = NEW_FILE_INTRO + emptySection();
      if (file.toAbsolutePath().getParent() != null) {
        Files.createDirectories(file.toAbsolutePath().getParent());
      }
    }
    Files.writeString(file, replace(document, content), StandardCharsets.UTF_8);
  }
}
