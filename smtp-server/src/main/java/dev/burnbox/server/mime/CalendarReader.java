package dev.burnbox.server.mime;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads the events of a calendar part ({@code text/calendar}, RFC 5545: what an invite carries) for
 * showing them: for each VEVENT its SUMMARY, DTSTART, DTEND (or DURATION), how it repeats (RRULE,
 * in words: {@link RepeatRule}), LOCATION and ORGANIZER, and the calendar's METHOD. A line reader,
 * not an iCalendar library: it unfolds lines (also where a fold splits a multi-byte character),
 * decodes each in the part's declared charset as {@link TextCharsets} reads its label (else as
 * UTF-8 if valid, else windows-1252), unescapes TEXT values, reads DATE and DATE-TIME values in
 * UTC, floating or with a TZID (an IANA zone, one the calendar's VTIMEZONE defines: {@link
 * CalendarTimeZone}, or else a Windows zone name: {@link WindowsZones}), and ignores everything
 * else, including the properties of a VEVENT's VALARM.
 *
 * <p>Everything in a calendar is hostile: the reader never throws on its content, reads at most
 * {@link #MAX_BYTES} bytes (the caller's cut) and {@value #MAX_EVENTS} events, cuts each text to
 * {@value #MAX_VALUE_CHARS} characters, keeps an event without END:VEVENT, and leaves out a time it
 * cannot read. Linear in the bytes read, without regular expressions. Stateless and thread-safe;
 * each {@link #events} call has its own state.
 */
final class CalendarReader {
  /** The most bytes of a calendar part read for its events. */
  static final int MAX_BYTES = 256 << 10;

  /** The most events read from a calendar; the rest are left out, and that said as a problem. */
  static final int MAX_EVENTS = 5;

  /** The most characters of a text value (summary, location, names) kept, then {@code …}. */
  static final int MAX_VALUE_CHARS = 1000;

  /** Characters whose bytes the reader looks for before it decodes a line. */
  private static final String STRUCTURE = "\r\n\t BEGIN:VCALENDAR;";

  private static final int MAX_DEPTH = 8; // components open at once (VCALENDAR, VEVENT, VALARM...)
  private static final int MAX_TIME_ZONES = 16;
  private static final int MAX_OBSERVANCES = 32; // STANDARD and DAYLIGHT parts of one VTIMEZONE

  private final Consumer<String> problems;
  private final Charset charset; // null: UTF-8 if valid, else windows-1252
  private final Deque<String> open = new ArrayDeque<>(); // the components open, innermost first
  private final List<EventDraft> drafts = new ArrayList<>();
  private final Map<String, CalendarTimeZone> timeZones = new HashMap<>();
  private String method = "";
  private EventDraft event; // the VEVENT being read, null outside one or past MAX_EVENTS
  private boolean eventsLeftOut;
  private String timeZoneId; // the VTIMEZONE being read: its TZID, null outside one
  private List<CalendarTimeZone.Observance> observances;
  private ObservanceDraft observance; // its STANDARD or DAYLIGHT part being read

  private CalendarReader(Charset charset, Consumer<String> problems) {
    this.charset = charset;
    this.problems = problems;
  }

  /**
   * Whether a part of {@code contentType} (lower case; null for none) named {@code filename} (as
   * the part writes it; null for none) is a calendar: {@code text/calendar}, {@code
   * application/ics}, or a file ending in {@code .ics}.
   */
  static boolean isCalendar(String contentType, String filename) {
    if ("text/calendar".equals(contentType) || "application/ics".equals(contentType)) {
      return true;
    }
    return filename != null
        && HeaderText.decodeEncodedWords(filename)
            .strip()
            .toLowerCase(Locale.ROOT)
            .endsWith(".ics");
  }

  /**
   * The events of the calendar in {@code bytes[0, length)}, written in {@code charset} (null: UTF-8
   * if valid, else windows-1252), in order; empty if it has none or is no calendar. Unfolds the
   * lines in place: {@code bytes} is changed. Tells {@code problems} if events were left out.
   */
  static List<CalendarEvent> events(
      byte[] bytes, int length, Charset charset, Consumer<String> problems) {
    if (charset != null && !asciiCompatible(charset)) {
      // UTF-16 and the like: line breaks and folds are found in the characters, read as UTF-8
      byte[] utf8 = TextCharsets.decode(bytes, 0, length, charset).getBytes(StandardCharsets.UTF_8);
      return events(utf8, utf8.length, StandardCharsets.UTF_8, problems);
    }
    CalendarReader reader = new CalendarReader(charset, problems);
    reader.readLines(bytes, length);
    return reader.finish();
  }

  /**
   * Whether {@code charset} writes line breaks, tabs, spaces and the structure of a content line as
   * ASCII does, so that lines can be unfolded in its bytes: true for UTF-8, ISO-8859-x, Shift_JIS,
   * GB18030..., false for UTF-16 and EBCDIC. One that cannot encode is taken to be.
   */
  private static boolean asciiCompatible(Charset charset) {
    if (!charset.canEncode()) {
      return true;
    }
    return Arrays.equals(
        STRUCTURE.getBytes(charset), STRUCTURE.getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * Splits {@code bytes} into content lines, unfolding them in place (a line break followed by a
   * space or tab continues the line), and reads each.
   */
  private void readLines(byte[] bytes, int length) {
    int write = 0;
    int lineStart = 0;
    int read = 0;
    while (read < length) {
      byte b = bytes[read];
      if (b != '\r' && b != '\n') {
        bytes[write++] = b;
        read++;
        continue;
      }
      int next = read + 1;
      if (b == '\r' && next < length && bytes[next] == '\n') {
        next++;
      }
      if (next < length && (bytes[next] == ' ' || bytes[next] == '\t')) {
        read = next + 1; // a fold: the line goes on after the white space
        continue;
      }
      line(bytes, lineStart, write);
      lineStart = write;
      read = next;
    }
    line(bytes, lineStart, write);
  }

  private void line(byte[] bytes, int start, int end) {
    if (end > start) {
      contentLine(TextCharsets.decode(bytes, start, end - start, charset));
    }
  }

  /** Reads one unfolded line: {@code NAME;PARAM=value;...:value}. */
  private void contentLine(String line) {
    int i = 0;
    while (i < line.length() && line.charAt(i) != ';' && line.charAt(i) != ':') {
      i++;
    }
    String name = line.substring(0, i).strip().toUpperCase(Locale.ROOT);
    Map<String, String> parameters = new HashMap<>(4);
    while (i < line.length() && line.charAt(i) == ';') {
      i = parameter(line, i + 1, parameters);
    }
    String value = i < line.length() ? line.substring(i + 1) : "";
    switch (name) {
      case "BEGIN" -> begin(value.strip().toUpperCase(Locale.ROOT));
      case "END" -> end(value.strip().toUpperCase(Locale.ROOT));
      default -> property(name, parameters, value);
    }
  }

  /**
   * Reads the parameter starting at {@code start} ({@code NAME=value}, {@code NAME="quoted"},
   * {@code NAME=a,b}) into {@code parameters} (its first value, the first time the name comes, for
   * the few names this reader uses); returns where it ends: at {@code ;}, {@code :} or the end.
   */
  private static int parameter(String line, int start, Map<String, String> parameters) {
    int i = start;
    while (i < line.length() && "=;:".indexOf(line.charAt(i)) < 0) {
      i++;
    }
    String name = line.substring(start, i).strip().toUpperCase(Locale.ROOT);
    String first = null;
    while (i < line.length() && (line.charAt(i) == '=' || line.charAt(i) == ',')) {
      i++;
      int valueStart = i;
      String value;
      if (i < line.length() && line.charAt(i) == '"') {
        int close = line.indexOf('"', i + 1);
        int valueEnd = close < 0 ? line.length() : close;
        value = line.substring(i + 1, valueEnd);
        i = close < 0 ? line.length() : close + 1;
      } else {
        while (i < line.length() && ",;:".indexOf(line.charAt(i)) < 0) {
          i++;
        }
        value = line.substring(valueStart, i);
      }
      if (first == null) {
        first = value;
      }
    }
    if (first != null
        && (name.equals("TZID") || name.equals("VALUE") || name.equals("CN"))
        && !parameters.containsKey(name)) {
      parameters.put(name, first);
    }
    // a stray character after a quoted value: skip to the next parameter or the value
    while (i < line.length() && line.charAt(i) != ';' && line.charAt(i) != ':') {
      i++;
    }
    return i;
  }

  private void begin(String component) {
    if (component.equals("VEVENT") && open.contains("VEVENT")) {
      end("VEVENT"); // the one before had no END:VEVENT
    }
    if (open.size() >= MAX_DEPTH) {
      return;
    }
    String parent = open.peek();
    open.push(component);
    switch (component) {
      case "VEVENT" -> {
        if (drafts.size() < MAX_EVENTS) {
          event = new EventDraft();
          drafts.add(event);
        } else {
          eventsLeftOut = true;
        }
      }
      case "VTIMEZONE" -> {
        timeZoneId = "";
        observances = new ArrayList<>();
      }
      case "STANDARD", "DAYLIGHT" -> {
        if ("VTIMEZONE".equals(parent) && observances != null) {
          observance = new ObservanceDraft(component.equals("DAYLIGHT"));
        }
      }
      default -> {}
    }
  }

  /** Ends {@code component} and whatever was left open inside it; ignored if it is not open. */
  private void end(String component) {
    if (!open.contains(component)) {
      return;
    }
    String ended;
    do {
      ended = open.pop();
      ended(ended);
    } while (!ended.equals(component));
  }

  private void ended(String component) {
    switch (component) {
      case "VEVENT" -> event = null;
      case "STANDARD", "DAYLIGHT" -> {
        if (observance != null && observances.size() < MAX_OBSERVANCES) {
          observance.build().ifPresent(observances::add);
        }
        observance = null;
      }
      case "VTIMEZONE" -> {
        // null when a VTIMEZONE nested in this one ended it already
        if (timeZoneId != null && !timeZoneId.isEmpty() && timeZones.size() < MAX_TIME_ZONES) {
          CalendarTimeZone.of(observances).ifPresent(z -> timeZones.putIfAbsent(timeZoneId, z));
        }
        timeZoneId = null;
        observances = null;
        observance = null;
      }
      default -> {}
    }
  }

  /** A property of the innermost open component; only those of the fields read are kept. */
  private void property(String name, Map<String, String> parameters, String value) {
    String component = open.peek();
    if (component == null || component.equals("VCALENDAR")) {
      if (name.equals("METHOD") && method.isEmpty()) {
        method = cleaned(value).toUpperCase(Locale.ROOT);
      }
    } else if (component.equals("VEVENT") && event != null) {
      event.property(name, parameters, value);
    } else if (component.equals("VTIMEZONE") && timeZoneId != null) {
      if (name.equals("TZID") && timeZoneId.isEmpty()) {
        timeZoneId = cleaned(value);
      }
    } else if ((component.equals("STANDARD") || component.equals("DAYLIGHT"))
        && observance != null) {
      observance.property(name, value);
    }
  }

  /** The events read, their times placed now that every VTIMEZONE is known. */
  private List<CalendarEvent> finish() {
    if (eventsLeftOut) {
      problems.accept("more than " + MAX_EVENTS + " events in a calendar: the rest are left out");
    }
    List<CalendarEvent> events = new ArrayList<>(drafts.size());
    for (EventDraft draft : drafts) {
      Optional<CalendarEvent.Time> start = time(draft.start);
      Optional<CalendarEvent.Time> end =
          draft.end != null ? time(draft.end) : start.flatMap(s -> plus(s, draft.duration));
      events.add(
          new CalendarEvent(
              method,
              draft.summary,
              start,
              end,
              repeats(draft, start),
              draft.location,
              draft.organizerName,
              draft.organizerEmail));
    }
    return events;
  }

  /**
   * How the event repeats, in words ({@link RepeatRule}), "" if it does not: its RRULE, said to
   * have exceptions if RDATE or EXDATE add or remove times; just "Repeats" for RDATE alone.
   */
  private static String repeats(EventDraft draft, Optional<CalendarEvent.Time> start) {
    if (draft.rule == null) {
      return draft.addedDates ? RepeatRule.UNKNOWN : "";
    }
    String words =
        RepeatRule.describe(draft.rule, start.flatMap(CalendarReader::offset).orElse(null));
    boolean exceptions = draft.addedDates || draft.removedDates;
    return exceptions && !words.equals(RepeatRule.UNKNOWN) ? words + ", with exceptions" : words;
  }

  /** The UTC offset of a time placed in a zone (UTC for a UTC time); empty if it is in none. */
  private static Optional<ZoneOffset> offset(CalendarEvent.Time time) {
    if (time.allDay() || time.instant().isEmpty()) {
      return Optional.empty();
    }
    long seconds =
        time.local().toEpochSecond(ZoneOffset.UTC) - time.instant().get().getEpochSecond();
    try {
      return Optional.of(ZoneOffset.ofTotalSeconds(Math.toIntExact(seconds)));
    } catch (DateTimeException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  /** A DATE or DATE-TIME property's value, as written. */
  private record TimeValue(String value, String tzid, boolean date) {}

  private Optional<CalendarEvent.Time> time(TimeValue written) {
    if (written == null) {
      return Optional.empty();
    }
    String v = withoutSeparators(written.value().strip());
    LocalDate date = date(v);
    if (date == null) {
      return Optional.empty();
    }
    if (written.date() || v.length() == 8) {
      return Optional.of(new CalendarEvent.Time(date.atStartOfDay(), true, "", Optional.empty()));
    }
    boolean utc = v.length() == 16 && (v.charAt(15) == 'Z' || v.charAt(15) == 'z');
    if ((v.length() != 15 && !utc) || (v.charAt(8) != 'T' && v.charAt(8) != 't')) {
      return Optional.empty();
    }
    int hour = digits(v, 9, 2);
    int minute = digits(v, 11, 2);
    int second = digits(v, 13, 2);
    try {
      LocalDateTime local = date.atTime(hour, minute, Math.min(second, 59)); // 60: a leap second
      return Optional.of(at(local, utc, utc ? "" : written.tzid()));
    } catch (DateTimeException e) { // a digit missing (-1), hour 24, minute 60...
      return Optional.empty();
    }
  }

  /** A time of day at {@code local}: in UTC, or in zone {@code tzid} ("" for none). */
  private CalendarEvent.Time at(LocalDateTime local, boolean utc, String tzid) {
    Optional<Instant> instant =
        utc ? Optional.of(local.toInstant(ZoneOffset.UTC)) : instant(local, tzid);
    return new CalendarEvent.Time(local, false, tzid, instant);
  }

  /**
   * When {@code local} is in zone {@code tzid}, if this server knows the zone: an IANA name, else
   * the calendar's VTIMEZONE of that TZID, else a Windows zone name ({@link WindowsZones}).
   */
  private Optional<Instant> instant(LocalDateTime local, String tzid) {
    if (tzid.isEmpty()) {
      return Optional.empty(); // a floating time: the same local time wherever one is
    }
    ZoneId known = knownZone(tzid);
    if (known != null) {
      return Optional.of(local.atZone(known).toInstant());
    }
    CalendarTimeZone defined = timeZones.get(tzid);
    if (defined != null) {
      return Optional.of(local.toInstant(defined.offsetAt(local)));
    }
    ZoneId windows = WindowsZones.zone(tzid); // Outlook's name, with no VTIMEZONE it could use
    return windows == null ? Optional.empty() : Optional.of(local.atZone(windows).toInstant());
  }

  /**
   * The Java zone {@code tzid} names: an IANA name, also at the end of a path as old Thunderbird
   * versions write it ({@code /mozilla.org/20050126_1/Europe/Berlin}); null if none.
   */
  private static ZoneId knownZone(String tzid) {
    ZoneId zone = zone(tzid);
    int slash = tzid.lastIndexOf('/');
    int before = slash > 0 ? tzid.lastIndexOf('/', slash - 1) : -1;
    if (zone == null && before >= 0 && tzid.startsWith("/")) {
      zone = zone(tzid.substring(before + 1));
    }
    return zone;
  }

  private static ZoneId zone(String id) {
    try {
      return ZoneId.of(id);
    } catch (DateTimeException e) {
      return null;
    }
  }

  /** {@code start} plus an iCalendar DURATION ({@code PT1H30M}, {@code P1D}, {@code P2W}). */
  private Optional<CalendarEvent.Time> plus(CalendarEvent.Time start, String duration) {
    if (duration == null) {
      return Optional.empty();
    }
    long[] daysAndSeconds = duration(duration.strip());
    if (daysAndSeconds == null) {
      return Optional.empty();
    }
    try {
      LocalDateTime local = start.local().plusDays(daysAndSeconds[0]);
      if (start.allDay()) {
        return Optional.of(new CalendarEvent.Time(local, true, "", Optional.empty()));
      }
      local = local.plusSeconds(daysAndSeconds[1]);
      boolean utc = start.zone().isEmpty() && start.instant().isPresent();
      return Optional.of(at(local, utc, start.zone()));
    } catch (DateTimeException | ArithmeticException e) { // beyond the years a date may have
      return Optional.empty();
    }
  }

  /**
   * The days and seconds of a positive DURATION value ({@code P1W}, {@code P1DT2H}, {@code PT15M}),
   * or null if it is none or negative (a DTEND before DTSTART shows no end).
   */
  static long[] duration(String value) {
    int i = value.startsWith("+") ? 1 : 0;
    if (i >= value.length() || (value.charAt(i) != 'P' && value.charAt(i) != 'p')) {
      return null;
    }
    long days = 0;
    long seconds = 0;
    boolean inTime = false;
    boolean any = false;
    i++;
    while (i < value.length()) {
      char c = Character.toUpperCase(value.charAt(i));
      if (c == 'T') {
        inTime = true;
        i++;
        continue;
      }
      int digitsStart = i;
      while (i < value.length() && i - digitsStart < 6 && isDigit(value.charAt(i))) {
        i++;
      }
      if (i == digitsStart || i >= value.length()) {
        return null;
      }
      long n = Long.parseLong(value, digitsStart, i, 10);
      char unit = Character.toUpperCase(value.charAt(i));
      boolean timeUnit = unit == 'H' || unit == 'M' || unit == 'S';
      if (timeUnit != inTime || "WDHMS".indexOf(unit) < 0) {
        return null; // hours, minutes and seconds come after the T, weeks and days before it
      }
      switch (unit) {
        case 'W' -> days += 7 * n;
        case 'D' -> days += n;
        case 'H' -> seconds += 3600 * n;
        case 'M' -> seconds += 60 * n;
        default -> seconds += n;
      }
      any = true;
      i++;
    }
    return any ? new long[] {days, seconds} : null;
  }

  /** {@code value} without the {@code -} and {@code :} of ISO-8601's extended form. */
  private static String withoutSeparators(String value) {
    if (value.indexOf('-') < 0 && value.indexOf(':') < 0) {
      return value;
    }
    StringBuilder kept = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '-' && c != ':') {
        kept.append(c);
      }
    }
    return kept.toString();
  }

  /** The date of {@code yyyyMMdd...}, or null. */
  static LocalDate date(String v) {
    if (v.length() < 8) {
      return null;
    }
    int year = digits(v, 0, 4);
    int month = digits(v, 4, 2);
    int day = digits(v, 6, 2);
    if (year < 0 || month < 0 || day < 0) {
      return null;
    }
    try {
      return LocalDate.of(year, month, day);
    } catch (DateTimeException e) {
      return null;
    }
  }

  /** The number of the {@code count} ASCII digits of {@code text} from {@code from}, or -1. */
  static int digits(String text, int from, int count) {
    if (from + count > text.length()) {
      return -1;
    }
    int n = 0;
    for (int i = from; i < from + count; i++) {
      char c = text.charAt(i);
      if (!isDigit(c)) {
        return -1;
      }
      n = n * 10 + (c - '0');
    }
    return n;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * A TEXT value unescaped ({@code \n} a line break; {@code \,} {@code \;} {@code \\} the
   * character), without other control characters, cut to {@value #MAX_VALUE_CHARS} characters.
   */
  static String text(String value) {
    StringBuilder text = new StringBuilder(Math.min(value.length(), MAX_VALUE_CHARS + 1));
    for (int i = 0; i < value.length() && text.length() <= MAX_VALUE_CHARS; i++) {
      char c = value.charAt(i);
      if (c == '\\' && i + 1 < value.length()) {
        char escaped = value.charAt(++i);
        text.append(escaped == 'n' || escaped == 'N' ? '\n' : escaped);
      } else {
        text.append(c);
      }
    }
    return cleaned(text);
  }

  /**
   * A parameter value as RFC 6868 escapes it ({@code ^'} a quote, {@code ^n} a line break, {@code
   * ^^} a caret), cut to {@value #MAX_VALUE_CHARS} characters.
   */
  private static String parameterText(String value) {
    StringBuilder text = new StringBuilder(Math.min(value.length(), MAX_VALUE_CHARS + 1));
    for (int i = 0; i < value.length() && text.length() <= MAX_VALUE_CHARS; i++) {
      char c = value.charAt(i);
      if (c == '^' && i + 1 < value.length() && "'n^".indexOf(value.charAt(i + 1)) >= 0) {
        char escaped = value.charAt(++i);
        text.append(escaped == '\'' ? '"' : escaped == 'n' ? '\n' : '^');
      } else {
        text.append(c);
      }
    }
    return cleaned(text);
  }

  /**
   * {@code text} without control characters other than line breaks and tabs, stripped, cut to
   * {@value #MAX_VALUE_CHARS} characters.
   */
  static String cleaned(CharSequence text) {
    StringBuilder kept = new StringBuilder(Math.min(text.length(), MAX_VALUE_CHARS + 1));
    for (int i = 0; i < text.length() && kept.length() <= MAX_VALUE_CHARS; i++) {
      char c = text.charAt(i);
      if ((c >= ' ' && c != 0x7f) || c == '\n' || c == '\t') {
        kept.append(c);
      }
    }
    return cut(kept.toString().strip());
  }

  /** {@code text} cut to {@value #MAX_VALUE_CHARS} characters and {@code …}, not in a pair. */
  private static String cut(String text) {
    if (text.length() <= MAX_VALUE_CHARS) {
      return text;
    }
    int end = MAX_VALUE_CHARS;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end) + "…";
  }

  /** What one VEVENT says of the fields read; the first of each property counts. */
  private static final class EventDraft {
    String summary = "";
    String location = "";
    String organizerName = "";
    String organizerEmail = "";
    boolean organizer;
    TimeValue start;
    TimeValue end;
    String duration;
    String rule; // the RRULE
    boolean addedDates; // an RDATE
    boolean removedDates; // an EXDATE

    void property(String name, Map<String, String> parameters, String value) {
      switch (name) {
        case "SUMMARY" -> summary = summary.isEmpty() ? text(value) : summary;
        case "LOCATION" -> location = location.isEmpty() ? text(value) : location;
        case "DTSTART" -> start = start == null ? timeValue(parameters, value) : start;
        case "DTEND" -> end = end == null ? timeValue(parameters, value) : end;
        case "DURATION" -> duration = duration == null ? value : duration;
        case "RRULE" -> rule = rule == null ? value : rule;
        case "RDATE" -> addedDates = true;
        case "EXDATE" -> removedDates = true;
        case "ORGANIZER" -> {
          if (!organizer) {
            organizer = true;
            organizerName = parameterText(parameters.getOrDefault("CN", ""));
            String address = value.strip();
            if (address.regionMatches(true, 0, "mailto:", 0, 7)) {
              address = address.substring(7);
            }
            organizerEmail = cleaned(address);
          }
        }
        default -> {}
      }
    }

    private static TimeValue timeValue(Map<String, String> parameters, String value) {
      return new TimeValue(
          value,
          parameterText(parameters.getOrDefault("TZID", "")),
          "DATE".equalsIgnoreCase(parameters.getOrDefault("VALUE", "").strip()));
    }
  }

  /** What one STANDARD or DAYLIGHT part of a VTIMEZONE says. */
  private static final class ObservanceDraft {
    final boolean daylight;
    String start;
    String offsetTo;
    String rule;

    ObservanceDraft(boolean daylight) {
      this.daylight = daylight;
    }

    void property(String name, String value) {
      switch (name) {
        case "DTSTART" -> start = start == null ? value : start;
        case "TZOFFSETTO" -> offsetTo = offsetTo == null ? value : offsetTo;
        case "RRULE" -> rule = rule == null ? value : rule;
        default -> {}
      }
    }

    /** The observance, if it has a readable DTSTART and TZOFFSETTO. */
    Optional<CalendarTimeZone.Observance> build() {
      if (start == null || offsetTo == null) {
        return Optional.empty();
      }
      String v = withoutSeparators(start.strip());
      LocalDate date = date(v);
      int hour = digits(v, 9, 2);
      int minute = digits(v, 11, 2);
      Optional<ZoneOffset> offset = CalendarTimeZone.offset(offsetTo);
      if (date == null || hour < 0 || hour > 23 || minute < 0 || minute > 59 || offset.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(
          new CalendarTimeZone.Observance(
              daylight,
              date.atTime(hour, minute),
              offset.get(),
              rule == null ? Optional.empty() : CalendarTimeZone.yearlyRule(rule)));
    }
  }
}
