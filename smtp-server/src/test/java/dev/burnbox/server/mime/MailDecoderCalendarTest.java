package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The events of a mail's calendar part ({@link DecodedMail#events()}, read by {@link
 * CalendarReader}): invites as Google Calendar and Outlook send them, an attached {@code .ics}, a
 * cancellation, and calendars that are broken or huge, all through the real decoder.
 */
class MailDecoderCalendarTest {
  private static final MailDecoder DECODER = MailDecoder.withDefaults();

  private static DecodedMail decode(String raw) {
    return DECODER.decode(raw.getBytes(StandardCharsets.UTF_8));
  }

  /** A mail whose only part is {@code calendar} (LF line ends made CRLF), sent as text/calendar. */
  private static String inviteMail(String calendar) {
    return "From: app@example.test\r\nTo: qa@burnbox.test\r\nSubject: Invite\r\n"
        + "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n"
        + "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nSee the invite.\r\n"
        + "--b\r\nContent-Type: text/calendar; charset=utf-8; method=REQUEST\r\n\r\n"
        + calendar.replace("\r\n", "\n").replace("\n", "\r\n")
        + "\r\n--b--\r\n";
  }

  private static Instant utc(String instant) {
    return Instant.parse(instant);
  }

  @Test
  void aGoogleCalendarInviteHasItsEventInUtcAndKeepsItsCalendarPartsAsAttachments() {
    byte[] raw = MimeCorpus.read("35-google-calendar-invite.eml");
    DecodedMail mail = DECODER.decode(raw);

    assertThat(mail.problems()).isEmpty();
    assertThat(mail.events()).hasSize(1); // the attached invite.ics repeats it: not read again
    CalendarEvent event = mail.events().getFirst();
    assertThat(event.method()).isEqualTo("REQUEST");
    // folded over two lines, commas escaped; not the SUMMARY of its VALARM
    assertThat(event.summary())
        .isEqualTo(
            "Quarterly review: numbers, plans & next steps for the whole team and the board");
    assertThat(event.location()).isEqualTo("Room 4, Building B\nBerlin");
    assertThat(event.organizerName()).isEqualTo("Ann Example");
    assertThat(event.organizerEmail()).isEqualTo("ann@example.com");
    CalendarEvent.Time start = event.start().orElseThrow();
    assertThat(start.zone()).isEqualTo("Europe/Berlin");
    assertThat(start.local()).isEqualTo(LocalDateTime.of(2026, 3, 16, 10, 0));
    assertThat(start.instant()).contains(utc("2026-03-16T09:00:00Z")); // CET: summer time is later
    assertThat(start.iso()).isEqualTo("2026-03-16T09:00:00Z");
    assertThat(event.end().orElseThrow().instant()).contains(utc("2026-03-16T10:00:00Z"));
    assertThat(event.allDay()).isFalse();

    assertThat(mail.text()).contains("You have been invited").doesNotContain("BEGIN:VCALENDAR");
    assertThat(mail.attachments())
        .extracting(AttachmentInfo::filename, AttachmentInfo::contentType)
        .containsExactly(tuple("", "text/calendar"), tuple("invite.ics", "application/ics"));
    assertThat(
            new String(DECODER.attachment(raw, 1).orElseThrow().content(), StandardCharsets.UTF_8))
        .startsWith("BEGIN:VCALENDAR\r\n")
        .contains("SUMMARY:Quarterly review");
  }

