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
 * nesting, lines of real invites, folds and bytes anywhere, read in any of a few charsets. The
 * mails of {@link MailDecoderCalendarTest} cover what it reads.
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
      assertThat(problems)
          .as("seed %d", seed)
          .allMatch(p -> p.startsWith("more than " + CalendarReader.MAX_EVENTS + " events"));
    }
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
              : PROPERTIES[random.nextInt(PROPERTIES.length)];
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
