package dev.burnbox.wordlists;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TermListTest {
  @TempDir Path dir;

  private static List<String> parse(String text) throws IOException {
    return TermList.parse(new StringReader(text));
  }

  @Test
  void skipsCommentsAndBlankLinesAndTrims() throws IOException {
    String text = "# heading\nviagra\n\n   \n  act now  \n\t# indented comment\nwire transfer\t\n";
    assertThat(parse(text)).containsExactly("viagra", "act now", "wire transfer");
  }

  @Test
  void hashInsideATermIsPartOfIt() throws IOException {
    assertThat(parse("c#\nf# sharp\nissue #42\n#comment\n"))
        .containsExactly("c#", "f# sharp", "issue #42");
  }

  @Test
  void handlesCrLfAndCrAndMissingFinalNewline() throws IOException {
    assertThat(parse("one\r\ntwo\r\n# c\r\n\r\nthree\rfour"))
        .containsExactly("one", "two", "three", "four");
  }

  @Test
  void trimsWhitespaceButNotNoBreakSpace() throws IOException {
    assertThat(parse("\u2003 em space\u3000\n\u00A0nbsp\n"))
        .containsExactly("em space", "\u00A0nbsp");
  }

  @Test
  void keepsOrderCaseAndDuplicates() throws IOException {
    assertThat(parse("b\nA\nb\na\n")).containsExactly("b", "A", "b", "a");
  }

  @Test
  void stripsALeadingByteOrderMarkOnly() throws IOException {
    assertThat(parse("\uFEFFviagra\nx\uFEFFy\n")).containsExactly("viagra", "x\uFEFFy");
    assertThat(parse("\uFEFF# comment\nterm\n")).containsExactly("term");
  }

  @Test
  void emptyInputGivesEmptyList() throws IOException {
    assertThat(parse("")).isEmpty();
    assertThat(parse("# only comments\n\n")).isEmpty();
  }

  @Test
  void resultIsImmutable() throws IOException {
    List<String> terms = parse("a\n");
    assertThatThrownBy(() -> terms.add("b")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void readsUtf8FilesWithBom() throws IOException {
    Path file = dir.resolve("terms.txt");
    Files.write(file, "\uFEFF# spam\r\ncafé gratuit\r\nnaïve\r\n".getBytes(StandardCharsets.UTF_8));
    assertThat(TermList.read(file)).containsExactly("café gratuit", "naïve");
  }

  @Test
  void malformedUtf8IsAnIoException() throws IOException {
    Path file = dir.resolve("bad.txt");
    Files.write(file, new byte[] {'o', 'k', '\n', (byte) 0xC3, (byte) 0x28, '\n'});
    assertThatThrownBy(() -> TermList.read(file)).isInstanceOf(MalformedInputException.class);
  }

  @Test
  void missingFileIsAnIoException() {
    assertThatThrownBy(() -> TermList.read(dir.resolve("absent.txt")))
        .isInstanceOf(IOException.class);
  }
}
