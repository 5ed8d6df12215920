package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link HeaderText#date}: RFC 5322's own form read directly, as mime4j's lenient parser does. */
class HeaderTextDateTest {
  private static final String[] SHAPES = {
    "EEE, d MMM yyyy HH:mm:ss Z",
    "EEE, dd MMM yyyy HH:mm:ss Z",
    "d MMM yyyy HH:mm:ss Z",
    "EEE, d MMM yyyy HH:mm:ss Z '(UTC)'",
    "EEE,d MMM yyyy HH:mm:ss Z",
    "EEE, d MMM yyyy HH:mm Z", // no seconds: lenient only
    "EEE, d MMM yy HH:mm:ss Z", // two-digit year: lenient only
    "EEE, d MMM yyyy HH:mm:ss z", // zone name: lenient only
    "EEE, d MMM yyyy  HH:mm:ss Z", // two spaces: lenient only
    "EEE, d MMM yyyy HH:mm:ss Z 'trailing words'",
    "EEE, d MMM yyyy HH:mm:ss",
  };

  @Test
  void everyDateReadsAsTheLenientParserReadsIt() {
    Random random = new Random(11);
    int strict = 0;
    for (int trial = 0; trial < 20_000; trial++) {
      String value = randomDate(random);
      assertThat(HeaderText.date(value)).as(value).isEqualTo(HeaderText.lenientDate(value));
      if (HeaderText.strictDate(value) != null) {
        strict++;
      }
    }
    assertThat(strict).as("dates read by the strict form").isGreaterThan(5_000);
  }

  @Test
  void theCommonFormsAreReadStrictly() {
    assertThat(HeaderText.strictDate("Fri, 27 Nov 2026 04:19:48 +0000 (UTC)"))
        .isEqualTo(Instant.parse("2026-11-27T04:19:48Z"));
    assertThat(HeaderText.strictDate("  7 Feb 2025 23:59:01 -0530"))
        .isEqualTo(Instant.parse("2025-02-08T05:29:01Z"));
    assertThat(HeaderText.strictDate("Mon, 31 Nov 2026 04:19:48 +0000")).isNull(); // rolls over
    assertThat(HeaderText.date("Mon, 31 Nov 2026 04:19:48 +0000"))
        .isEqualTo(HeaderText.lenientDate("Mon, 31 Nov 2026 04:19:48 +0000"));
  }

  /** A date in one of many shapes, some broken by a random edit. */
  private static String randomDate(Random random) {
    Instant instant = Instant.ofEpochSecond(random.nextLong(-2_000_000_000L, 4_000_000_000L));
    ZoneOffset offset = ZoneOffset.ofTotalSeconds(random.nextInt(-12 * 60, 14 * 60 + 1) * 60);
    ZonedDateTime time = instant.atZone(offset);
    String value =
        DateTimeFormatter.ofPattern(SHAPES[random.nextInt(SHAPES.length)], Locale.ENGLISH)
            .format(time);
    if (random.nextInt(5) == 0) {
      char[] chars = value.toCharArray();
      chars[random.nextInt(chars.length)] = "0123456789 :+-,(xA".charAt(random.nextInt(18));
      value = new String(chars);
    }
    return value;
  }
}
