package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScanCommandTest {
  @TempDir Path dir;

  private record Result(int exitCode, String out, String err) {}

  private Result scan(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = new String[args.length + 1];
    all[0] = "scan";
    System.arraycopy(args, 0, all, 1, args.length);
    int code = BurnboxCli.run(new PrintWriter(out), new PrintWriter(err), all);
    return new Result(code, out.toString(), err.toString());
  }

  private Path write(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "naive",
        "boyer-moore",
        "trie",
        "aho-corasick",
        "wu-manber",
        "org-ahocorasick",
        "best"
      })
  void printsEveryOccurrenceAsPathStartEndTermInContractOrder(String algorithm) throws IOException {
    Path terms = write("terms.txt", "# spam\n  he \n\nshe\nhers\nhis\n");
    Path mail = write("mail.txt", "ushers");

    Result result = scan("--terms", terms.toString(), "--algorithm", algorithm, mail.toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out())
        .isEqualTo(mail + "\t1\t4\tshe\n" + mail + "\t2\t4\the\n" + mail + "\t2\t6\thers\n");
  }

  @Test
  void ignoreCaseAndWholeWordsApply() throws IOException {
    Path terms = write("terms.txt", "Cash\n");
    Path mail = write("mail.txt", "CASH cashier cash-back");

    Result result =
        scan("--terms", terms.toString(), "--ignore-case", "--whole-words", mail.toString());

    assertThat(result.out()).isEqualTo(mail + "\t0\t4\tCash\n" + mail + "\t13\t17\tCash\n");
  }

  @Test
  void scansSeveralFilesInTheOrderGiven() throws IOException {
    Path terms = write("terms.txt", "win\n");
    Path first = write("a.txt", "you win");
    Path second = write("b.txt", "win win");

    Result result = scan("--terms", terms.toString(), first.toString(), second.toString());

    assertThat(result.out())
        .isEqualTo(first + "\t4\t7\twin\n" + second + "\t0\t3\twin\n" + second + "\t4\t7\twin\n");
  }

  @Test
  void usesTheBuiltInSpamListWithoutTerms() throws IOException {
    Path mail = write("mail.txt", "Please verify your account to claim your lottery winnings");

    Result result = scan("--ignore-case", mail.toString());

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isNotEmpty();
  }

  @Test
  void anUnreadableFileIsReportedAndTheOthersAreStillScanned() throws IOException {
    Path terms = write("terms.txt", "win\n");
    Path mail = write("mail.txt", "win");

    Result result =
        scan("--terms", terms.toString(), dir.resolve("missing.txt").toString(), mail.toString());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains("cannot read").contains("missing.txt");
    assertThat(result.out()).isEqualTo(mail + "\t0\t3\twin\n");
  }

  @Test
  void offsetsAreUtf16IndicesIntoTheDecodedText() throws IOException {
    Path terms = write("terms.txt", "prize\n");
    Path mail = write("mail.txt", "💰 prize");

    assertThat(scan("--terms", terms.toString(), mail.toString()).out())
        .isEqualTo(mail + "\t3\t8\tprize\n");
  }

  @Test
  void anUnknownAlgorithmIsAUsageError() throws IOException {
    Path mail = write("mail.txt", "x");

    Result result = scan("--algorithm", "quantum", mail.toString());

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains("Unknown --algorithm 'quantum'").contains("Usage:");
  }

  @Test
  void missingFilesAndUnknownOptionsAreUsageErrors() {
    assertThat(scan().exitCode()).isEqualTo(2);
    assertThat(scan("--frobnicate", "x").exitCode()).isEqualTo(2);
  }

  @Test
  void anUnreadableTermFileIsAUsageError() throws IOException {
    Path mail = write("mail.txt", "x");

    Result result = scan("--terms", dir.resolve("nope.txt").toString(), mail.toString());

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains("Cannot read --terms");
  }
}
