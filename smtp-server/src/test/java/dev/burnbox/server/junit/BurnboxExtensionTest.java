package dev.burnbox.server.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.burnbox.server.BurnboxService;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The README's JUnit example: an application's mail read back in the same JVM. */
class BurnboxExtensionTest {
  @RegisterExtension static final BurnboxExtension burnbox = BurnboxExtension.perClass();

  /** What an application under test does: send a mail through its SMTP settings. */
  private static void signUp(String address, int smtpPort) throws Exception {
    send(address, "Please verify your address", smtpPort);
  }

  static void send(String address, String subject, int smtpPort) throws Exception {
    Properties props = new Properties();
    props.put("mail.smtp.host", "127.0.0.1");
    props.put("mail.smtp.port", Integer.toString(smtpPort));
    MimeMessage message = new MimeMessage(Session.getInstance(props));
    message.setFrom(new InternetAddress("no-reply@app.example"));
    message.setRecipient(Message.RecipientType.TO, new InternetAddress(address));
    message.setSubject(subject);
    message.setText("Your code is 493027. It expires in 10 minutes.");
    Transport.send(message);
  }

  @Test
  void aMailSentOverSmtpIsAwaitedAndReadBack() throws Exception {
    Thread.ofVirtual().start(() -> sendQuietly("ann@burnbox.test"));
    Inboxes.ReceivedMail mail = burnbox.inboxes().awaitMail("ann", Duration.ofSeconds(10));
    assertThat(mail.subject()).isEqualTo("Please verify your address");
    assertThat(mail.text()).contains("Your code is 493027");
    assertThat(mail.summary().from()).contains("no-reply@app.example");
  }

  @Test
  void testMethodsMayTakeTheServiceAndItsWebApiAnswers(BurnboxService service) throws Exception {
    signUp("bob@burnbox.test", service.smtpPort());
    HttpResponse<String> inbox =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:" + burnbox.httpPort() + "/api/v1/inboxes/bob"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(inbox.body()).contains("Please verify your address");
  }

  /**
   * awaitMail returned the inbox's newest message at once, so a second call got the same mail: it
   * now returns the mails one by one, oldest first, including those sent before the call.
   */
  @Test
  void awaitsInARowGetTheMailsSentBeforeThemOneByOneInArrivalOrder() throws Exception {
    send("dave@burnbox.test", "first", burnbox.smtpPort());
    send("dave@burnbox.test", "second", burnbox.smtpPort());
    Inboxes inboxes = burnbox.inboxes();
    assertThat(inboxes.awaitMail("dave", Duration.ofSeconds(10)).subject()).isEqualTo("first");
    assertThat(inboxes.awaitMail("dave", Duration.ofSeconds(10)).subject()).isEqualTo("second");
    assertThatThrownBy(() -> inboxes.awaitMail("dave", Duration.ofMillis(200)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("inbox dave holds 0 of 1 mails not yet returned");
  }

  @Test
  void waitingForMailThatNeverComesFailsTheTestNamingTheInbox() {
    assertThatThrownBy(() -> burnbox.inboxes().awaitMail("nobody", Duration.ofMillis(200)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("inbox nobody holds 0 of 1 mails");
  }

  private static void sendQuietly(String address) {
    try {
      Thread.sleep(200); // the test is already waiting
      signUp(address, burnbox.smtpPort());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
