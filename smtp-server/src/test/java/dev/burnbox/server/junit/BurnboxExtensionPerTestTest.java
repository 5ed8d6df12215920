package dev.burnbox.server.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.server.smtp.SmtpScript;
import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link BurnboxExtension#perTest()}: each test starts with a fresh service and empty inboxes. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BurnboxExtensionPerTestTest {
  @RegisterExtension
  final BurnboxExtension burnbox =
      BurnboxExtension.perTest().configure(s -> s.with("--inbox-cap=2"));

  @Test
  @Order(1)
  void firstTestLeavesMailBehind() throws Exception {
    for (int i = 0; i < 3; i++) {
      send("carol");
    }
    assertThat(burnbox.inboxes().awaitMail("carol", 2, Duration.ofSeconds(5))).hasSize(2);
    assertThat(burnbox.inboxes().list("carol")).hasSize(2); // the configured cap held
  }

  @Test
  @Order(2)
  void secondTestFindsTheInboxEmpty() {
    assertThat(burnbox.inboxes().list("carol")).isEmpty();
  }

  private void send(String inbox) throws Exception {
    try (SmtpScript smtp = SmtpScript.ehlo(burnbox.smtpPort(), "127.0.0.1")) {
      smtp.expectAfter("MAIL FROM:<a@example.com>", "250");
      smtp.expectAfter("RCPT TO:<" + inbox + "@burnbox.test>", "250");
      smtp.expectAfter("DATA", "354");
      smtp.write("Subject: hi\r\n\r\nhello\r\n");
      assertThat(smtp.send(".")).startsWith("250");
    }
  }
}
