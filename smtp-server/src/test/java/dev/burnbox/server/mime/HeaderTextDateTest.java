package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link HeaderText#date}: RFC 5322's syntax, obsolete forms included, read by hand; the rest left
 * to mime4j's lenient parser.
 */
class HeaderTextDateTest {
  private static final String[] SHAPES = {
    "EEE, d MMM yyyy HH:mm:ss Z",
    "EEE, dd MMM yyyy HH:mm:ss Z",
    "d MMM yyyy HH:mm:ss Z",
    "EEE, d MMM yyyy HH:mm:ss Z '(UTC)'",
    "EEE,d MMM yyyy HH:mm:ss Z",
    "EEE, d MMM yyyy HH:mm Z", // no seconds
    "EEE, d MMM yyyy  HH:mm:ss Z", // two spaces
    "EEE, d MMM yyyy HH:mm:ss Z 'trailing words'",
    "EEE, d MMM yyyy HH:mm:ss",
    "EEE, d MMM yy HH:mm:ss Z", // two-digit year: mime4j reads 50-69 as 2050-2069, not 19xx
    "EEE, d MMM yyyy HH:mm:ss z", // a zone as mime4j does not know it
  };

  /** The shapes up to here have four-digit years and numeric zones, which mime4j reads right. */
  private static final int READ_RIGHT_BY_MIME4J = 9;

  private static Instant date(String value) {
    return HeaderText.date(value).orElse(null);
  }

  @Test
  void everyDateMime4jReadsRightIsReadAsMime4jReadsIt() {
    Random random = new Random(11);
    int byHand = 0;
    for (int trial = 0; trial < 20_000; trial++) {
      int shape = random.nextInt(SHAPES.length);
      String value = randomDate(random, SHAPES[shape]);
      if (shape < READ_RIGHT_BY_MIME4J && HeaderText.lenientDate(value).isPresent()) {
        assertThat(HeaderText.date(value)).as(value).isEqualTo(HeaderText.lenientDate(value));
      }
      if (HeaderText.rfc5322Date(value) != null) {
        byHand++;
      }
    }
    assertThat(byHand).as("dates read by hand").isGreaterThan(12_000);
  }

  @Test
  void theCommonFormsAreReadByHand() {
    assertThat(HeaderText.rfc5322Date("Fri, 27 Nov 2026 04:19:48 +0000 (UTC)"))
        .isEqualTo(Instant.parse("2026-11-27T04:19:48Z"));
    assertThat(HeaderText.rfc5322Date("  7 Feb 2025 23:59:01 -0530"))
        .isEqualTo(Instant.parse("2025-02-08T05:29:01Z"));
    assertThat(HeaderText.rfc5322Date("Mon, 31 Nov 2026 04:19:48 +0000")) // rolls over
        .isEqualTo(HeaderText.lenientDate("Mon, 31 Nov 2026 04:19:48 +0000").orElseThrow());
    assertThat(date("Tue, 3 Feb 2026 10:00:00 +0530")).isEqualTo("2026-02-03T04:30:00Z");
    assertThat(date("Tue, 3 Feb 2026 10:00:00 -0000 (UTC)")).isEqualTo("2026-02-03T10:00:00Z");
  }

  @Test
  void obsoleteZoneNamesAreTheirOffsetsAndMilitaryLettersAreUtc() {
    String[][] zones = {
      {"EST", "15"}, {"EDT", "14"}, {"CST", "16"}, {"CDT", "15"}, {"MST", "17"}, {"MDT", "16"},
      {"PST", "18"}, {"PDT", "17"}, {"GMT", "10"}, {"UT", "10"}, {"UTC", "10"}, {"est", "15"},
      {"Z", "10"}, {"A", "10"}, {"m", "10"}, {"Y", "10"}
    };
    for (String[] zone : zones) {
      assertThat(date("3 Feb 2026 10:00:00 " + zone[0]))
          .as(zone[0])
          .isEqualTo("2026-02-03T" + zone[1] + ":00:00Z");
    }
  }

