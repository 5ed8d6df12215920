package dev.burnbox.server.mime;

import dev.burnbox.server.config.OptionCatalog;
import dev.burnbox.server.config.OptionValues;
import picocli.CommandLine.Option;

/**
 * The MIME decoder's options of {@code burnbox serve}, each declared once here (see {@link
 * OptionCatalog}); {@link MimeLimits#DEFAULTS} is made from their defaults. A picocli mixin; not
 * thread-safe until parsed.
 */
public final class MimeOptions {
  private static final MimeOptions DEFAULTS = OptionCatalog.defaults(new MimeOptions());

  /** Body parts looked at per message: a bound with no option of its own. */
  private static final int MAX_PARTS = 500;

  @Option(
      names = "--mime-max-depth",
      paramLabel = "N",
      defaultValue = "20",
      description =
          "deepest MIME nesting decoded; deeper parts are not scanned (the message is still stored"
              + " whole)")
  int maxDepth;

  @Option(
      names = "--mime-max-decoded-size",
      paramLabel = "BYTES",
      defaultValue = "4MiB",
      converter = OptionValues.Bytes.class,
      description = "most decoded text and HTML kept for scanning and display per message")
  long maxDecodedSize;

  /** These options without a command line or environment: every one at its default. */
  public static MimeOptions defaults() {
    return DEFAULTS;
  }

  /**
   * The decoder's limits these options give.
   *
   * @throws IllegalArgumentException if a limit is negative
   */
  public MimeLimits limits() {
    return new MimeLimits(maxDepth, maxDecodedSize, MAX_PARTS);
  }
}