  @Test
  void anOutlookInviteInAZoneOnlyItsVtimezoneDefinesIsPlacedInUtcByThatDefinition() {
    DecodedMail mail = DECODER.decode(MimeCorpus.read("36-outlook-invite.eml"));

    assertThat(mail.problems()).isEmpty();
    CalendarEvent event = mail.events().getFirst();
    assertThat(event.method()).isEqualTo("REQUEST");
    assertThat(event.summary()).isEqualTo("Design sync: checkout flow"); // after LANGUAGE=en-US
    assertThat(event.location()).isEqualTo("Microsoft Teams Meeting");
    assertThat(event.organizerName()).isEqualTo("Example, Ann"); // quoted, with its comma
    assertThat(event.organizerEmail()).isEqualTo("ann.example@contoso.com");
    CalendarEvent.Time start = event.start().orElseThrow();
    assertThat(start.zone()).isEqualTo("W. Europe Standard Time");
    // 14:00 in July: the DAYLIGHT part's +0200 from the last Sunday of March
    assertThat(start.instant()).contains(utc("2026-07-01T12:00:00Z"));
    assertThat(event.end().orElseThrow().instant()).contains(utc("2026-07-01T12:30:00Z"));
    assertThat(mail.attachments())
        .extracting(AttachmentInfo::contentType)
        .containsExactly("text/calendar");
  }

  /** Outlook's zone of Berlin, as its invites define it. */
  private static final String W_EUROPE =
      """
      BEGIN:VTIMEZONE
      TZID:W. Europe Standard Time
      BEGIN:STANDARD
      DTSTART:16010101T030000
      TZOFFSETFROM:+0200
      TZOFFSETTO:+0100
      RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10
      END:STANDARD
      BEGIN:DAYLIGHT
      DTSTART:16010101T020000
      TZOFFSETFROM:+0100
      TZOFFSETTO:+0200
      RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3
      END:DAYLIGHT
      END:VTIMEZONE
      """;

  @Test
  void aCancellationSaysCancelAndAWinterTimeTakesItsZonesStandardOffset() {
    DecodedMail mail =
        decode(
            inviteMail(
                "BEGIN:VCALENDAR\nMETHOD:CANCEL\nPRODID:Microsoft Exchange Server 2010\n"
                    + "VERSION:2.0\n"
                    + W_EUROPE
                    + """
                    BEGIN:VEVENT
                    ORGANIZER;CN=Ann Example:MAILTO:ann@contoso.com
                    SUMMARY;LANGUAGE=en-US:Canceled: Design sync
                    DTSTART;TZID=W. Europe Standard Time:20261130T093000
                    DTEND;TZID=W. Europe Standard Time:20261130T100000
                    STATUS:CANCELLED
                    SEQUENCE:1
                    END:VEVENT
                    END:VCALENDAR
                    """));

    CalendarEvent event = mail.events().getFirst();
    assertThat(event.method()).isEqualTo("CANCEL");
    assertThat(event.summary()).isEqualTo("Canceled: Design sync");
    assertThat(event.organizerEmail()).isEqualTo("ann@contoso.com"); // MAILTO: in capitals too
    assertThat(event.start().orElseThrow().instant()).contains(utc("2026-11-30T08:30:00Z"));
    assertThat(event.end().orElseThrow().instant()).contains(utc("2026-11-30T09:00:00Z"));
  }

