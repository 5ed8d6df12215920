package dev.burnbox.server.smtp;

import dev.burnbox.server.config.BurnboxVersion;
import java.net.Inet6Address;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The {@code Received:} trace field the intake prepends to each message it takes (RFC 5321 §4.4),
 * as every accepting MTA does: which client (its HELO name and address) handed it to which server
 * (this host, Burnbox and its version), how ({@code with}: SMTP for HELO, ESMTP for EHLO, with S
 * under TLS and A after AUTH, UTF8SMTP for a SMTPUTF8 transaction, as RFC 3848 and RFC 6531 name
 * them), under which id, for which recipient when there is only one, and when. For example:
 *
 * <pre>
 * Received: from client.example ([192.0.2.7])
 *         by mx.burnbox.test (Burnbox 0.1.0) with ESMTPS id 3YH8Q2MZK6C4
 *         for &lt;ann@burnbox.test&gt;; Wed, 25 Nov 2026 17:51:41 +0000
 * </pre>
 *
 * <p>No reverse DNS lookup is made (it would put a DNS round trip on every message), so the
 * parentheses hold the address only. The HELO name is the client's word, as in any Received field;
 * outside a SMTPUTF8 transaction its non-ASCII characters are written as {@code ?}. Stateless and
 * thread-safe.
 */
final class TraceHeader {
  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("EEE, d MMM yyyy HH:mm:ss Z", Locale.ENGLISH)
          .withZone(ZoneOffset.UTC);
  private static final String ID_ALPHABET = "0123456789ABCDEFGHJKLMNPQRSTVWXYZ";

  private TraceHeader() {}

  /**
   * The trace field in UTF-8, to go in front of the message's content.
   *
   * @param esmtp whether the client said EHLO (not HELO)
   * @param authenticated whether it authenticated
   * @param utf8 whether the MAIL command had the SMTPUTF8 parameter
   */
  static byte[] bytes(
      Envelope envelope, String hostName, boolean esmtp, boolean authenticated, boolean utf8) {
    return field(envelope, hostName, esmtp, authenticated, utf8).getBytes(StandardCharsets.UTF_8);
  }

  /** The field, folded on three lines, ending in CRLF. */
  static String field(
      Envelope envelope, String hostName, boolean esmtp, boolean authenticated, boolean utf8) {
    String protocol =
        (utf8 ? "UTF8SMTP" : esmtp ? "ESMTP" : "SMTP")
            + (envelope.tls() ? "S" : "")
            + (authenticated ? "A" : "");
    String address =
        envelope.client() instanceof Inet6Address
            ? "IPv6:" + envelope.client().getHostAddress()
            : envelope.client().getHostAddress();
    String helo = envelope.heloName().isEmpty() ? "unknown" : envelope.heloName();
    if (!utf8) {
      helo = asciiOnly(helo);
    }
    StringBuilder field =
        new StringBuilder("Received: from ")
            .append(helo)
            .append(" ([")
            .append(address)
            .append("])\r\n\tby ")
            .append(hostName)
            .append(" (Burnbox ")
            .append(BurnboxVersion.current())
            .append(") with ")
            .append(protocol)
            .append(" id ")
            .append(id());
    if (envelope.recipients().size() == 1) {
      field.append("\r\n\tfor <").append(envelope.recipients().get(0)).append('>');
    }
    return field.append(";\r\n\t").append(date(envelope.receivedAt())).append("\r\n").toString();
  }

  /** 12 characters of Crockford's base 32: 60 random bits, to find the message in a log. */
  /** {@code s} with every code point outside ASCII as {@code ?}. */
  private static String asciiOnly(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        StringBuilder out = new StringBuilder(s.length());
        for (int j = 0; j < s.length(); j = s.offsetByCodePoints(j, 1)) {
          int c = s.codePointAt(j);
          out.append(c < 0x80 ? (char) c : '?');
        }
        return out.toString();
      }
    }
    return s;
  }

  /** The last second formatted, and its text: the field's date changes once a second. */
  private record FormattedSecond(long epochSecond, String text) {}

  private static volatile FormattedSecond lastDate = new FormattedSecond(Long.MIN_VALUE, "");

  private static String date(Instant at) {
    FormattedSecond last = lastDate;
    if (last.epochSecond() != at.getEpochSecond()) {
      last = new FormattedSecond(at.getEpochSecond(), DATE.format(at));
      lastDate = last;
    }
    return last.text();
  }

  private static String id() {
    long bits = ThreadLocalRandom.current().nextLong();
    char[] id = new char[12];
    for (int i = 0; i < id.length; i++) {
      id[i] = ID_ALPHABET.charAt((int) (bits & 31));
      bits >>>= 5;
    }
    return new String(id);
  }
}
