package dev.burnbox.matcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The steps of {@link TextNormalizer}, one table of cases each, and its map back to offsets. */
class TextNormalizerTest {

  private static final TextNormalizer NORMALIZER = TextNormalizer.standard();

  /** One row: an original text and its expected normalised text. */
  record Row(String step, String original, String expected) {
    @Override
    public String toString() {
      return step + ": " + escaped(original);
    }
  }

  private static Row row(String step, String original, String expected) {
    return new Row(step, original, expected);
  }

  static List<Row> steps() {
    String invisible = "1 invisible";
    String compatibility = "2 compatibility";
    String lookalike = "3 look-alike";
    String caseFolding = "4 case folding";
    String marks = "5 marks";
    String split = "6 split letters";
    String leet = "7 leetspeak";
    return List.of(
        row(invisible, "v\u200Biagra", "viagra"),
        row(invisible, "vi\u200Cag\u200Dra", "viagra"),
        row(invisible, "\uFEFFviagra\uFEFF", "viagra"),
        row(invisible, "vi\u00ADa\u00ADgra", "viagra"),
        row(invisible, "via\u2060gra", "viagra"),
        row(invisible, "\u202Ev\u202Biagra\u202C\u200E", "viagra"),
        row(invisible, "vi\uFE0Fagra\uFE00", "viagra"),
        row(invisible, "via\u034Fgra\u180E", "viagra"),
        row(invisible, "v\uDB40\uDC20iagra", "viagra"),
        row(invisible, "\u3164via\u115Fgra", "viagra"),
        row(invisible, "e\u200B\u0301", "e"),
        row(compatibility, "ＦＲＥＥ", "free"),
        row(compatibility, "ﬁnance ﬂow", "finance flow"),
        row(compatibility, "𝐯𝐢𝐚𝐠𝐫𝐚 𝒗𝒊𝒂", "viagra via"),
        row(compatibility, "ⓥⓘⓐⓖⓡⓐ", "viagra"),
        row(compatibility, "free\u00A0money\u2003now\u3000ok", "free money now ok"),
        row(compatibility, "x² ①②③ ™", "x2 123 tm"),
        row(compatibility, "ｐ＠ｓｓ", "pass"),
        row(lookalike, "vіаgrа", "viagra"),
        row(lookalike, "VІAGRA", "viagra"),
        row(lookalike, "ΡΑΥΡΑL", "paypal"),
        row(lookalike, "ΝΟΚΙΑ", "nokia"),
        row(lookalike, "сlісk һеrе", "click here"),
        row(lookalike, "кеу ѕех", "key sex"),
        row(lookalike, "ḿoney ŀ", "money l·"),
        row(
            lookalike,
            "ASCII stays as written: rn, modern, l1, I'm",
            "ascii stays as written: rn, modern, l1, i'm"),
        row(lookalike, "й кошка 한국어 日本語", "й kowka 한국어 日本語"),
        row(lookalike, "ð χ", "ð χ"),
        row(caseFolding, "VIAGRA", "viagra"),
        row(caseFolding, "STRASSE Straße", "strasse strasse"),
        row(caseFolding, "İstanbul", "istanbul"),
        row(marks, "víagra", "viagra"),
        row(marks, "vi\u0301agra", "viagra"),
        row(marks, "v\u0332i\u0332a\u0332", "via"),
        row(marks, "v\u0336\u0334i\u0337\u0338a\u0489", "via"),
        row(marks, "viagra\u20DD", "viagra"),
        row(marks, "café naïve øre łódź", "cafe naive ore lodz"),
        row(marks, "p@\u0301ss", "pass"),
        row(marks, "\u0301a", "\u0301a"),
        row(marks, "a \u0301", "a \u0301"),
        row(split, "v i a g r a", "viagra"),
        row(split, "v.i.a.g.r.a", "viagra"),
        row(split, "v-i-a-g-r-a", "viagra"),
        row(split, "v_i_a_g_r_a", "viagra"),
        row(split, "v*i*a*g*r*a", "viagra"),
        row(split, "v/i/a/g/r/a", "viagra"),
        row(split, "v.i-a_g*r/a", "viagra"),
        row(split, "v·i·a•g∙r⋅a", "viagra"),
        row(split, "Buy v.i.a.g.r.a now", "buy viagra now"),
        row(split, "x y z", "xyz"),
        row(split, "v 1 a g r a", "viagra"),
        row(split, "f.r.3.3", "free"),
        row(split, "v  i  a", "v  i  a"),
        row(split, "v. i. a.", "v. i. a."),
        row(split, "a b", "a b"),
        row(split, "I have a dog", "i have a dog"),
        row(split, "U.S.A. and e.g. i.e.", "u.s.a. and e.g. i.e."),
        row(split, "1 3 5", "1 3 5"),
        row(split, "http://a.b.c/d/e/f", "http://a.b.c/d/e/f"),
        row(leet, "v1agra", "viagra"),
        row(leet, "fr33", "free"),
        row(leet, "p@ssword.", "password."),
        row(leet, "m0n3y ca$h c!alis he|p s3x", "money cash cialis help sex"),
        row(leet, "busine55 be57", "business best"),
        row(leet, "2002 $100 24h 3.5 v2.0 100%", "2002 $100 24h 3.5 v2.0 100%"),
        row(
            leet,
            "mp3 ipv4 html5 3rd 1st 5pm 10:30am 4x4",
            "mp3 ipv4 html5 3rd 1st 5pm 10:30am 4x4"),
        row(leet, "x86 h264 covid19 utf8 win10 eur100", "x86 h264 covid19 utf8 win10 eur100"),
        row(leet, "free! wow!!! @john $HOME US$5", "free! wow!!! @john $home us$5"),
        row(leet, "jane@example.com", "jane@example.com"),
        row(
            leet,
            "https://example.com/v1agra www.fr33.example",
            "https://example.com/v1agra www.fr33.example"),
        row(leet, "v1agra@", "viagra@"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("steps")
  void undoesEachDisguise(Row row) {
    NormalizedText normalized = NORMALIZER.normalize(row.original());

    assertThat(normalized.text()).isEqualTo(row.expected());
    assertThat(normalized.original()).isSameAs(row.original());
    assertMapIsMonotoneAndInRange(normalized, row.toString());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("steps")
  void normalisingTwiceChangesNothingMore(Row row) {
    assertThat(NORMALIZER.normalizeTerm(row.expected())).isEqualTo(row.expected());
  }

  /** One row: a normalised term found in the normalised original, and the original it maps to. */
  record Span(String original, String term, String expectedOriginal) {
    @Override
    public String toString() {
      return escaped(original) + " / " + term;
    }
  }

  static List<Span> spans() {
    return List.of(
        new Span("Buy v.i.a.g.r.a now", "viagra", "v.i.a.g.r.a"),
        new Span("Buy v.i.a.g.r.a now", "via", "v.i.a"),
        new Span("Buy v.i.a.g.r.a now", "buy via", "Buy v.i.a"),
        new Span("Buy v i a g r a now", "agra", "a g r a"),
        new Span(
            "Buy \u200Bv\u200Bi\u200Ba\u200Bg\u200Br\u200Ba\u200B now",
            "viagra",
            "v\u200Bi\u200Ba\u200Bg\u200Br\u200Ba"),
        new Span("ﬁnance", "finance", "ﬁnance"),
        new Span("ﬁnance", "i", "ﬁ"),
        new Span("ﬁnance", "in", "ﬁn"),
        new Span("vi\u0301agra", "via", "vi\u0301a"),
        new Span("vi\u0301agra", "vi", "vi\u0301"),
        new Span("víagra", "i", "í"),
        new Span("VІAGRA!", "viagra", "VІAGRA"),
        new Span("buy 𝐯𝐢𝐚𝐠𝐫𝐚 now", "viagra", "𝐯𝐢𝐚𝐠𝐫𝐚"),
        new Span("buy 𝐯𝐢𝐚𝐠𝐫𝐚 now", "a", "𝐚"),
        new Span("viagra\u20DD!", "viagra", "viagra\u20DD"),
        new Span("viagra\u200B\u20DD!", "viagra", "viagra\u200B\u20DD"),
        new Span("get fr33 stuff", "free", "fr33"),
        new Span("Große Straße", "strasse", "Straße"),
        new Span("Große Straße", "ss", "ß"),
        new Span("v 1 a g r a!", "viagra", "v 1 a g r a"),
        new Span(
            "ｖ\u200Bі\u00ADа\u0301g\u200Dr\u0430", "viagra", "ｖ\u200Bі\u00ADа\u0301g\u200Dr\u0430"),
        new Span("x ™ y", "tm", "™"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("spans")
  void aMatchMapsBackToExactlyTheCharactersThatProducedIt(Span span) {
    NormalizedText normalized = NORMALIZER.normalize(span.original());
    int start = normalized.text().indexOf(span.term());
    assertThat(start).as("'%s' in '%s'", span.term(), normalized.text()).isNotNegative();
    int end = start + span.term().length();

    assertThat(
            span.original().substring(normalized.originalStart(start), normalized.originalEnd(end)))
        .isEqualTo(span.expectedOriginal());
  }

  /**
   * How {@code viagra} reaches the scanner once MIME and HTML decoding ({@code &#118;}) are done.
   */
  @Test
  void theDecodedFormsOfOneWordAllNormaliseToItAndMapBackWhole() {
    List<String> disguises =
        List.of(
            "viagra", // &#118;iagra, once the entity is decoded
            "vi\u0301agra", // a combining acute accent
            "víagra", // the precomposed accented letter
            "ｖｉａｇｒａ", // fullwidth
            "VIAGRA",
            "vіаgrа", // Cyrillic і and а
            "v\u200Bi\u200Ba\u200Bg\u200Br\u200Ba", // zero-width spaces
            "vi\u00ADag\u00ADra", // soft hyphens
            "Ｖ\u200Bі\u00ADа\u0301g\u200Dr\u0430", // all of them at once
            "v1@gra", // leetspeak
            "v.i.a.g.r.a");
    TermMatcher matcher =
        TermMatcher.best(TermSet.of(MatchOptions.EXACT, NORMALIZER.normalizeTerm("Viagra")));
    for (String disguise : disguises) {
      String original = "Cheap " + disguise + " here";
      NormalizedText normalized = NORMALIZER.normalize(original);

      List<Match> matches = matcher.findAll(normalized.text());

      assertThat(matches).as(escaped(disguise)).hasSize(1);
      Match match = matches.get(0);
      assertThat(
              original.substring(
                  normalized.originalStart(match.start()), normalized.originalEnd(match.end())))
          .as(escaped(disguise))
          .isEqualTo(disguise);
    }
  }

  @Test
  void ordinaryProseSurvivesJoiningAndLeetspeakExceptForCase() {
    String prose =
        """
        Hi Sam, the quarterly report (v2.0, 14 pages) is attached. Revenue rose 3.5% to \
        $1,250,000 in Q3 2024, and the board meets on 2024-11-05 at 10:30am in room 4B, or on \
        05/11/2024 at 9am if that fails. Please send comments to jane.doe@example.com or post \
        them at https://intranet.example.com/reports/q3?draft=1&lang=en before Friday the 8th. \
        I have a dog, a cat and a 24h deadline, so reply A.S.A.P. if you can; a b testing \
        aside, it is between a and b.

        Version 1.2.3 of the app fixes the mp3 import, adds IPv4 and IPv6 support, and drops \
        Windows 7. It runs on x86 and ARM64, needs 8 GB of RAM, and costs EUR 49 or US$59 a \
        year (was $100 in 2002). Call +1 (555) 010-0199, visit www.example.org/help, or write \
        to support+billing@example.co.uk. The T-shirt is 20% off, the 3rd and 4th items ship \
        free, the A/B test runs 9-5 on weekdays, and the x-ray of the 4x4 is in 3D. Wow!!! \
        Don't miss it: 100 % guaranteed, no strings attached. See e.g. p. 12, i.e. the FAQ, \
        or ask Dr. O'Neil (R&D, Q&A) at 7pm about C++ and C# on Wi-Fi. #1 in the U.S. since \
        1999; 2nd to none, 1st in class, 24/7 & 365 days a year, w/o fail, I/O bound.
        """;

    NormalizedText normalized = NORMALIZER.normalize(prose);

    assertThat(normalized.text()).isEqualTo(prose.toLowerCase(Locale.ROOT));
    for (int i = 0; i < prose.length(); i++) {
      assertThat(normalized.originalStart(i)).isEqualTo(i);
      assertThat(normalized.originalEnd(i + 1)).isEqualTo(i + 1);
    }
  }

  @Test
  void stepOneDropsAtLeastWhatTheHtmlDecoderDrops() {
    // smtp-server's HtmlText.withoutInvisibleCharacters drops these; the normaliser drops more
    String decoderDrops = "\u200B\u200C\u200D\u2060\u00AD\uFEFF";
    String more = "\u200E\u200F\u202A\u202E\u2066\u2069\u180E\uFE0F\u034F\u2061\u2064";
    for (char c : (decoderDrops + more).toCharArray()) {
      assertThat(NORMALIZER.normalize("a" + c + "b").text()).as("U+%04X", (int) c).isEqualTo("ab");
    }
  }

  @Test
  void theAsciiFastPathAgreesWithTheIcuSteps() {
    // appendLowerCaseAscii relies on this: every ASCII char starts an NFKC segment of its own, and
    // steps 2 to 5 only lower-case it
    for (char c = 0; c < 0x80; c++) {
      assertThat(UnicodeDisguises.startsSegment(c)).as("U+%04X", (int) c).isTrue();
      assertThat(UnicodeDisguises.normalizeSegment(String.valueOf(c)))
          .as("U+%04X", (int) c)
          .isEqualTo(String.valueOf(c).toLowerCase(Locale.ROOT));
    }
  }

  @Test
  void theAsciiFastPathLowerCasesEveryAsciiCharAsJavaDoes() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x80; c++) {
      all.append(c);
    }
    String ascii = all.toString();
    // in place, while the text is still the original's
    MappedCharBuffer inPlace = new MappedCharBuffer(ascii);
    assertThat(inPlace.appendLowerCaseAscii(ascii, 0)).isEqualTo(ascii.length());
    assertThat(new String(inPlace.chars(), 0, inPlace.length()))
        .isEqualTo(ascii.toLowerCase(Locale.ROOT));
    // after a char that two original chars made, with ranges
    String original = "xy" + ascii;
    MappedCharBuffer mapped = new MappedCharBuffer(original);
    mapped.append('z', 0, 2);
    assertThat(mapped.appendLowerCaseAscii(original, 2)).isEqualTo(original.length());
    assertThat(new String(mapped.chars(), 1, mapped.length() - 1))
        .isEqualTo(ascii.toLowerCase(Locale.ROOT));
  }

  @Test
  void normalizeTermIsTheTextOfNormalize() {
    for (Row row : steps()) {
      assertThat(NORMALIZER.normalizeTerm(row.original()))
          .isEqualTo(NORMALIZER.normalize(row.original()).text());
    }
  }

  @Test
  void theStandardNormalizerIsOneSharedInstance() {
    assertThat(TextNormalizer.standard()).isSameAs(TextNormalizer.standard());
  }

  @Test
  void theEndsOfTheTextMapToTheEndsOfTheOriginal() {
    NormalizedText normalized = NORMALIZER.normalize("\u200Bab\u200B");

    assertThat(normalized.text()).isEqualTo("ab");
    assertThat(normalized.originalStart(0)).isEqualTo(1);
    assertThat(normalized.originalEnd(2)).isEqualTo(3);
    assertThat(normalized.originalStart(2)).isEqualTo(4);
    assertThat(normalized.originalEnd(0)).isZero();
  }

  @Test
  void anEmptyOrInvisibleTextNormalisesToNothing() {
    for (String original : List.of("", "\u200B\u00AD\uFEFF")) {
      NormalizedText normalized = NORMALIZER.normalize(original);
      assertThat(normalized.text()).isEmpty();
      assertThat(normalized.originalStart(0)).isEqualTo(original.length());
      assertThat(normalized.originalEnd(0)).isZero();
    }
  }

  @Test
  void offsetsOutsideTheTextAreRejected() {
    NormalizedText normalized = NORMALIZER.normalize("ﬁ");

    assertThatThrownBy(() -> normalized.originalStart(3))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> normalized.originalEnd(-1))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void unpairedSurrogatesPassThrough() {
    assertThat(NORMALIZER.normalize("a\uD800b\uDC00c").text()).isEqualTo("a\uD800b\uDC00c");
  }

  @Test
  void concurrentCallsAgreeWithASingleThread() {
    // the per-character cache is filled without locks; results must not depend on who fills it
    List<String> inputs = steps().stream().map(Row::original).toList();
    List<String> expected = inputs.stream().map(NORMALIZER::normalizeTerm).toList();
    IntStream.range(0, 200)
        .parallel()
        .forEach(
            i -> {
              int k = i % inputs.size();
              assertThat(NORMALIZER.normalizeTerm(inputs.get(k))).isEqualTo(expected.get(k));
            });
  }

  /**
   * Checks the contract of the map: both directions monotone, inside the original, and every
   * normalised char mapped to a non-empty original range.
   */
  static void assertMapIsMonotoneAndInRange(NormalizedText normalized, String context) {
    int length = normalized.text().length();
    int previousStart = 0;
    int previousEnd = 0;
    for (int i = 0; i <= length; i++) {
      int start = normalized.originalStart(i);
      int end = normalized.originalEnd(i);
      assertThat(start).as("%s: start of %d", context, i).isGreaterThanOrEqualTo(previousStart);
      assertThat(end).as("%s: end of %d", context, i).isGreaterThanOrEqualTo(previousEnd);
      assertThat(start).as(context).isLessThanOrEqualTo(normalized.original().length());
      if (i < length) {
        assertThat(normalized.originalEnd(i + 1))
            .as("%s: range of %d", context, i)
            .isGreaterThan(start);
      }
      previousStart = start;
      previousEnd = end;
    }
  }

  static String escaped(String s) {
    StringBuilder out = new StringBuilder();
    s.codePoints()
        .forEach(
            cp -> {
              if (cp >= 0x20 && cp < 0x7F) {
                out.appendCodePoint(cp);
              } else {
                out.append(String.format("\\u{%X}", cp));
              }
            });
    return out.toString();
  }
}
