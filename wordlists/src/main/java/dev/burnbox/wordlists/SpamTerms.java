package dev.burnbox.wordlists;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Burnbox's default spam term list, shipped as the resource {@code
 * dev/burnbox/wordlists/spam-terms.txt} in the {@link TermList} format.
 *
 * <p>The list is Burnbox's own: spam phrases and rare words grouped by family (pharmacy, finance,
 * lottery, phishing, crypto, marketing, adult, urgency), chosen so that ordinary mail gets few
 * hits. It is loaded once, on first use; the returned list is immutable and safe to share between
 * threads.
 */
public final class SpamTerms {
  static final String RESOURCE = "spam-terms.txt";

  private SpamTerms() {}

  /** Returns the shipped default list in file order (duplicates, if any, kept), immutable. */
  public static List<String> defaults() {
    return Holder.DEFAULTS;
  }

  /** Reads a resource of this package in the term-file format; malformed UTF-8 is an error. */
  static List<String> loadResource(String name) {
    try (InputStream stream = SpamTerms.class.getResourceAsStream(name)) {
      if (stream == null) {
        throw new IllegalStateException("missing resource dev/burnbox/wordlists/" + name);
      }
      Reader in =
          new InputStreamReader(
              stream,
              StandardCharsets.UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT));
      return TermList.parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read resource dev/burnbox/wordlists/" + name, e);
    }
  }

  private static final class Holder {
    static final List<String> DEFAULTS = loadResource(RESOURCE);
  }
}
