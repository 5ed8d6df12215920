package dev.burnbox.server.web;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.util.Properties;

/**
 * Sends one plain-text mail from {@value #FROM} the way an application does (Jakarta Mail over SMTP
 * on loopback, no TLS): for the web tests that need mail in a running Burnbox.
 */
final class TextMail {
  static final String FROM = "app@example.net";

  private TextMail() {}

  static void send(int smtpPort, String to, String subject, String text) throws MessagingException {
    Properties props = new Properties();
    props.put("mail.smtp.host", "127.0.0.1");
    props.put("mail.smtp.port", Integer.toString(smtpPort));
    MimeMessage message = new MimeMessage(Session.getInstance(props));
    message.setFrom(new InternetAddress(FROM));
    message.setRecipient(Message.RecipientType.TO, new InternetAddress(to));
    message.setSubject(subject);
    message.setText(text);
    Transport.send(message);
  }
}
