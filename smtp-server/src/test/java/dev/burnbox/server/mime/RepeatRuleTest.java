package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link RepeatRule}: the rules it puts in words, and those it only says "Repeats" of. */
class RepeatRuleTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          FREQ=DAILY                                     | Daily
          FREQ=DAILY;                                    | Daily
          FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10               | Weekly on Monday and Wednesday, 10 times
          FREQ=WEEKLY;WKST=SU;COUNT=10;BYDAY=WE,MO       | Weekly on Monday and Wednesday, 10 times
          freq=weekly;byday=fr,mo,we                     | Weekly on Monday, Wednesday and Friday
          FREQ=WEEKLY;INTERVAL=2;UNTIL=20270301          | Every 2 weeks until 2027-03-01
          FREQ=WEEKLY;INTERVAL=1;BYDAY=TU;UNTIL=20270301T090000 | Weekly on Tuesday until 2027-03-01
          FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR                | Daily on Monday, Tuesday, Wednesday, Thursday and Friday
          FREQ=MONTHLY                                   | Monthly
          FREQ=MONTHLY;BYDAY=2TU                         | Monthly on the second Tuesday
          FREQ=MONTHLY;BYDAY=+1MO,-1FR;COUNT=1           | Monthly on the first Monday and the last Friday, once
          FREQ=YEARLY;INTERVAL=3                         | Every 3 years
          FREQ=HOURLY;INTERVAL=4                         | Every 4 hours
          FREQ=MINUTELY                                  | Every minute
          FREQ=SECONDLY;INTERVAL=30                      | Every 30 seconds
          """)
  void aRuleItReadsIsPutInWords(String rule, String words) {
    assertThat(RepeatRule.describe(rule, null)).isEqualTo(words);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "FREQ=MONTHLY;BYMONTHDAY=15",
        "FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2",
        "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=1",
        "FREQ=WEEKLY;BYDAY=1MO",
        "FREQ=MONTHLY;BYDAY=MO",
        "FREQ=MONTHLY;BYDAY=MO,2TU",
        "FREQ=MONTHLY;BYDAY=6MO",
        "FREQ=MONTHLY;BYDAY=-2MO",
        "FREQ=YEARLY;BYDAY=20MO",
        "FREQ=DAILY;COUNT=3;UNTIL=20270101",
        "FREQ=DAILY;FREQ=WEEKLY",
        "FREQ=FORTNIGHTLY",
        "INTERVAL=2",
        "",
        ";",
        "FREQ",
        "FREQ=",
        "FREQ=DAILY;INTERVAL=0",
        "FREQ=DAILY;INTERVAL=9999999",
        "FREQ=DAILY;INTERVAL=-1",
        "FREQ=DAILY;COUNT=0",
        "FREQ=DAILY;UNTIL=2027-03-01",
        "FREQ=DAILY;UNTIL=20270230",
        "FREQ=DAILY;UNTIL=20270301T240000Z",
        "FREQ=DAILY;UNTIL=20270301X090000",
        "FREQ=DAILY;X-NAME=1",
        "FREQ=WEEKLY;BYDAY=",
        "FREQ=WEEKLY;BYDAY=MO,,WE",
        "FREQ=WEEKLY;BYDAY=MONDAY",
        "FREQ=DAILY;WKST=XX",
        "FREQ=DAILY;RSCALE=GREGORIAN",
      })
  void aRuleItDoesNotReadIsJustSaidToRepeat(String rule) {
    assertThat(RepeatRule.describe(rule, null)).isEqualTo("Repeats");
  }

  /**
   * Outlook writes UNTIL in UTC: the last of a series at 18:00 in Redmond on 1 March is 02:00 UTC
   * on 2 March. At the start's offset it is the day the organizer chose.
   */
  @ParameterizedTest
  @CsvSource({"-8, 2027-03-01", "0, 2027-03-02", "9, 2027-03-02"})
  void aUtcUntilIsTheDateItIsAtTheStartsOffset(int hours, String date) {
    assertThat(RepeatRule.describe("FREQ=WEEKLY;UNTIL=20270302T020000Z", ZoneOffset.ofHours(hours)))
        .isEqualTo("Weekly until " + date);
  }
}
