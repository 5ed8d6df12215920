package dev.burnbox.server.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The README's "from a test over HTTP" example, end to end: an application sends an HTML sign-up
 * mail over SMTP (quoted-printable, an entity in its link, its code in two groups), and the test
 * waits for it, takes its verification link and the code to type through the JSON API, as a test in
 * any language would.
 */
class SignUpOverHttpTest {
  @RegisterExtension static final BurnboxExtension burnbox = BurnboxExtension.perClass();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** The application under test: its sign-up mail, sent through its SMTP settings. */
  private static void signUp(String address) throws Exception {
    Properties props = new Properties();
    props.put("mail.smtp.host", "127.0.0.1");
    props.put("mail.smtp.port", Integer.toString(burnbox.smtpPort()));
    MimeMessage message = new MimeMessage(Session.getInstance(props));
    message.setFrom(new InternetAddress("no-reply@app.example"));
    message.setRecipient(Message.RecipientType.TO, new InternetAddress(address));
    message.setSubject("Verify your address");
    message.setContent(
        "<p>Welcome! Your verification code is <b>604&nbsp;112</b>.</p>"
            + "<p><a href=\"https://app.example/verify?token=abc&amp;user=ann\">Verify my"
            + " address</a> &middot; <a href=\"https://app.example/help\">Help</a></p>",
        "text/html; charset=utf-8");
    Transport.send(message);
  }

  private static JsonNode get(String path) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + burnbox.httpPort() + path))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  @Test
  void aTestWaitsForTheSignUpMailAndTakesItsLinkAndCode() throws Exception {
    Instant before = Instant.now();
    signUp("ann@burnbox.test");

    JsonNode mail = get("/api/v1/inboxes/ann/next?since=" + before + "&subject=verify&timeout=10s");
    String id = mail.get("id").asText();
    JsonNode links = get("/api/v1/messages/" + id + "/links").get("links");
    JsonNode codes = get("/api/v1/messages/" + id + "/codes").get("codes");

    assertThat(links.get(0).get("url").asText())
        .isEqualTo("https://app.example/verify?token=abc&user=ann");
    assertThat(links.get(0).get("text").asText()).isEqualTo("Verify my address");
    assertThat(links).hasSize(2);
    assertThat(codes.get(0).get("code").asText()).isEqualTo("604 112");
    assertThat(codes.get(0).get("value").asText()).as("to type").isEqualTo("604112");

    String page =
        HTTP.send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + burnbox.httpPort() + "/message/" + id))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    assertThat(page)
        .as("the message page shows them too")
        .contains("<code>604 112</code>")
        .contains(
            "<a href=\"https://app.example/verify?token=abc&amp;user=ann\""
                + " rel=\"noopener noreferrer nofollow\" target=\"_blank\"><bdi>Verify my address</bdi></a>");
  }
}
