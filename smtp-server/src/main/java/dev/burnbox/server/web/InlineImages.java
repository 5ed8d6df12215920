package dev.burnbox.server.web;

import dev.burnbox.server.mime.AttachmentInfo;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The images a mail carries in its own parts ({@code multipart/related} with a {@code Content-ID}),
 * which its HTML names by {@code cid:} URL: where this server serves each one ({@code
 * /message/{id}/inline/{index}}, signed for a private inbox's mail: see {@link InlineImageSigner}),
 * and which types may be served as images at all. Only raster types are: never SVG, which can carry
 * script. Part of the message, not remote, so showing them tells no tracker anything: they load
 * without the reader asking for images.
 */
final class InlineImages {
  /** The types an inline part is served as; anything else is not served as an image. */
  static final Set<String> RASTER_TYPES =
      Set.of("image/png", "image/jpeg", "image/gif", "image/webp");

  private InlineImages() {}

  /** Whether a part of {@code contentType} (lower case, as decoded) is served as an image. */
  static boolean isRaster(String contentType) {
    return RASTER_TYPES.contains(contentType.toLowerCase(Locale.ROOT));
  }

  /** The path of part {@code index} of message {@code id} as an inline image. */
  static String path(String id, int index) {
    return "/message/" + id + "/inline/" + index;
  }

  /** The path prefix of the inline images of message {@code id}, for a CSP source. */
  static String pathPrefix(String id) {
    return "/message/" + id + "/inline/";
  }

  /**
   * The URL each Content-ID of {@code attachments} is served at, {@code url} of its part's index,
   * for the raster parts that have one; the first part wins when two share a Content-ID.
   */
  static Map<String, String> urls(List<AttachmentInfo> attachments, IntFunction<String> url) {
    Map<String, String> urls = new LinkedHashMap<>();
    for (AttachmentInfo part : attachments) {
      if (!part.contentId().isEmpty() && isRaster(part.contentType())) {
        urls.putIfAbsent(part.contentId(), url.apply(part.index()));
      }
    }
    return urls;
  }

  /**
   * The Content-ID a {@code cid:} URL names (RFC 2392: percent-decoded), or null if {@code url} is
   * not a {@code cid:} URL.
   */
  static String contentId(String url) {
    String value = url.strip();
    if (!value.regionMatches(true, 0, "cid:", 0, 4)) {
      return null;
    }
    String id = value.substring(4);
    try {
      return URLDecoder.decode(id.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException malformedEscape) {
      return id;
    }
  }
}
