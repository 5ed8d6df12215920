package dev.burnbox.bench.smtp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LoadMessagesTest {
  @Test
  void uniqueMailsDifferByALineAtTheTopOfTheirBodyAndStayWholeMessages() {
    LoadMessages unique = LoadMessages.ofSize(512).unique();
    Set<String> seen = new HashSet<>();
    for (int i = 1; i <= 200; i++) {
      String mail = new String(unique.next(), UTF_8);
      assertThat(seen.add(mail)).as("mail %d is new", i).isTrue();
      assertThat(mail).contains("\r\n\r\nRef: %012d\r\n".formatted(i)).endsWith("\r\n.\r\n");
      assertThat(mail.indexOf("\r\n\r\n")).isEqualTo(mail.indexOf("\r\n\r\nRef: "));
    }
  }

  @Test
  void plainMailsRepeatTheSetsVariants() {
    LoadMessages messages = LoadMessages.ofSize(512);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 2000; i++) {
      seen.add(new String(messages.next(), UTF_8));
    }
    assertThat(seen).hasSizeLessThanOrEqualTo(64);
    assertThat(seen).noneMatch(mail -> mail.contains("Ref: "));
  }
}
