package dev.burnbox.server.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link BurnboxExtension#perClass()}, as README's example uses it: the mail of an earlier test
 * stays, but a later test awaiting the same inbox does not get the mail that test already awaited.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BurnboxExtensionPerClassTest {
  @RegisterExtension static final BurnboxExtension burnbox = BurnboxExtension.perClass();

  @Test
  @Order(1)
  void firstTestAwaitsItsMail() throws Exception {
    BurnboxExtensionTest.send("erin@burnbox.test", "first test", burnbox.smtpPort());
    assertThat(burnbox.inboxes().awaitMail("erin", Duration.ofSeconds(10)).subject())
        .isEqualTo("first test");
  }

  @Test
  @Order(2)
  void secondTestGetsItsOwnMailNotTheFirstTests() throws Exception {
    Thread.ofVirtual().start(this::sendLater);
    assertThat(burnbox.inboxes().awaitMail("erin", Duration.ofSeconds(10)).subject())
        .isEqualTo("second test");
    assertThat(burnbox.inboxes().list("erin")).hasSize(2); // the first test's mail stays
  }

  private void sendLater() {
    try {
      Thread.sleep(200); // the test is already waiting
      BurnboxExtensionTest.send("erin@burnbox.test", "second test", burnbox.smtpPort());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