  /**
   * Exchange and Outlook on the web often name a Windows zone with no VTIMEZONE for it: the time
   * was shown as in a zone "not known here". It is now placed by CLDR's Windows zone names, summer
   * time and all.
   */
  @Test
  void aWindowsZoneNameWithoutAVtimezoneIsPlacedAsTheIanaZoneItStandsFor() {
    DecodedMail mail =
        decode(
            inviteMail(
                """
                BEGIN:VCALENDAR
                METHOD:REQUEST
                PRODID:Microsoft Exchange Server 2010
                VERSION:2.0
                BEGIN:VEVENT
                SUMMARY;LANGUAGE=en-US:Design review
                DTSTART;TZID=Pacific Standard Time:20261201T090000
                DTEND;TZID=Pacific Standard Time:20261201T100000
                END:VEVENT
                BEGIN:VEVENT
                SUMMARY;LANGUAGE=en-US:Summer planning
                DTSTART;TZID=Pacific Standard Time:20260701T090000
                DURATION:PT30M
                END:VEVENT
                BEGIN:VEVENT
                SUMMARY:Tokyo sync
                DTSTART;TZID=Tokyo Standard Time:20261201T090000
                END:VEVENT
                END:VCALENDAR
                """));

    CalendarEvent winter = mail.events().get(0);
    CalendarEvent.Time start = winter.start().orElseThrow();
    assertThat(start.zone()).isEqualTo("Pacific Standard Time"); // as the invite wrote it
    assertThat(start.instant()).contains(utc("2026-12-01T17:00:00Z")); // 09:00 PST, UTC-8
    assertThat(start.iso()).isEqualTo("2026-12-01T17:00:00Z");
    assertThat(winter.end().orElseThrow().instant()).contains(utc("2026-12-01T18:00:00Z"));
    CalendarEvent summer = mail.events().get(1);
    assertThat(summer.start().orElseThrow().instant()).contains(utc("2026-07-01T16:00:00Z")); // PDT
    assertThat(summer.end().orElseThrow().instant()).contains(utc("2026-07-01T16:30:00Z"));
    assertThat(mail.events().get(2).start().orElseThrow().instant())
        .contains(utc("2026-12-01T00:00:00Z"));
  }

  /**
   * A VTIMEZONE the invite defines for a Windows name still says what the name means there; one the
   * reader cannot use (no offset) leaves the name to CLDR's mapping.
   */
  @Test
  void anInvitesOwnUsableVtimezoneWinsOverTheWindowsZoneName() {
    DecodedMail mail =
        decode(
            inviteMail(
                """
                BEGIN:VCALENDAR
                METHOD:REQUEST
                BEGIN:VTIMEZONE
                TZID:Pacific Standard Time
                BEGIN:STANDARD
                DTSTART:16010101T000000
                TZOFFSETTO:+0300
                END:STANDARD
                END:VTIMEZONE
                BEGIN:VTIMEZONE
                TZID:Eastern Standard Time
                BEGIN:STANDARD
                DTSTART:16010101T020000
                END:STANDARD
                END:VTIMEZONE
                BEGIN:VEVENT
                SUMMARY:As the invite defines the zone
                DTSTART;TZID=Pacific Standard Time:20261201T090000
                END:VEVENT
                BEGIN:VEVENT
                SUMMARY:A VTIMEZONE without an offset
                DTSTART;TZID=Eastern Standard Time:20261201T090000
                END:VEVENT
                END:VCALENDAR
                """));

    assertThat(mail.events().get(0).start().orElseThrow().instant())
        .contains(utc("2026-12-01T06:00:00Z"));
    assertThat(mail.events().get(1).start().orElseThrow().instant())
        .contains(utc("2026-12-01T14:00:00Z")); // 09:00 EST, UTC-5
  }

  /**
   * A repeating event showed as its first time only. Its RRULE is now put in words (a UTC UNTIL at
   * the start's offset), "with exceptions" where EXDATE or RDATE change its times, and "Repeats"
   * for a rule not understood or RDATE alone; an event that does not repeat says "".
   */
  @Test
  void aRepeatingEventSaysHowItRepeats() {
    DecodedMail mail =
        decode(
            inviteMail(
                """
                BEGIN:VCALENDAR
                METHOD:REQUEST
                BEGIN:VEVENT
                SUMMARY:Standup
                DTSTART;TZID=Europe/Berlin:20261130T093000
                RRULE:FREQ=WEEKLY;WKST=MO;COUNT=10;BYDAY=MO,WE
                BEGIN:VALARM
                RRULE:FREQ=DAILY
                END:VALARM
                END:VEVENT
                BEGIN:VEVENT
                SUMMARY:Design review
                DTSTART;TZID=Pacific Standard Time:20261130T180000
                RRULE:FREQ=WEEKLY;UNTIL=20270302T020000Z;INTERVAL=2;BYDAY=MO;WKST=SU
                EXDATE;TZID=Pacific Standard Time:20261228T180000
                END:VEVENT
                BEGIN:VEVENT
                SUMMARY:Invoices
                DTSTART:20261215T080000Z
                RRULE:FREQ=MONTHLY;BYMONTHDAY=15
                EXDATE:20270115T080000Z
                END:VEVENT
                BEGIN:VEVENT
                SUMMARY:Two dates
                DTSTART:20261201T080000Z
                RDATE:20261208T080000Z
                END:VEVENT
                BEGIN:VEVENT
                SUMMARY:Once
                DTSTART:20261201T080000Z
                END:VEVENT
                END:VCALENDAR
                """));

    assertThat(mail.events())
        .extracting(CalendarEvent::repeats)
        .containsExactly(
            "Weekly on Monday and Wednesday, 10 times",
            "Every 2 weeks on Monday until 2027-03-01, with exceptions",
            "Repeats",
            "Repeats",
            "");
  }

