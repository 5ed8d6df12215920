package dev.burnbox.server.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The hostile mails under {@code src/test/resources/web-hostile/}: scripts, event handlers, {@code
 * javascript:} and {@code data:} URLs, SVG and MathML, frames, CSS tricks, meta refresh, base href,
 * malformed HTML and hostile headers. Every URL they would load or call when a script runs starts
 * with the placeholder {@code BEACON}: {@code BEACON/ran/...} when script ran, {@code
 * BEACON/load/...} for a remote load, {@code BEACON/pixel.gif} for the one ordinary remote image.
 */
final class HostileCorpus {
  static final List<String> FILES =
      List.of(
          "01-script-tags.eml",
          "02-event-handlers.eml",
          "03-javascript-urls.eml",
          "04-data-urls.eml",
          "05-svg.eml",
          "06-nested-iframes.eml",
          "07-css-tricks.eml",
          "08-meta-refresh.eml",
          "09-base-href.eml",
          "10-malformed.eml",
          "11-hostile-headers.eml",
          "12-encoded-hostile-subject.eml",
          "13-remote-image.eml");

  /** The one mail whose only remote load is an ordinary image. */
  static final String REMOTE_IMAGE = "13-remote-image.eml";

  private HostileCorpus() {}

  /** The raw mail {@code file} with {@code BEACON} replaced by {@code beacon}. */
  static String mail(String file, String beacon) {
    try (InputStream in = HostileCorpus.class.getResourceAsStream("/web-hostile/" + file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("BEACON", beacon);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
