package dev.burnbox.server.mime;

import dev.burnbox.server.config.OptionRecord;
import dev.burnbox.server.config.OptionValues;
import picocli.CommandLine.Option;

/**
 * The MIME decoder's settings: each component is an option of {@code burnbox serve}, declared here
 * once (see {@link OptionRecord}); {@link #limits()} gives the {@link MimeLimits} the decoder runs
 * with. Immutable; make one with {@link #of}. Guarantees, checked at construction: neither limit is
 * negative.
 */
public record MimeSettings(
    @Option(
            names = "--mime-max-depth",
            paramLabel = "N",
            defaultValue = "20",
            description =
                "deepest MIME nesting decoded; deeper parts are not scanned (the message is still stored"
                    + " whole)")
        int maxDepth,
    @Option(
            names = "--mime-max-decoded-size",
            paramLabel = "BYTES",
            defaultValue = "4MiB",
            converter = OptionValues.Bytes.class,
            description = "most decoded text and HTML kept for scanning and display per message")
        long maxDecodedSize) {

  /** Body parts looked at per message: a bound with no option of its own. */
  private static final int MAX_PARTS = 500;

  /**
   * @throws IllegalArgumentException if a limit is negative
   */
  public MimeSettings {
    new MimeLimits(maxDepth, maxDecodedSize, MAX_PARTS);
  }

  /**
   * These options given, every other at its default.
   *
   * @throws IllegalArgumentException if an option is unknown or a value invalid
   */
  public static MimeSettings of(String... options) {
    return OptionRecord.parse(MimeSettings.class, options);
  }

  /** The decoder's limits these options give. */
  public MimeLimits limits() {
    return new MimeLimits(maxDepth, maxDecodedSize, MAX_PARTS);
  }
}
