package dev.burnbox.server.web;

import dev.burnbox.server.smtp.LogText;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code Content-Disposition} of an attachment download (RFC 6266): always {@code attachment},
 * with the sender's file name made safe, as {@code filename="..."} in ASCII for old clients and as
 * {@code filename*=UTF-8''...} (RFC 8187, percent-encoded UTF-8) keeping the name's letters in any
 * script, which browsers prefer.
 *
 * <p>A safe name is the last path segment of the name, in NFC, without control or format characters
 * (so no bidirectional override can disguise an extension), with the characters Windows refuses
 * ({@code <>:"|?*}) replaced by {@code _}, no leading dot, no leading or trailing space, at most
 * {@value #MAX_LENGTH} characters (a long name keeps its extension). A part without a usable name
 * is {@code attachment-<index>}, with an extension for the common types of its content. The ASCII
 * name has only letters, digits, {@code .}, {@code -} and {@code _}: accents dropped, other
 * characters replaced by one {@code _}, and {@code attachment-<index>} plus the extension where no
 * letter or digit is left before it.
 */
final class DownloadNames {
  /** The most characters (code points) of a download's name. */
  static final int MAX_LENGTH = 100;

  /** The longest extension kept when a long name is cut. */
  private static final int MAX_EXTENSION = 16;

  /** The extension of an unnamed part by its content type, for the common types. */
  private static final Map<String, String> EXTENSIONS =
      Map.ofEntries(
          Map.entry("application/pdf", "pdf"),
          Map.entry("application/zip", "zip"),
          Map.entry("application/json", "json"),
          Map.entry("image/png", "png"),
          Map.entry("image/jpeg", "jpg"),
          Map.entry("image/gif", "gif"),
          Map.entry("image/webp", "webp"),
          Map.entry("text/plain", "txt"),
          Map.entry("text/html", "html"),
          Map.entry("text/csv", "csv"),
          Map.entry("text/calendar", "ics"),
          Map.entry("message/rfc822", "eml"));

  private DownloadNames() {}

  /**
   * The header value for attachment {@code index} of a message, named {@code name} ("" for none) by
   * a hostile mail, of type {@code contentType}.
   */
  static String contentDisposition(String name, String contentType, int index) {
    String safe = safe(name, contentType, index);
    return "attachment; filename=\""
        + ascii(safe, index)
        + "\"; filename*=UTF-8''"
        + percentEncoded(safe);
  }

  /**
   * The safe name of attachment {@code index}, named {@code name} ("" for none) by a hostile mail,
   * of type {@code contentType}: see the class comment. The name a download gets, and the one the
   * message page shows for it.
   */
  static String safe(String name, String contentType, int index) {
    String segment = Normalizer.normalize(name, Normalizer.Form.NFC);
    segment = segment.substring(Math.max(segment.lastIndexOf('/'), segment.lastIndexOf('\\')) + 1);
    StringBuilder safe = new StringBuilder();
    segment
        .codePoints()
        .forEach(
            c -> {
              if (Character.isSpaceChar(c)) {
                safe.append(' ');
              } else if ("<>:\"|?*".indexOf(c) >= 0) {
                safe.append('_');
              } else if (LogText.showsAsItself(c)) {
                safe.appendCodePoint(c);
              }
            });
    String result = cut(strip(safe.toString()));
    return result.codePoints().anyMatch(Character::isLetterOrDigit)
        ? result
        : "attachment-" + index + extension(contentType);
  }

  /** {@code name} without leading dots and spaces and without trailing dots and spaces. */
  private static String strip(String name) {
    int start = 0;
    int end = name.length();
    while (start < end && (name.charAt(start) == '.' || name.charAt(start) == ' ')) {
      start++;
    }
    while (end > start && (name.charAt(end - 1) == '.' || name.charAt(end - 1) == ' ')) {
      end--;
    }
    return name.substring(start, end);
  }

  /** {@code name} cut to {@link #MAX_LENGTH} code points, its extension kept. */
  private static String cut(String name) {
    int length = name.codePointCount(0, name.length());
    if (length <= MAX_LENGTH) {
      return name;
    }
    int dot = name.lastIndexOf('.');
    String extension =
        dot > 0 && name.codePointCount(dot, name.length()) <= MAX_EXTENSION
            ? name.substring(dot)
            : "";
    int keep = MAX_LENGTH - extension.codePointCount(0, extension.length());
    return strip(name.substring(0, name.offsetByCodePoints(0, keep))) + extension;
  }

  /** ".pdf" and the like for a common content type, else "". */
  private static String extension(String contentType) {
    String type = contentType.toLowerCase(Locale.ROOT);
    int semicolon = type.indexOf(';');
    String extension =
        EXTENSIONS.get((semicolon < 0 ? type : type.substring(0, semicolon)).strip());
    return extension == null ? "" : "." + extension;
  }

  /** The ASCII form of a {@link #safe} name: see the class comment. */
  private static String ascii(String safe, int index) {
    String decomposed = Normalizer.normalize(safe, Normalizer.Form.NFD);
    StringBuilder ascii = new StringBuilder();
    for (int i = 0; i < decomposed.length(); i++) {
      char c = decomposed.charAt(i);
      if (Character.getType(c) == Character.NON_SPACING_MARK) {
        continue; // the accent of a decomposed é
      }
      boolean kept =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '-'
              || c == '_';
      if (kept) {
        ascii.append(c);
      } else if (Character.isLowSurrogate(c)) {
        continue; // the second half of a character already replaced
      } else if (ascii.isEmpty() || ascii.charAt(ascii.length() - 1) != '_') {
        ascii.append('_');
      }
    }
    int dot = ascii.lastIndexOf(".");
    String stem = dot < 0 ? ascii.toString() : ascii.substring(0, dot);
    String extension = dot < 0 ? "" : ascii.substring(dot);
    return stem.chars().anyMatch(Character::isLetterOrDigit)
        ? ascii.toString()
        : "attachment-"
            + index
            + (extension.chars().anyMatch(Character::isLetterOrDigit) ? extension : "");
  }

  /**
   * {@code name} as an RFC 8187 {@code value-chars}: its UTF-8 bytes, every one but the {@code
   * attr-char}s percent-encoded.
   */
  private static String percentEncoded(String name) {
    StringBuilder encoded = new StringBuilder();
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || "!#$&+-.^_`|~".indexOf(c) >= 0) {
        encoded.append((char) c);
      } else {
        encoded.append("%%%02X".formatted(c));
      }
    }
    return encoded.toString();
  }
}
