package dev.burnbox.server.smtp;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One SMTP reply: a three-digit code, an RFC 3463 enhanced status code and human-readable text.
 * Immutable.
 *
 * @param code the basic reply code, 200 to 599
 * @param enhancedStatus the enhanced status code, e.g. {@code 5.7.1}; its class digit matches the
 *     code's first digit
 * @param text a one-line explanation without CR or LF
 */
public record SmtpReply(int code, String enhancedStatus, String text) implements Answer {
  private static final Pattern ENHANCED = Pattern.compile("[245]\\.\\d{1,3}\\.\\d{1,3}");

  /**
   * @throws IllegalArgumentException if the code is out of range, the enhanced status is malformed
   *     or of another class, or the text spans lines
   */
  public SmtpReply {
    if (code < 200 || code > 599) {
      throw new IllegalArgumentException("reply code out of range: " + code);
    }
    Objects.requireNonNull(enhancedStatus, "enhancedStatus");
    Objects.requireNonNull(text, "text");
    if (!ENHANCED.matcher(enhancedStatus).matches()
        || enhancedStatus.charAt(0) - '0' != code / 100) {
      throw new IllegalArgumentException(
          "enhanced status " + enhancedStatus + " does not fit code " + code);
    }
    if (text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("reply text must be one line");
    }
  }

  /** A 250 2.0.0 reply with {@code text}. */
  public static SmtpReply ok(String text) {
    return new SmtpReply(250, "2.0.0", text);
  }

  /** True for 2xx replies: the message was taken. */
  public boolean isPositive() {
    return code / 100 == 2;
  }

  /** True for 4xx replies: the client should try again later. */
  public boolean isTransient() {
    return code / 100 == 4;
  }

  /** The reply line as sent, e.g. {@code 550 5.7.1 Message rejected as spam}. */
  @Override
  public String toString() {
    return code + " " + enhancedStatus + " " + text;
  }
}
