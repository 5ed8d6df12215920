package dev.burnbox.server;

import dev.burnbox.mailstore.InboxName;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code burnbox aot-training} (hidden): the workload the {@code ./burnbox} launcher runs once per
 * build under {@code -XX:AOTCacheOutput} (JDK 25+) so that later starts load and link their classes
 * from the ahead-of-time cache instead of from the jar. It starts the service as {@code serve}
 * would on free loopback ports (options parsed by {@link ServeCommand}, environment ignored), sends
 * one mail over SMTP with STARTTLS, reads it through the pages and the API, and stops. Exits 0 when
 * every step answered as expected, 1 otherwise.
 */
@Command(
    name = "aot-training",
    hidden = true,
    description =
        "Start, take one mail, serve it and stop: the launcher's start-up cache workload.")
final class StartupTrainingCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    ServeCommand serve = new ServeCommand(Map.of());
    serve
        .commandLine()
        .parseArgs("--smtp-port=0", "--http-port=0", "--bind=127.0.0.1", "--shutdown-grace=2s");
    try (BurnboxService service = BurnboxService.start(serve.settings());
        HttpClient http = HttpClient.newHttpClient()) {
      send(service.smtpPort());
      String base = "http://127.0.0.1:" + service.httpPort();
      // a 250 means stored: the mail is listed once send returns
      var stored = service.store().list(InboxName.of("training"), 1, null).messages();
      if (stored.isEmpty()) {
        spec.commandLine()
            .getErr()
            .println("aot-training: the mail was answered 250 but not listed");
        return 1;
      }
      String id = stored.get(0).id().value();
      for (String path :
          List.of(
              "/healthz",
              "/",
              "/inbox/training",
              "/message/" + id,
              "/api/v1/inboxes/training",
              "/api/v1/messages/" + id,
              "/api/v1/messages/" + id + "/links",
              "/metrics")) {
        int status =
            http.send(
                    HttpRequest.newBuilder(URI.create(base + path)).build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode();
        if (status != 200) {
          spec.commandLine().getErr().println("aot-training: " + path + " answered " + status);
          return 1;
        }
      }
    }
    return 0;
  }

  private static void send(int port) throws MessagingException, IOException {
    Properties props = new Properties();
    props.put("mail.smtp.host", "127.0.0.1");
    props.put("mail.smtp.port", Integer.toString(port));
    props.put("mail.smtp.starttls.enable", "true");
    props.put("mail.smtp.ssl.trust", "*"); // the self-signed certificate
    props.put("mail.smtp.ssl.checkserveridentity", "false");
    MimeMessage message = new MimeMessage(Session.getInstance(props));
    message.setFrom(new InternetAddress("training@app.example"));
    message.setRecipient(Message.RecipientType.TO, new InternetAddress("training@burnbox.test"));
    message.setSubject("Start-up training");
    message.setContent(
        "<p>Your code is <b>604112</b>: <a href=\"https://app.example/verify\">verify</a></p>",
        "text/html; charset=utf-8");
    Transport.send(message);
  }
}
