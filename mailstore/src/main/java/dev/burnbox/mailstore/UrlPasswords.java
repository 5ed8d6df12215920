package dev.burnbox.mailstore;

/**
 * Hides the passwords of URLs in text shown to people (messages, logs, settings listings), such as
 * a Redis URL's: the one place that does so, for the store's own messages and the service's
 * settings alike. Stateless.
 */
public final class UrlPasswords {
  private UrlPasswords() {}

  /**
   * {@code text} with the password of every URL in it hidden: {@code redis://u:pw@h:1} reads {@code
   * redis://u:(hidden)@h:1}. A URL's user information is what comes before the last {@code @} of
   * its authority (up to the first {@code /}, {@code ?} or {@code #}, so that a password with a
   * space in it is hidden whole); its password, what follows the user's {@code :}. A user without a
   * password is shown. Reads the text, not a parsed {@link java.net.URI}, whose user information a
   * cluster's list of nodes hides.
   */
  public static String hide(String text) {
    StringBuilder shown = new StringBuilder(text.length());
    int done = 0;
    for (int scheme = text.indexOf("://"); scheme >= 0; scheme = text.indexOf("://", done)) {
      int authority = scheme + 3;
      int end = authority;
      while (end < text.length() && "/?#".indexOf(text.charAt(end)) < 0) {
        end++;
      }
      int at = text.lastIndexOf('@', end - 1);
      int colon = text.indexOf(':', authority);
      if (at >= authority && colon >= 0 && colon < at) {
        shown.append(text, done, colon + 1).append("(hidden)");
        done = at;
      }
      shown.append(text, done, end);
      done = end;
    }
    return shown.append(text, done, text.length()).toString();
  }
}
