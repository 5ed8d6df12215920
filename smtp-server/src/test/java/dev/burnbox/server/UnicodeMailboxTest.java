package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.server.junit.BurnboxExtension;
import dev.burnbox.server.smtp.SmtpScript;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Unicode mailboxes end to end (RFC 6531): a SMTPUTF8 transaction to {@code Jörg@} is stored in
 * inbox {@code jörg}, which the API and the page address by its percent-encoded name.
 */
class UnicodeMailboxTest {
  @RegisterExtension static final BurnboxExtension burnbox = BurnboxExtension.perClass();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + burnbox.httpPort() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aSmtputf8MailToJoergIsReadFromInboxJoerg() throws Exception {
    try (SmtpScript smtp = SmtpScript.ehlo(burnbox.smtpPort(), "127.0.0.1")) {
      smtp.expectAfter("MAIL FROM:<ann@example.org> SMTPUTF8", "250");
      smtp.expectAfter("RCPT TO:<Jörg@burnbox.test>", "250");
      smtp.expectAfter("RCPT TO:<张伟@burnbox.test>", "250");
      smtp.expectAfter("DATA", "354");
      smtp.expectAfter(
          "Subject: Grüße\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHallo\r\n.", "250");
    }
    HttpResponse<String> listing = get("/api/v1/inboxes/j%C3%B6rg");
    assertThat(listing.statusCode()).isEqualTo(200);
    assertThat(listing.body()).contains("\"inbox\":\"jörg\"").contains("Grüße");
    assertThat(get("/api/v1/inboxes/%E5%BC%A0%E4%BC%9F").body()).contains("Grüße");
    String page = get("/inbox/J%C3%B6rg").body();
    assertThat(page)
        .contains("<span class=\"inbox-name\">jörg</span>")
        .contains("data-events=\"/api/v1/inboxes/j%C3%B6rg/events\"");
    HttpResponse<String> typed =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + burnbox.httpPort() + "/inbox?name=J%C3%B6rg"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(typed.statusCode()).isEqualTo(303);
    assertThat(typed.headers().firstValue("Location")).hasValue("/inbox/j%C3%B6rg");
  }
}