  @Test
  void anAttachedIcsFileGivesAllDayDurationFloatingAndSouthernSummerEvents() {
    String calendar =
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Apple Inc.//macOS 15.0//EN
        METHOD:PUBLISH
        BEGIN:VTIMEZONE
        TZID:AUS Eastern Standard Time
        BEGIN:STANDARD
        DTSTART:16010101T030000
        TZOFFSETFROM:+1100
        TZOFFSETTO:+1000
        RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=4
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010101T020000
        TZOFFSETFROM:+1000
        TZOFFSETTO:+1100
        RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=10
        END:DAYLIGHT
        END:VTIMEZONE
        BEGIN:VEVENT
        SUMMARY:Team offsite
        DTSTART;VALUE=DATE:20260402
        DTEND;VALUE=DATE:20260404
        END:VEVENT
        BEGIN:VEVENT
        SUMMARY:Retro
        DTSTART:20260402T150000Z
        DURATION:PT1H30M
        END:VEVENT
        BEGIN:VEVENT
        SUMMARY:Stretch wherever you are
        DTSTART:20260405T090000
        DTEND:20260405T091500
        END:VEVENT
        BEGIN:VEVENT
        SUMMARY:Sydney planning
        DTSTART;TZID=AUS Eastern Standard Time:20260115T090000
        DURATION:P1DT1H
        END:VEVENT
        END:VCALENDAR
        """
            .replace("\n", "\r\n");
    String raw =
        "From: app@example.test\r\nSubject: Offsite\r\nMIME-Version: 1.0\r\n"
            + "Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n"
            + "--b\r\nContent-Type: text/plain\r\n\r\nDates attached.\r\n"
            + "--b\r\nContent-Type: application/octet-stream; name=\"offsite.ics\"\r\n"
            + "Content-Disposition: attachment; filename=\"offsite.ics\"\r\n"
            + "Content-Transfer-Encoding: base64\r\n\r\n"
            + Base64.getMimeEncoder().encodeToString(calendar.getBytes(StandardCharsets.UTF_8))
            + "\r\n--b--\r\n";

    List<CalendarEvent> events = decode(raw).events();

    assertThat(events).extracting(CalendarEvent::method).containsOnly("PUBLISH");
    CalendarEvent offsite = events.get(0);
    assertThat(offsite.allDay()).isTrue();
    assertThat(offsite.start().orElseThrow().date()).isEqualTo(LocalDate.of(2026, 4, 2));
    assertThat(offsite.start().orElseThrow().iso()).isEqualTo("2026-04-02");
    assertThat(offsite.start().orElseThrow().instant()).isEmpty();
    assertThat(offsite.end().orElseThrow().iso()).isEqualTo("2026-04-04"); // the day after it

    assertThat(events.get(1).end().orElseThrow().instant()).contains(utc("2026-04-02T16:30:00Z"));

    CalendarEvent.Time floating = events.get(2).start().orElseThrow();
    assertThat(floating.instant()).isEmpty(); // 09:00 wherever the reader is
    assertThat(floating.zone()).isEmpty();
    assertThat(floating.iso()).isEqualTo("2026-04-05T09:00:00");

    // January is summer in Sydney: daylight (+1100) from October to April spans the new year
    CalendarEvent sydney = events.get(3);
    assertThat(sydney.start().orElseThrow().instant()).contains(utc("2026-01-14T22:00:00Z"));
    assertThat(sydney.end().orElseThrow().instant()).contains(utc("2026-01-15T23:00:00Z"));
  }

  @Test
  void aFoldInsideACharacterAndEscapedBackslashesAreUndone() {
    ByteArrayOutputStream calendar = new ByteArrayOutputStream();
    calendar.writeBytes(
        "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nSUMMARY:Caf"
            .getBytes(StandardCharsets.UTF_8));
    byte[] eAcute = "é".getBytes(StandardCharsets.UTF_8);
    calendar.write(eAcute[0]);
    calendar.writeBytes("\r\n ".getBytes(StandardCharsets.US_ASCII)); // folded inside the é
    calendar.write(eAcute[1]);
    calendar.writeBytes(
        " tasting \\\\ 3 € each\\nbring a friend\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .getBytes(StandardCharsets.UTF_8));
    String raw =
        "Subject: Tasting\r\nMIME-Version: 1.0\r\n"
            + "Content-Type: text/calendar; method=REQUEST; charset=UTF-8\r\n"
            + "Content-Transfer-Encoding: base64\r\n\r\n"
            + Base64.getMimeEncoder().encodeToString(calendar.toByteArray())
            + "\r\n";

    assertThat(decode(raw).events().getFirst().summary())
        .isEqualTo("Café tasting \\ 3 € each\nbring a friend");
  }

  /**
   * A mail whose only part is {@code calendar}, written in {@code charset} and sent base64 as
   * {@code text/calendar; charset=<label>}.
   */
  private static DecodedMail calendarIn(String label, Charset charset, byte[] calendar) {
    String raw =
        "Subject: Invite\r\nMIME-Version: 1.0\r\n"
            + "Content-Type: text/calendar; method=REQUEST; charset="
            + label
            + "\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + Base64.getMimeEncoder().encodeToString(calendar)
            + "\r\n";
    return decode(raw);
  }

  private static byte[] invite(String summary, String location, Charset charset) {
    return ("BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nSUMMARY:"
            + summary
            + "\r\nLOCATION:"
            + location
            + "\r\nDTSTART:20261201T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        .getBytes(charset);
  }

  /**
   * A calendar part that declares ISO-8859-2, KOI8-R or Shift_JIS was read as UTF-8 or else
   * windows-1252, which turned Łódź into £ód¼; it is now read in the charset it declares, as a text
   * part is.
   */
  @Test
  void aCalendarPartIsReadInTheCharsetItDeclares() {
    Charset latin2 = Charset.forName("ISO-8859-2");
    CalendarEvent polish =
        calendarIn(
                "ISO-8859-2", latin2, invite("Spotkanie zespołu", "Łódź, ul. Żeromskiego", latin2))
            .events()
            .getFirst();
    assertThat(polish.summary()).isEqualTo("Spotkanie zespołu");
    assertThat(polish.location()).isEqualTo("Łódź, ul. Żeromskiego");

    Charset koi8r = Charset.forName("KOI8-R");
    CalendarEvent russian =
        calendarIn("\"koi8-r\"", koi8r, invite("Совещание", "Москва, переговорная", koi8r))
            .events()
            .getFirst();
    assertThat(russian.summary()).isEqualTo("Совещание");
    assertThat(russian.location()).isEqualTo("Москва, переговорная");

    // Shift_JIS, folded between the two bytes of 議, and with 髙 (a Windows-31J character)
    Charset sjis = Charset.forName("windows-31j");
    byte[] japanese = invite("定例会議", "髙橋さんの会議室", sjis);
    byte[] ka = "会".getBytes(sjis);
    byte[] gi = "議".getBytes(sjis);
    int at = indexOf(japanese, new byte[] {ka[0], ka[1], gi[0]}) + 3;
    ByteArrayOutputStream folded = new ByteArrayOutputStream();
    folded.write(japanese, 0, at);
    folded.writeBytes("\r\n ".getBytes(StandardCharsets.US_ASCII));
    folded.write(japanese, at, japanese.length - at);
    DecodedMail mail = calendarIn("Shift_JIS", sjis, folded.toByteArray());
    assertThat(mail.events().getFirst().summary()).isEqualTo("定例会議");
    assertThat(mail.events().getFirst().location()).isEqualTo("髙橋さんの会議室");
    assertThat(mail.problems()).isEmpty();
  }

  /** UTF-16 writes no line break as the byte 0x0A: its lines are found in its characters. */
  @Test
  void aUtf16CalendarIsReadInItsCharacters() {
    CalendarEvent event =
        calendarIn(
                "UTF-16",
                StandardCharsets.UTF_16,
                invite("Réunion d’équipe", "Salle 3", StandardCharsets.UTF_16))
            .events()
            .getFirst();
    assertThat(event.summary()).isEqualTo("Réunion d’équipe");
    assertThat(event.location()).isEqualTo("Salle 3");
    assertThat(event.start().orElseThrow().instant()).contains(utc("2026-12-01T09:00:00Z"));
  }

  /** A charset no one knows, or ASCII, reads the part as before: UTF-8 if valid, else 1252. */
  @Test
  void aCalendarPartInAnUnknownOrAsciiCharsetIsReadAsUtf8ElseWindows1252() {
    DecodedMail unknown =
        calendarIn(
            "x-no-such-charset",
            StandardCharsets.UTF_8,
            invite("Café", "Zürich", StandardCharsets.UTF_8));
    assertThat(unknown.events().getFirst().summary()).isEqualTo("Café");
    assertThat(unknown.problems())
        .containsExactly("unknown charset \"x-no-such-charset\": read as UTF-8 or windows-1252");
    Charset windows1252 = Charset.forName("windows-1252");
    assertThat(
            calendarIn("us-ascii", windows1252, invite("Café", "Zürich", windows1252))
                .events()
                .getFirst()
                .location())
        .isEqualTo("Zürich");
  }

  private static int indexOf(byte[] bytes, byte[] wanted) {
    for (int i = 0; i + wanted.length <= bytes.length; i++) {
      if (Arrays.equals(bytes, i, i + wanted.length, wanted, 0, wanted.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }

  @Test
  void aBrokenCalendarShowsWhatItCanReadAndTheMailStillDecodes() {
    DecodedMail mail =
        decode(
            inviteMail(
                """
                BEGIN:VCALENDAR
                METHOD:request
                BEGIN:VEVENT
                SUMMARY:No end and a garbage date
                DTSTART:2026-13-45T99:99:99Z
                DTEND:tomorrow
                DURATION:PT1H
                ORGANIZER;CN="Never closed:mailto:nobody@example.test
                LOCATION
                BEGIN:VALARM
                SUMMARY:an alarm without END
                BEGIN:VEVENT
                SUMMARY:Unknown zone
                DTSTART;TZID=Mars/Olympus_Mons:20260316T100000
                DTEND;VALUE=DATE:2026031
                DURATION:-PT1H
                ;;;:::
                :value without a name
                BEGIN:
                END:NOTHING-OPEN
                END:VCALENDAR
                BEGIN:VEVENT
                DTSTART:20260316T24000Z
                DURATION:P99999999999W
                END:VEVENT
                """));

    assertThat(mail.malformed()).isFalse();
    assertThat(mail.text()).isEqualTo("See the invite.");
    assertThat(mail.events()).hasSize(3);
    CalendarEvent broken = mail.events().get(0);
    assertThat(broken.method()).isEqualTo("REQUEST");
    assertThat(broken.summary()).isEqualTo("No end and a garbage date");
    assertThat(broken.start()).isEmpty();
    assertThat(broken.end()).isEmpty();
    assertThat(broken.location()).isEmpty();
    assertThat(broken.organizerName()).isEqualTo("Never closed:mailto:nobody@example.test");
    assertThat(broken.organizerEmail()).isEmpty();
    CalendarEvent unknownZone = mail.events().get(1);
    assertThat(unknownZone.summary()).isEqualTo("Unknown zone");
    CalendarEvent.Time start = unknownZone.start().orElseThrow();
    assertThat(start.zone()).isEqualTo("Mars/Olympus_Mons");
    assertThat(start.instant()).isEmpty(); // a time in a zone not known is no moment
    assertThat(start.iso()).isEqualTo("2026-03-16T10:00:00");
    assertThat(unknownZone.end()).isEmpty();
    assertThat(mail.events().get(2))
        .isEqualTo(
            new CalendarEvent("REQUEST", "", Optional.empty(), Optional.empty(), "", "", "", ""));
  }

  @Test
  @Timeout(30) // linear: a quadratic read of 2 MB would take far longer
  void twoMegabyteCalendarsAreReadInTheirFirstBytesAndFirstEventsAndListedWhole() {
    StringBuilder description = new StringBuilder("DESCRIPTION:");
    while (description.length() < 2_000_000) {
      description.append("Lorem ipsum\\, dolor; \"sit\" amet\\n <b>bold</b> \\\\ ^^ ===\r\n ");
    }
    String longEvent =
        "BEGIN:VCALENDAR\nMETHOD:REQUEST\nBEGIN:VEVENT\nSUMMARY:Read\nDTSTART:20260316T100000Z\n"
            + description
            + "x\nEND:VEVENT\nBEGIN:VEVENT\nSUMMARY:Beyond the bytes read\nEND:VEVENT\n"
            + "END:VCALENDAR\n";
    DecodedMail mail = decode(inviteMail(longEvent));

    assertThat(mail.events()).extracting(CalendarEvent::summary).containsExactly("Read");
    assertThat(mail.problems())
        .containsExactly("calendar part beyond 262144 bytes was not read for events");
    assertThat(mail.attachments().getFirst().size())
        .isEqualTo(longEvent.replace("\r\n", "\n").replace("\n", "\r\n").length());

    StringBuilder manyEvents = new StringBuilder("BEGIN:VCALENDAR\nMETHOD:PUBLISH\n");
    for (int i = 0; manyEvents.length() < 2_000_000; i++) {
      manyEvents.append("BEGIN:VEVENT\nSUMMARY:Event ").append(i).append("\nEND:VEVENT\n");
    }
    DecodedMail many = decode(inviteMail(manyEvents.toString()));
    assertThat(many.events())
        .extracting(CalendarEvent::summary)
        .containsExactly("Event 0", "Event 1", "Event 2", "Event 3", "Event 4");
    assertThat(many.problems()).contains("more than 5 events in a calendar: the rest are left out");

    String oneLine = "BEGIN:VEVENT\r\nSUMMARY;CN=\"" + "\\;\"".repeat(1_000_000);
    assertThat(decode(inviteMail(oneLine)).events().getFirst().summary()).isEmpty();
    String longSummary = "BEGIN:VEVENT\r\nSUMMARY:" + "\\,".repeat(1_000_000);
    assertThat(decode(inviteMail(longSummary)).events().getFirst().summary())
        .hasSize(CalendarReader.MAX_VALUE_CHARS + 1)
        .endsWith(",…");
  }

  @Test
  void aMailWithoutACalendarHasNoEvents() {
    assertThat(DECODER.decode(MimeCorpus.read("17-rfc2231-filenames.eml")).events()).isEmpty();
    assertThat(decode("Subject: x\r\n\r\nBEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n").events()).isEmpty();
  }
}
