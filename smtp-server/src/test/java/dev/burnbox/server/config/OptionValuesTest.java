package dev.burnbox.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
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
}
