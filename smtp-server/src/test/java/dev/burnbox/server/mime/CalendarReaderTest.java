package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link CalendarReader} on calendars broken at random: components begun and ended in any order and
 * nesting, lines of real invites, repeat rules of any parts, folds and bytes anywhere, read in any
 * of a few charsets. The mails of {@link MailDecoderCalendarTest} cover what it reads.
 */
class CalendarReaderTest {
  private static final String[] COMPONENTS = {
    "VCALENDAR", "VEVENT", "VTIMEZONE", "STANDARD", "DAYLIGHT", "VALARM", "VTODO", ""
  };

  private static final String[] PROPERTIES = {
    "METHOD:REQUEST",
    "METHOD:",
    "SUMMARY:Quarterly review\\, numbers\\n and plans",
    "SUMMARY;LANGUAGE=en-US:Design sync",
    "LOCATION:Room 4\\",
    "ORGANIZER;CN=\"Example, Ann\":mailto:ann@example.com",
    "ORGANIZER;CN=\"unclosed:mailto:",
    "ORGANIZER;CN=^'Ann^' ^^:MAILTO:",
    "DTSTART;TZID=Europe/Berlin:20260316T100000",
    "DTSTART;TZID=W. Europe Standard Time:20260701T140000",
    "DTSTART;TZID=Pacific Standard Time:20261201T090000",
    "DTSTART;TZID=\"/mozilla.org/20050126_1/Europe/Berlin\":20260316T100000",
    "DTSTART;VALUE=DATE:20260402",
    "DTSTART:20260402T150000Z",
    "DTSTART:16010101T030000",
    "DTSTART:99991231T235959",
    "DTSTART:00000229T000000",
    "DTEND:2026-04-02T16:30:00Z",
    "DTEND;VALUE=DATE:2026",
    "DURATION:PT1H30M",
    "DURATION:P999999W999999D",
    "DURATION:PT999999H999999M999999S",
    "DURATION:P1DT",
    "DURATION:PTH",
    "TZID:W. Europe Standard Time",
    "TZID:",
    "TZOFFSETTO:+0200",
    "TZOFFSETTO:-2400",
    "TZOFFSETTO:+99",
    "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
    "RRULE:FREQ=YEARLY;BYMONTH=13;BYDAY=9XX",
    "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=5SU",
    "RRULE:FREQ=YEARLY;BYMONTHDAY=8,9,10;BYDAY=SU;BYMONTH=3",
    "RRULE:FREQ=YEARLY;BYMONTH=;BYDAY=-SU",
    "RRULE:FREQ=WEEKLY;WKST=MO;COUNT=10;BYDAY=MO,WE",
    "RRULE:FREQ=WEEKLY;UNTIL=20270302T020000Z;INTERVAL=2;BYDAY=MO;WKST=SU",
    "RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=2027",
    "RRULE:",
    "RRULE;X=\"a;b\":FREQ=DAILY;;;COUNT=99999999999999999999",
    "EXDATE:20261228T180000Z",
    "RDATE;VALUE=PERIOD:20261208T080000Z/PT1H",
    ";;;:::",
    ":",
    "\"",
  };

  /** The charsets a calendar part declares, read as the decoder reads them; null for none. */
  private static final Charset[] CHARSETS = {
    null,
    TextCharsets.lookup("utf-8"),
    TextCharsets.lookup("iso-8859-2"),
    TextCharsets.lookup("shift_jis"),
    TextCharsets.lookup("iso-2022-jp"),
    TextCharsets.lookup("utf-16"),
  };

  @Test
  void calendarsBrokenAtRandomNeverThrowAndStayWithinTheLimits() {
    for (int seed = 0; seed < 3000; seed++) {
      Random random = new Random(seed);
      byte[] calendar = brokenCalendar(random);
      Charset charset = CHARSETS[random.nextInt(CHARSETS.length)];
      List<String> problems = new ArrayList<>();
      List<CalendarEvent> events =
          CalendarReader.events(calendar.clone(), calendar.length, charset, problems::add);
      assertThat(events).as("seed %d", seed).hasSizeLessThanOrEqualTo(CalendarReader.MAX_EVENTS);
      for (CalendarEvent event : events) {
        assertThat(List.of(event.summary(), event.location(), event.organizerName()))
            .as("seed %d", seed)
            .allSatisfy(
                text ->
                    assertThat(text).hasSizeLessThanOrEqualTo(CalendarReader.MAX_VALUE_CHARS + 1));
      }
      for (CalendarEvent event : events) {
        assertThat(event.repeats())
            .as("seed %d", seed)
            .hasSizeLessThan(200)
            .matches("|Repeats|(Daily|Weekly|Monthly|Yearly|Hourly|Every)[ -~]*");
      }
      assertThat(problems)
          .as("seed %d", seed)
          .allMatch(p -> p.startsWith("more than " + CalendarReader.MAX_EVENTS + " events"));
    }
  }

  private static final String[] RULE_NAMES = {
    "FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "WKST", "BYMONTHDAY", "freq", "", "X-RULE"
  };

  private static final String[] RULE_VALUES = {
    "DAILY",
    "WEEKLY",
    "MONTHLY",
    "YEARLY",
    "SECONDLY",
    "weekly",
    "",
    "0",
    "1",
    "-1",
    "2",
    "+3",
    "99999999999999999999",
    "20270301",
    "20270301T170000Z",
    "20270301T2400",
    "2027-13-45",
    "MO",
    "WE",
    "2TU",
    "-1FR",
    "+5SU",
    "0MO",
    "-6SA",
    "99XX",
    "M",
    "=",
    "\u00e9",
    "T",
    "Z"
  };

  /** An RRULE line of up to eight parts, each name and value any of the above, or broken. */
  private static String randomRule(Random random) {
    StringBuilder rule = new StringBuilder("RRULE:");
    int parts = random.nextInt(9);
    for (int i = 0; i < parts; i++) {
      rule.append(i > 0 ? ";" : "").append(RULE_NAMES[random.nextInt(RULE_NAMES.length)]);
      rule.append(random.nextInt(8) == 0 ? "" : "=");
      int values = 1 + (random.nextInt(4) == 0 ? random.nextInt(10) : 0);
      for (int v = 0; v < values; v++) {
        rule.append(v > 0 ? "," : "").append(RULE_VALUES[random.nextInt(RULE_VALUES.length)]);
      }
    }
    return rule.toString();
  }

  /** Up to 80 lines of components, properties and stray bytes, joined by any line break. */
  private static byte[] brokenCalendar(Random random) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String[] breaks = {"\r\n", "\n", "\r", "\r\n ", "\n\t"};
    int lines = random.nextInt(80);
    for (int i = 0; i < lines; i++) {
      int kind = random.nextInt(10);
      String line =
          kind < 4
              ? (random.nextBoolean() ? "BEGIN:" : "END:")
                  + COMPONENTS[random.nextInt(COMPONENTS.length)]
              : kind == 8 ? randomRule(random) : PROPERTIES[random.nextInt(PROPERTIES.length)];
      byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
      if (kind == 9 && bytes.length > 0) {
        bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
      }
      out.writeBytes(bytes);
      out.writeBytes(breaks[random.nextInt(breaks.length)].getBytes(StandardCharsets.US_ASCII));
    }
    return out.toByteArray();
  }
}
