package dev.burnbox.server.mime;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One event (VEVENT) of a message's calendar part, as {@link CalendarReader} read it: what an
 * invite says a meeting is, for showing, not for scheduling. Immutable; no component is null; each
 * text is unescaped and at most {@link CalendarReader#MAX_VALUE_CHARS} characters (then cut with
 * {@code …}).
 *
 * @param method the calendar's METHOD in upper case ({@code REQUEST}, {@code CANCEL}, {@code
 *     REPLY}, {@code PUBLISH}...), "" if it names none
 * @param summary the SUMMARY, "" if none
 * @param start the DTSTART, if present and readable
 * @param end the DTEND, else DTSTART plus the DURATION, if present and readable
 * @param repeats how the event repeats, in words ({@code Weekly on Monday and Wednesday, 10 times},
 *     {@code Every 2 weeks until 2027-03-01}; see {@link RepeatRule}), {@code Repeats} if its RRULE
 *     is not one the reader describes, "" if it does not repeat
 * @param location the LOCATION, "" if none
 * @param organizerName the organizer's CN, "" if none
 * @param organizerEmail the organizer's address (its {@code mailto:} URI without the scheme), "" if
 *     none
 */
public record CalendarEvent(
    String method,
    String summary,
    Optional<Time> start,
    Optional<Time> end,
    String repeats,
    String location,
    String organizerName,
    String organizerEmail) {

  public CalendarEvent {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(repeats, "repeats");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(organizerName, "organizerName");
    Objects.requireNonNull(organizerEmail, "organizerEmail");
  }

  /** Whether the event is all day: its start is a DATE, not a DATE-TIME. */
  public boolean allDay() {
    return start.map(Time::allDay).orElse(false);
  }

  /** About how many chars the event holds, for weighing a cache of decoded bodies. */
  int weight() {
    return 128
        + method.length()
        + summary.length()
        + repeats.length()
        + location.length()
        + organizerName.length()
        + organizerEmail.length();
  }

  /**
   * A DATE or DATE-TIME value of an event.
   *
   * @param local the date and time as the invite wrote it (midnight for a DATE)
   * @param allDay whether the value is a DATE
   * @param zone the TZID the invite named for it, as written, "" if none (also for a UTC time
   *     written with {@code Z})
   * @param instant the moment, if known: the time is UTC ({@code Z}) or its TZID is a zone this
   *     server knows (an IANA name such as {@code Europe/Berlin}, one the calendar's VTIMEZONE
   *     defines, as Outlook's {@code W. Europe Standard Time}, or else a Windows zone name such as
   *     {@code Pacific Standard Time}); empty for a DATE and for a floating time or one in a zone
   *     not known
   */
  public record Time(LocalDateTime local, boolean allDay, String zone, Optional<Instant> instant) {
    private static final DateTimeFormatter LOCAL =
        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss", Locale.ROOT);

    public Time {
      Objects.requireNonNull(local, "local");
      Objects.requireNonNull(zone, "zone");
      Objects.requireNonNull(instant, "instant");
    }

    /** The date of a DATE value (of any value: the date as written). */
    public LocalDate date() {
      return local.toLocalDate();
    }

    /**
     * ISO-8601: {@code 2026-03-16} for a DATE, {@code 2026-03-16T09:00:00Z} for a known moment (in
     * UTC), {@code 2026-03-16T10:00:00} (no offset) for a time in no zone or a zone not known.
     */
    public String iso() {
      if (allDay) {
        return date().toString();
      }
      return instant.map(Instant::toString).orElseGet(() -> LOCAL.format(local));
    }
  }
}
