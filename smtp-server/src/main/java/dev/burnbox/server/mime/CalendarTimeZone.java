package dev.burnbox.server.mime;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Month;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The offsets a calendar's VTIMEZONE gives its local times: what an Outlook invite, whose TZID
 * ({@code W. Europe Standard Time}) is no IANA name, needs to be placed in UTC. Reads the common
 * shape only: the latest STANDARD and the latest DAYLIGHT observance, each with a yearly RRULE on
 * the nth or last weekday of a month ({@code FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU}); without both
 * rules, the standard offset all year. Immutable and thread-safe.
 */
final class CalendarTimeZone {
  private final Observance standard; // null if the zone defines none
  private final Observance daylight; // null if none, or not with a rule to apply

  private CalendarTimeZone(Observance standard, Observance daylight) {
    this.standard = standard;
    this.daylight = daylight;
  }

  /**
   * One STANDARD or DAYLIGHT part of a VTIMEZONE.
   *
   * @param daylight whether it is a DAYLIGHT part
   * @param start its DTSTART, a local time: when it first applied, and the time of day its rule
   *     changes the offset at
   * @param offsetTo its TZOFFSETTO: the offset while it applies
   * @param rule its yearly rule, if it has one this class reads
   */
  record Observance(
      boolean daylight, LocalDateTime start, ZoneOffset offsetTo, Optional<YearlyRule> rule) {}

  /**
   * A yearly change on the {@code week}th {@code day} of {@code month}: 1 to 4 from its start, -1
   * to -4 from its end.
   */
  record YearlyRule(Month month, int week, DayOfWeek day) {
    /** When the change happens in {@code year}, at {@code time} (local). */
    LocalDateTime in(int year, LocalTime time) {
      return LocalDate.of(year, month, 1)
          .with(TemporalAdjusters.dayOfWeekInMonth(week, day))
          .atTime(time);
    }
  }

  /**
   * The zone of {@code observances} (the parts of one VTIMEZONE, in any order), or empty if there
   * is none.
   */
  static Optional<CalendarTimeZone> of(List<Observance> observances) {
    Observance standard = latest(observances, false);
    Observance daylight = latest(observances, true);
    if (standard == null) {
      return daylight == null
          ? Optional.empty()
          : Optional.of(new CalendarTimeZone(daylight, null)); // a zone that only says DAYLIGHT
    }
    boolean seasonal =
        daylight != null && standard.rule().isPresent() && daylight.rule().isPresent();
    return Optional.of(new CalendarTimeZone(standard, seasonal ? daylight : null));
  }

  private static Observance latest(List<Observance> observances, boolean daylight) {
    Observance latest = null;
    for (Observance o : observances) {
      if (o.daylight() == daylight && (latest == null || o.start().isAfter(latest.start()))) {
        latest = o;
      }
    }
    return latest;
  }

  /**
   * The offset at local time {@code local}: daylight from its change in {@code local}'s year to the
   * change back to standard (either order in the year: the southern hemisphere's daylight spans New
   * Year). A local time that a change skips or repeats is taken as either.
   */
  ZoneOffset offsetAt(LocalDateTime local) {
    if (daylight == null) {
      return standard.offsetTo();
    }
    int year = local.getYear();
    LocalDateTime toDaylight =
        daylight.rule().orElseThrow().in(year, daylight.start().toLocalTime());
    LocalDateTime toStandard =
        standard.rule().orElseThrow().in(year, standard.start().toLocalTime());
    boolean inDaylight =
        toDaylight.isBefore(toStandard)
            ? !local.isBefore(toDaylight) && local.isBefore(toStandard)
            : !local.isBefore(toDaylight) || local.isBefore(toStandard);
    return inDaylight ? daylight.offsetTo() : standard.offsetTo();
  }

