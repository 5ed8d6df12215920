package dev.burnbox.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class OptionValuesTest {
  @ParameterizedTest
  @CsvSource({
    "1048576, 1048576",
    "512k, 524288",
    "10MiB, 10485760",
    "10 mb, 10485760",
    "2g, 2147483648",
    "256M, 268435456",
    "0, 0"
  })
  void byteSizesUseBinaryUnits(String text, long bytes) {
    assertThat(OptionValues.parseBytes(text)).isEqualTo(bytes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "ten", "-5", "5 TB", "1.5m", "99999999999999999999g"})
  void badByteSizesAreRejected(String text) {
    assertThatThrownBy(() -> OptionValues.parseBytes(text))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aByteSizeTooLargeForItsSettingIsRefusedNamingTheLimit() {
    assertThatThrownBy(() -> OptionValues.parseBytes("99999999999999999999"))
        .hasMessage(
            "byte size too large: '99999999999999999999' (at most 9223372036854775807 bytes)");
    OptionValues.IntBytes intBytes = new OptionValues.IntBytes();
    assertThat(intBytes.convert("2147483646")).isEqualTo(Integer.MAX_VALUE - 1);
    assertThat(intBytes.convert("1g")).isEqualTo(1 << 30);
    assertThatThrownBy(() -> intBytes.convert("2g"))
        .hasMessage("byte size too large: '2g' (at most 2147483646 bytes)");
    assertThatThrownBy(() -> intBytes.convert("2147483647"))
        .hasMessage("byte size too large: '2147483647' (at most 2147483646 bytes)");
  }

  @ParameterizedTest
  @CsvSource({"42, 42", "010, 10", "' 7 ', 7", "+3, 3", "-5, -5", "2147483647, 2147483647"})
  void wholeNumbersAreDecimal(String text, int value) {
    assertThat(OptionValues.parseInt(text)).isEqualTo(value);
  }

  @ParameterizedTest
  @CsvSource({
    "'', not a whole number: ''",
    "0x10, not a whole number: '0x10'",
    "1.5, not a whole number: '1.5'",
    "2147483648, too large: '2147483648' (at most 2147483647)",
    "-99999999999, too small: '-99999999999' (at least -2147483648)"
  })
  void aNumberAnIntCannotHoldIsRefusedSayingWhy(String text, String message) {
    assertThatThrownBy(() -> OptionValues.parseInt(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @ParameterizedTest
  @CsvSource({
    "24h, PT24H",
    "90s, PT1M30S",
    "1h30m, PT1H30M",
    "250ms, PT0.25S",
    "2d, PT48H",
    "PT24H, PT24H",
    "pt5m, PT5M"
  })
  void durationsTakeUnitsOrIso8601(String text, String iso) {
    assertThat(OptionValues.parseDuration(text)).isEqualTo(Duration.parse(iso));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "h", "24", "24 h", "1h 30m", "5w", "PTxx", "1h-"})
  void badDurationsAreRejected(String text) {
    assertThatThrownBy(() -> OptionValues.parseDuration(text))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @CsvSource({
    "PT30S, 30s",
    "PT1M30S, 1m30s",
    "PT1H30M, 1h30m",
    "PT0.25S, 250ms",
    "PT24H, 1d",
    "PT26H, 1d2h",
    "PT0S, 0s",
    "PT0.0001S, PT0.0001S"
  })
  void aDurationIsWrittenInTheUnitsItIsGivenIn(String iso, String written) {
    Duration duration = Duration.parse(iso);
    assertThat(OptionValues.formatDuration(duration)).isEqualTo(written);
    assertThat(OptionValues.parseDuration(written)).isEqualTo(duration);
  }
}
