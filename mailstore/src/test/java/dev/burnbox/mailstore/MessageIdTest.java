package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MessageIdTest {

  @Test
  void randomIdsAreUrlSafeDistinctAndRoundTrip() {
    Set<MessageId> seen = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      MessageId id = MessageId.random();
      assertThat(id.value()).hasSize(MessageId.LENGTH).matches("[A-Za-z0-9_-]+");
      assertThat(MessageId.parse(id.value())).isEqualTo(id);
      assertThat(seen.add(id)).isTrue();
    }
  }

  @Test
  void carriesAtLeastNinetySixRandomBits() {
    assertThat(MessageId.BITS).isGreaterThanOrEqualTo(96);
    assertThat(Base64.getUrlDecoder().decode(MessageId.random().value()))
        .hasSize(MessageId.BITS / 8);
  }

  @Test
  void aRoutedIdKeepsItsRouteThroughTextAndOneHundredTwentyRandomBits() {
    assertThat(MessageId.RANDOM_BITS).isEqualTo(MessageId.BITS - MessageId.ROUTE_BITS);
    Set<MessageId> seen = new HashSet<>();
    for (int route : new int[] {0, 1, 7, 128, 255}) {
      for (int i = 0; i < 1000; i++) {
        MessageId id = MessageId.random(route);
        assertThat(MessageId.parse(id.value()).route()).isEqualTo(route);
        assertThat(seen.add(id)).isTrue();
      }
    }
    // the first 120 bits still vary: two ids on one route differ early
    assertThat(MessageId.random(3).value().substring(0, 6))
        .isNotEqualTo(MessageId.random(3).value().substring(0, 6));
    assertThatThrownBy(() -> MessageId.random(256)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MessageId.random(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void consecutiveIdsShareNoCommonPrefix() {
    // not sequential: two ids in a row differ early (a shared 6-char prefix has odds 2^-36)
    MessageId a = MessageId.random();
    MessageId b = MessageId.random();
    assertThat(a.value().substring(0, 6)).isNotEqualTo(b.value().substring(0, 6));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "short",
        "AAAAAAAAAAAAAAAAAAAAAAA", // 23 chars
        "AAAAAAAAAAAAAAAAAAAAA=", // padding
        "AAAAAAAAAAAAAAAAAAAA+/", // not URL-safe
        "AAAAAAAAAAAAAAAAAAAAA.",
        "AAAAAAAAAAAAAAAAAAAAAB", // non-zero unused bits: not canonical
      })
  void parseRefusesMalformedIds(String bad) {
    assertThatThrownBy(() -> MessageId.parse(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("message id");
  }
}