  /** A UTC offset as iCalendar writes it ({@code +0100}, {@code -0530}, {@code +013000}). */
  static Optional<ZoneOffset> offset(String value) {
    String v = value.strip();
    if ((v.length() != 5 && v.length() != 7) || (v.charAt(0) != '+' && v.charAt(0) != '-')) {
      return Optional.empty();
    }
    int hours = CalendarReader.digits(v, 1, 2);
    int minutes = CalendarReader.digits(v, 3, 2);
    int seconds = v.length() == 7 ? CalendarReader.digits(v, 5, 2) : 0;
    if (hours < 0 || minutes < 0 || seconds < 0) {
      return Optional.empty();
    }
    int sign = v.charAt(0) == '-' ? -1 : 1;
    try {
      return Optional.of(
          ZoneOffset.ofHoursMinutesSeconds(sign * hours, sign * minutes, sign * seconds));
    } catch (DateTimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The yearly rule of an RRULE value, if it is one this class reads: {@code FREQ=YEARLY}, a {@code
   * BYMONTH}, and a {@code BYDAY} with its week ({@code 2SU}, {@code -1SU}; the fifth is taken as
   * the last), or without one beside a {@code BYMONTHDAY} week ({@code
   * BYMONTHDAY=8,9,10,11,12,13,14;BYDAY=SU}, as older US rules say the second Sunday).
   */
  static Optional<YearlyRule> yearlyRule(String value) {
    String freq = "";
    String byMonth = "";
    String byDay = "";
    String byMonthDay = "";
    for (String part : value.split(";", 16)) {
      int eq = part.indexOf('=');
      if (eq < 0) {
        continue;
      }
      String name = part.substring(0, eq).strip().toUpperCase(Locale.ROOT);
      String first = firstOfList(part.substring(eq + 1));
      switch (name) {
        case "FREQ" -> freq = first.toUpperCase(Locale.ROOT);
        case "BYMONTH" -> byMonth = first;
        case "BYDAY" -> byDay = first.toUpperCase(Locale.ROOT);
        case "BYMONTHDAY" -> byMonthDay = first;
        default -> {}
      }
    }
    if (!freq.equals("YEARLY") || byDay.length() < 2) {
      return Optional.empty();
    }
    DayOfWeek day = dayOfWeek(byDay.substring(byDay.length() - 2));
    int month = number(byMonth);
    int week = byDay.length() > 2 ? number(byDay.substring(0, byDay.length() - 2)) : 0;
    if (week == 0 && !byMonthDay.isEmpty()) {
      int monthDay = number(byMonthDay);
      week = monthDay >= 1 && monthDay <= 28 ? (monthDay + 6) / 7 : 0;
    }
    if (week == 5) {
      week = -1;
    }
    if (day == null || month < 1 || month > 12 || week == 0 || week < -4 || week > 4) {
      return Optional.empty();
    }
    return Optional.of(new YearlyRule(Month.of(month), week, day));
  }

  private static String firstOfList(String values) {
    int comma = values.indexOf(',');
    return (comma < 0 ? values : values.substring(0, comma)).strip();
  }

  /** A small signed integer ({@code 3}, {@code -1}, {@code +2}); 0 if it is none. */
  private static int number(String text) {
    String t = text.startsWith("+") ? text.substring(1) : text;
    boolean negative = t.startsWith("-");
    String digits = negative ? t.substring(1) : t;
    int n =
        digits.isEmpty() || digits.length() > 2
            ? -1
            : CalendarReader.digits(digits, 0, digits.length());
    return n < 0 ? 0 : negative ? -n : n;
  }

  /** The week day of an iCalendar weekday ({@code MO}...{@code SU}, upper case), or null. */
  static DayOfWeek dayOfWeek(String twoLetters) {
    return switch (twoLetters) {
      case "MO" -> DayOfWeek.MONDAY;
      case "TU" -> DayOfWeek.TUESDAY;
      case "WE" -> DayOfWeek.WEDNESDAY;
      case "TH" -> DayOfWeek.THURSDAY;
      case "FR" -> DayOfWeek.FRIDAY;
      case "SA" -> DayOfWeek.SATURDAY;
      case "SU" -> DayOfWeek.SUNDAY;
      default -> null;
    };
  }
}
