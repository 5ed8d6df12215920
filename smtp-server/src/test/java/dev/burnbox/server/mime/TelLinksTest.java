package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TelLinksTest {
  @Test
  void aNumbersSpacesAndBracketsReadAlikeEncodedOrNot() {
    assertThat(TelLinks.number("tel:+1 (555) 010-0199")).isEqualTo("+1 (555) 010-0199");
    assertThat(TelLinks.number("tel:+1%20%28555%29%20010-0199")).isEqualTo("+1 (555) 010-0199");
    assertThat(TelLinks.number("TEL:+44%2020.7946.0000")).isEqualTo("+44 20.7946.0000");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "tel:",
        "tel:javascript:alert(1)",
        "tel:+1%2B555",
        "tel:555;ext=1",
        "tel:1%2520",
        "tel:1/2",
        "tel:\u0661\u0662",
        " tel:123",
        "https://example.org/",
        "tel"
      })
  void anythingButAPhoneNumberIsNone(String url) {
    assertThat(TelLinks.number(url)).isNull();
  }
}