  @Test
  void zoneAbbreviationsOfOneZoneThatRfc5322DoesNotListAreTheirOffsets() {
    String[][] zones = {
      {"CET", "+01:00"}, {"CEST", "+02:00"}, {"MET", "+01:00"}, {"MEST", "+02:00"},
      {"EET", "+02:00"}, {"EEST", "+03:00"}, {"WET", "Z"}, {"WEST", "+01:00"},
      {"MSK", "+03:00"}, {"JST", "+09:00"}, {"KST", "+09:00"}, {"HKT", "+08:00"},
      {"SGT", "+08:00"}, {"AWST", "+08:00"}, {"ACST", "+09:30"}, {"ACDT", "+10:30"},
      {"AEST", "+10:00"}, {"AEDT", "+11:00"}, {"NZST", "+12:00"}, {"NZDT", "+13:00"},
      {"HST", "-10:00"}, {"AKST", "-09:00"}, {"AKDT", "-08:00"}, {"cet", "+01:00"}
    };
    for (String[] zone : zones) {
      assertThat(date("Tue, 24 Nov 2026 10:00:00 " + zone[0]))
          .as(zone[0])
          .isEqualTo(LocalDateTime.of(2026, 11, 24, 10, 0).toInstant(ZoneOffset.of(zone[1])));
    }
  }

  @Test
  void ambiguousZoneAbbreviationsAreLeftToMime4j() {
    for (String zone : new String[] {"IST", "BST", "AST", "XYZ"}) {
      String value = "Tue, 24 Nov 2026 10:00:00 " + zone;
      assertThat(HeaderText.rfc5322Date(value)).as(zone).isNull();
      assertThat(HeaderText.date(value)).as(zone).isEqualTo(HeaderText.lenientDate(value));
    }
  }

  @Test
  void twoAndThreeDigitYearsAreReadAsRfc5322Says() {
    assertThat(date("Tue,  3 Feb 26 10:00 GMT")).isEqualTo("2026-02-03T10:00:00Z");
    assertThat(date("3 Feb 49 10:00 +0000")).isEqualTo("2049-02-03T10:00:00Z");
    assertThat(date("3 Feb 50 10:00 +0000")).isEqualTo("1950-02-03T10:00:00Z");
    assertThat(date("3 Feb 69 10:00 +0000")).isEqualTo("1969-02-03T10:00:00Z");
    assertThat(date("3 Feb 99 10:00 +0000")).isEqualTo("1999-02-03T10:00:00Z");
    assertThat(date("3 Feb 126 10:00 +0000")).isEqualTo("2026-02-03T10:00:00Z");
  }

  @Test
  void commentsAndWhiteSpaceMayStandBetweenTheTokens() {
    assertThat(date(" Tue , (the day) 3  feb\t2026 10 : 00 : 00 (local time) -0500 (EST)"))
        .isEqualTo("2026-02-03T15:00:00Z");
  }

  @Test
  void whatIsNotAnRfc5322DateIsLeftToMime4j() {
    assertThat(HeaderText.rfc5322Date("3 Feb 2026 10:00:00")).isNull(); // no zone
    assertThat(HeaderText.rfc5322Date("3 Feb 2026 10:00:00 IST")).isNull();
    assertThat(HeaderText.rfc5322Date("3 Feb 2026 10:00:00 J")).isNull();
    assertThat(HeaderText.rfc5322Date("3 Feb 2026 10:00:00 +1900")).isNull();
    assertThat(HeaderText.rfc5322Date("Tuesday, 3 Feb 2026 10:00:00 +0000")).isNull();
    assertThat(HeaderText.date("not a date")).isEmpty();
  }

  /** A date in {@code shape}, some broken by a random edit. */
  private static String randomDate(Random random, String shape) {
    Instant instant = Instant.ofEpochSecond(random.nextLong(-2_000_000_000L, 4_000_000_000L));
    ZoneOffset offset = ZoneOffset.ofTotalSeconds(random.nextInt(-12 * 60, 14 * 60 + 1) * 60);
    ZonedDateTime time = instant.atZone(offset);
    String value = DateTimeFormatter.ofPattern(shape, Locale.ENGLISH).format(time);
    if (random.nextInt(5) == 0) {
      char[] chars = value.toCharArray();
      chars[random.nextInt(chars.length)] = "0123456789 :+-,(xA".charAt(random.nextInt(18));
      value = new String(chars);
    }
    return value;
  }
}
