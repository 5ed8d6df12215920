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
        "bób",
        "\u212Aate", // Kelvin sign: lower-cases to ASCII k, must be refused before that
        "bob@x",
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
  void quotesHostileInputBoundedAndEscaped() {
    assertThatThrownBy(() -> InboxName.of("a\u0000b"))
        .hasMessageContaining("\\u0000")
        .hasMessageContaining("index 1");
    assertThatThrownBy(() -> InboxName.of("x".repeat(10_000))).message().hasSizeLessThan(200);
  }
}
