package dev.burnbox.server.mime;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How an event's RRULE (RFC 5545, 3.3.10) repeats it, in words for a reader: {@code Weekly on
 * Monday and Wednesday, 10 times}, {@code Every 2 weeks until 2027-03-01}, {@code Daily}, {@code
 * Monthly on the last Friday}. Reads FREQ, INTERVAL, COUNT, UNTIL and BYDAY (week days; in a
 * monthly rule, the first to fifth or the last week day of the month), and allows WKST, which
 * changes none of these words. Any other part (BYMONTHDAY, BYSETPOS...), a value it cannot read, a
 * part given twice, or COUNT with UNTIL gives just {@value #UNKNOWN}: never a wrong description.
 * Never throws; linear in the rule's length; the words hold at most seven week days. Stateless.
 */
final class RepeatRule {
  /** What a rule this class does not understand says. */
  static final String UNKNOWN = "Repeats";

  private static final Set<String> PARTS =
      Set.of("FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "WKST");

  private static final String[] ORDINALS = {"first", "second", "third", "fourth", "fifth"};

  /** The most nth week days ({@code 1MO,3MO}) a BYDAY may name, distinct, to be described. */
  private static final int MAX_DAYS = 7;

  /** A FREQ value: its word when INTERVAL is 1, and its unit when it is more. */
  private enum Frequency {
    SECONDLY("Every second", "seconds"),
    MINUTELY("Every minute", "minutes"),
    HOURLY("Hourly", "hours"),
    DAILY("Daily", "days"),
    WEEKLY("Weekly", "weeks"),
    MONTHLY("Monthly", "months"),
    YEARLY("Yearly", "years");

    final String each;
    final String units;

    Frequency(String each, String units) {
      this.each = each;
      this.units = units;
    }

    static Frequency of(String value) {
      for (Frequency f : values()) {
        if (f.name().equalsIgnoreCase(value)) {
          return f;
        }
      }
      return null;
    }
  }

  private RepeatRule() {}

  /**
   * {@code rule} (an RRULE value) in words, or {@value #UNKNOWN}. An UNTIL in UTC is shown as the
   * date it is at {@code startOffset}, the offset of the event's start (null: the UTC date), so
   * that an evening's last time in America is not said to be the next day.
   */
  static String describe(String rule, ZoneOffset startOffset) {
    Map<String, String> parts = parts(rule);
    if (parts == null || !PARTS.containsAll(parts.keySet())) {
      return UNKNOWN;
    }
    Frequency frequency = Frequency.of(parts.get("FREQ"));
    int interval = number(parts.getOrDefault("INTERVAL", "1"));
    int count = parts.containsKey("COUNT") ? number(parts.get("COUNT")) : 0;
    String until = parts.containsKey("UNTIL") ? until(parts.get("UNTIL"), startOffset) : "";
    String days = parts.containsKey("BYDAY") ? days(parts.get("BYDAY"), frequency) : "";
    String weekStart = parts.getOrDefault("WKST", "MO");
    if (frequency == null
        || interval < 1
        || count < 0
        || until == null
        || days == null
        || (count > 0 && !until.isEmpty())
        || CalendarTimeZone.dayOfWeek(weekStart.toUpperCase(Locale.ROOT)) == null) {
      return UNKNOWN;
    }
    StringBuilder words =
        new StringBuilder(
            interval == 1 ? frequency.each : "Every " + interval + " " + frequency.units);
    if (!days.isEmpty()) {
      words.append(" on ").append(days);
    }
    if (count > 0) {
      words.append(count == 1 ? ", once" : ", " + count + " times");
    }
    if (!until.isEmpty()) {
      words.append(" until ").append(until);
    }
    return words.toString();
  }

  /** The parts of {@code rule} by upper-case name; null if one has no {@code =} or comes twice. */
  private static Map<String, String> parts(String rule) {
    Map<String, String> parts = new HashMap<>();
    for (String part : rule.split(";")) {
      if (part.isBlank()) {
        continue; // a stray ; as in FREQ=DAILY;
      }
      int eq = part.indexOf('=');
      if (eq < 0) {
        return null;
      }
      String name = part.substring(0, eq).strip().toUpperCase(Locale.ROOT);
      if (parts.putIfAbsent(name, part.substring(eq + 1).strip()) != null) {
        return null;
      }
    }
    return parts;
  }

  /** A positive number of at most six digits; -1 if {@code value} is none. */
  private static int number(String value) {
    if (value.isEmpty() || value.length() > 6) {
      return -1;
    }
    int n = CalendarReader.digits(value, 0, value.length());
    return n > 0 ? n : -1;
  }

  /**
   * The date of an UNTIL value ({@code 20270301}, {@code 20270301T170000} or {@code
   * 20270301T170000Z}, this one at {@code offset}), as ISO-8601; null if it is none.
   */
  private static String until(String value, ZoneOffset offset) {
    LocalDate date = CalendarReader.date(value);
    if (date == null) {
      return null;
    }
    if (value.length() == 8) {
      return date.toString();
    }
    boolean utc = value.length() == 16 && (value.charAt(15) == 'Z' || value.charAt(15) == 'z');
    if ((value.length() != 15 && !utc) || (value.charAt(8) != 'T' && value.charAt(8) != 't')) {
      return null;
    }
    try {
      LocalTime time =
          LocalTime.of(
              CalendarReader.digits(value, 9, 2),
              CalendarReader.digits(value, 11, 2),
              CalendarReader.digits(value, 13, 2));
      return utc && offset != null
          ? date.atTime(time)
              .atOffset(ZoneOffset.UTC)
              .withOffsetSameInstant(offset)
              .toLocalDate()
              .toString()
          : date.toString();
    } catch (DateTimeException e) { // a digit missing (-1), hour 24...
      return null;
    }
  }

  /**
   * A BYDAY value in words ({@code Monday and Wednesday}, {@code the second Tuesday}) for a rule of
   * {@code frequency}; null if it is not one this class describes: week days alone in any rule but
   * a monthly or yearly one, the nth (1 to 5) or last week day alone in a monthly rule.
   */
  private static String days(String value, Frequency frequency) {
    Set<DayOfWeek> plain = EnumSet.noneOf(DayOfWeek.class);
    Set<String> nth = new LinkedHashSet<>();
    for (String entry : value.split(",", -1)) {
      String e = entry.strip().toUpperCase(Locale.ROOT);
      DayOfWeek day =
          e.length() < 2 ? null : CalendarTimeZone.dayOfWeek(e.substring(e.length() - 2));
      if (day == null) {
        return null;
      }
      String week = e.substring(0, e.length() - 2);
      if (week.isEmpty()) {
        plain.add(day);
        continue;
      }
      String ordinal = ordinal(week);
      if (ordinal == null) {
        return null;
      }
      nth.add("the " + ordinal + " " + name(day));
    }
    boolean monthly = frequency == Frequency.MONTHLY;
    boolean yearly = frequency == Frequency.YEARLY;
    if (!nth.isEmpty() && (!monthly || !plain.isEmpty() || nth.size() > MAX_DAYS)) {
      return null;
    }
    if (!plain.isEmpty() && (monthly || yearly)) {
      return null; // every Monday of the month: "Monthly on Monday" would read as one a month
    }
    List<String> names = new ArrayList<>(nth);
    plain.forEach(day -> names.add(name(day)));
    return names.isEmpty() ? null : joined(names);
  }

  /** {@code 1} to {@code 5} (or {@code +1}...) as "first" to "fifth", {@code -1} as "last". */
  private static String ordinal(String week) {
    if (week.equals("-1")) {
      return "last";
    }
    String n = week.startsWith("+") ? week.substring(1) : week;
    int i = n.length() == 1 ? CalendarReader.digits(n, 0, 1) : -1;
    return i >= 1 && i <= ORDINALS.length ? ORDINALS[i - 1] : null;
  }

  private static String name(DayOfWeek day) {
    return day.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
  }

  /** {@code a}, {@code a and b}, {@code a, b and c}. */
  private static String joined(List<String> words) {
    int last = words.size() - 1;
    return last == 0
        ? words.getFirst()
        : String.join(", ", words.subList(0, last)) + " and " + words.get(last);
  }
}
