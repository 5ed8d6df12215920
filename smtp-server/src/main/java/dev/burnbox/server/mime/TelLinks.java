package dev.burnbox.server.mime;

import java.util.regex.Pattern;

/**
 * What a phone number is in a {@code tel:} link: digits, {@code + - . ( )} and spaces, the spaces
 * and brackets written as they are or percent-encoded ({@code %20 %28 %29}). The one rule for both
 * the mail view, which keeps a {@code tel:} link only if {@link #number} finds its number (see
 * {@code MailHtmlSanitizer}), and {@link MailLinks}, which lists exactly those links, so the two
 * cannot disagree. Stateless and thread-safe.
 */
public final class TelLinks {
  /** A phone number once its {@code %20 %28 %29} are decoded. */
  private static final Pattern PHONE_NUMBER = Pattern.compile("[0-9+\\-.() ]+");

  private TelLinks() {}

  /**
   * The phone number {@code url} calls, its {@code %20}, {@code %28} and {@code %29} read as a
   * space and brackets: {@code "+1 (555) 010-0199"} for {@code tel:+1%20(555)%20010-0199}. Null
   * unless {@code url} is {@code tel:}, in any case, and then nothing but a phone number: nothing
   * before {@code tel:}, no other escape ({@code %2B} is no {@code +}), no {@code ;ext=}.
   */
  public static String number(String url) {
    if (!url.regionMatches(true, 0, "tel:", 0, 4)) {
      return null;
    }
    String number = url.substring(4).replace("%20", " ").replace("%28", "(").replace("%29", ")");
    return PHONE_NUMBER.matcher(number).matches() ? number : null;
  }
}
