package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InboxNameTest {

  @Test
  void lowerCasesAndKeepsTheTag() {
    InboxName name = InboxName.of("Bob.Smith_1-x+News");
    assertThat(name.value()).isEqualTo("bob.smith_1-x+news");
    assertThat(name).isEqualTo(InboxName.of("bob.smith_1-x+NEWS"));
    assertThat(name.hasTag()).isTrue();
    assertThat(name.withoutTag()).isEqualTo(InboxName.of("bob.smith_1-x"));
    assertThat(InboxName.of("bob").withoutTag()).isEqualTo(InboxName.of("bob"));
    assertThat(InboxName.of("a+b+c").withoutTag().value()).isEqualTo("a");
  }

  @Test
  void acceptsLettersOfAnyScriptNormalisedAndLowerCased() {
    assertThat(InboxName.of("Jörg").value()).isEqualTo("jörg");
    assertThat(InboxName.of("Jo\u0308rg")).as("decomposed ö").isEqualTo(InboxName.of("jörg"));
    assertThat(InboxName.of("ИВАН").value()).isEqualTo("иван");
    assertThat(InboxName.of("张伟").value()).isEqualTo("张伟");
    assertThat(InboxName.of("\u212Aate"))
        .as("the Kelvin sign is a K")
        .isEqualTo(InboxName.of("kate"));
    assertThat(InboxName.fromAddress("Jörg+Tag@bücher.test").withoutTag().value())
        .isEqualTo("jörg");
  }

  @Test
  void acceptsSixtyFourCharacters() {
    assertThat(InboxName.of("a".repeat(64)).value()).hasSize(InboxName.MAX_LENGTH);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        ".bob",
        "bob.",
        "bo..b",
        "bob smith",
        "bob/x",
        "bob%2f",
        "bob\u2603", // a symbol (snowman)
        "bob\u200bx", // a format character (zero-width space)
        "bob\u00a0x", // a space separator (no-break space)
        "\u0301bob", // a mark with no letter before it
        "bob!",
        "@team.example",
        "bob@@team.example",
        "<bob>",
        "+tag",
        "bob.+tag",
        "bob\n",
      })
  void refusesUnsafeNames(String bad) {
    assertThatThrownBy(() -> InboxName.of(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("inbox name");
  }

  @Test
  void refusesNamesLongerThanSixtyFourCharacters() {
    assertThatThrownBy(() -> InboxName.of("a".repeat(65)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("longer than 64");
  }

  /**
   * 64 is counted in code points of the normalised name, not in UTF-16 units: a letter outside the
   * Basic Multilingual Plane counts one, and a decomposed name counts as its composed form does.
   */
  @Test
  void countsCodePointsOfTheNormalisedName() {
    String deseret = "\uD801\uDC00"; // 𐐀, a capital letter outside the BMP
    InboxName name = InboxName.of(deseret.repeat(64));
    assertThat(name.value()).isEqualTo("\uD801\uDC28".repeat(64)).hasSize(128); // 𐐨, lower case
    assertThatThrownBy(() -> InboxName.of(deseret.repeat(65)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("longer than 64");
    assertThat(InboxName.of("e\u0301".repeat(64))).isEqualTo(InboxName.of("\u00e9".repeat(64)));
  }

  /**
   * A letter may carry several marks (Yoruba ẹ́ has no precomposed form; so é with a second acute
   * stays two code points), but a name cannot start with one.
   */
  @Test
  void aLetterMayCarrySeveralMarksButANameCannotStartWithOne() {
    assertThat(InboxName.of("\u1eb9\u0301").value()).isEqualTo("\u1eb9\u0301");
    assertThat(InboxName.of("\u00e9\u0301").value()).hasSize(2);
    assertThatThrownBy(() -> InboxName.of("\u0301"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("U+0301 (index 0)");
  }

  @Test
  void comesFromAFullAddress() {
    assertThat(InboxName.fromAddress("Bob+X@Example.COM")).isEqualTo(InboxName.of("bob+x"));
    assertThatThrownBy(() -> InboxName.fromAddress("bob"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no '@'");
    assertThatThrownBy(() -> InboxName.fromAddress("bob@"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty domain");
    assertThatThrownBy(() -> InboxName.fromAddress("@example.com"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
    assertThatThrownBy(() -> InboxName.fromAddress("\"a@b\"@example.com"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anInboxKeptApartForADomainCarriesIt() {
    InboxName name = InboxName.of("Bob+CI", "Team.Example");
    assertThat(name.value()).isEqualTo("bob+ci@team.example");
    assertThat(name.domain()).isEqualTo("team.example");
    assertThat(name).isEqualTo(InboxName.of("bob+ci@team.example"));
    assertThat(name).isNotEqualTo(InboxName.of("bob+ci"));
    assertThat(name.hasTag()).isTrue();
    assertThat(name.withoutTag()).isEqualTo(InboxName.of("bob", "team.example"));
    assertThat(InboxName.of("bob").domain()).isNull();
    assertThat(InboxName.of("bob-x@a-1.example").hasTag()).isFalse();
    assertThat(InboxName.of("bob@xn--bcher-kva.example").domain())
        .isEqualTo("xn--bcher-kva.example");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "bob@",
        "bob@team..example",
        "bob@.team.example",
        "bob@team.example.",
        "bob@-team.example",
        "bob@team-.example",
        "bob@team_x.example",
        "bob@bücher.example",
        "bob@team example",
      })
  void refusesBadDomains(String bad) {
    assertThatThrownBy(() -> InboxName.of(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("domain");
  }

  @Test
  void aDomainLabelHasAtMost63Characters() {
    String longest = "a".repeat(63);
    assertThat(InboxName.domainName(longest + ".example")).isEqualTo(longest + ".example");
    assertThatThrownBy(() -> InboxName.domainName(longest + "a.example"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 63 characters");
  }

  @Test
  void quotesHostileInputBoundedAndEscaped() {
    assertThatThrownBy(() -> InboxName.of("a\u0000b"))
        .hasMessageContaining("\\u0000")
        .hasMessageContaining("index 1");
    assertThatThrownBy(() -> InboxName.of("x".repeat(10_000))).message().hasSizeLessThan(200);
  }
}
