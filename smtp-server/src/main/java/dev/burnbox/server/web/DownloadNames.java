package dev.burnbox.server.web;

/**
 * File names for {@code Content-Disposition} that are safe on any system and inside the quoted
 * header value: only ASCII letters, digits, {@code .}, {@code -} and {@code _}, no leading dot, at
 * most {@value #MAX_LENGTH} characters, never empty.
 */
final class DownloadNames {
  static final int MAX_LENGTH = 100;

  private DownloadNames() {}

  /**
   * The last path segment of {@code name} (from a hostile mail) with every other character replaced
   * by {@code _}; {@code attachment-<index>} if nothing usable is left.
   */
  static String safe(String name, int index) {
    name = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
    StringBuilder safe = new StringBuilder();
    for (int i = 0; i < name.length() && safe.length() < MAX_LENGTH; i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '-'
              || c == '_';
      if (c == '.' && safe.isEmpty()) {
        continue;
      }
      safe.append(ok ? c : '_');
    }
    String result = safe.toString();
    return result.replace("_", "").replace(".", "").isEmpty() ? "attachment-" + index : result;
  }
}
