package dev.burnbox.server.web;

import dev.burnbox.server.pipeline.PrivateDomains;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tokens that open private domains' inboxes ({@code --api-tokens-file}), read from a file of
 * lines {@code TOKEN DOMAIN[,DOMAIN...]} (or {@code TOKEN *} for every private domain; {@code #}
 * starts a comment), each token at least {@value #MIN_TOKEN_LENGTH} characters:
 *
 * <pre>
 * # team A's CI and its testers
 * 7f3kq9v2m1x8c4r6t0ya  team-a.example
 * ops-2b8e1d7c5a9f3e6b  *
 * </pre>
 *
 * <p>The file is read again when its modification time changes (checked at most once a second), so
 * a token is added or revoked without a restart; a file that no longer reads or parses is logged
 * and the tokens read before stay. Tokens are looked up by their SHA-256, so the time an answer
 * takes says nothing about how much of a guessed token was right.
 *
 * <p>Thread-safe.
 */
public final class ApiTokens {
  /** The shortest token accepted: 16 characters. */
  public static final int MIN_TOKEN_LENGTH = 16;

  private static final Logger log = LoggerFactory.getLogger(ApiTokens.class);
  private static final long RECHECK_NANOS = 1_000_000_000L;

  private final Path file;
  private volatile Grants grants;
  private volatile long checkedAt;
  private volatile String problem; // the last one logged, or null

  private ApiTokens(Path file, Grants grants) {
    this.file = file;
    this.grants = grants;
    this.checkedAt = System.nanoTime();
  }

  private static final ApiTokens NONE = new ApiTokens(null, Grants.of(null, Map.of()));

  /** No tokens: nothing private can be read with one. */
  public static ApiTokens none() {
    return NONE;
  }

  /**
   * The tokens in {@code file}, watched for changes.
   *
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if a line is malformed (the message names the file and line)
   */
  public static ApiTokens read(Path file) throws IOException {
    return new ApiTokens(file, parse(file));
  }

  /** The file the tokens come from, or null for {@link #none()}. */
  public Path file() {
    return file;
  }

  /**
   * Whether {@code token} opens the inboxes of {@code domain} (a private domain, lower-case ASCII);
   * false for a null token.
   */
  public boolean grants(String token, String domain) {
    if (token == null || domain == null) {
      return false;
    }
    Set<String> domains = current().byDigest().get(digest(token.strip()));
    return domains != null && (domains.contains("*") || domains.contains(domain));
  }

  /**
   * A SHA-256 digest of the tokens as now read and of what each grants: the same for the same
   * tokens and grants in any order of the file, another as soon as a token or grant is added,
   * removed or changed; "" if there are no tokens. Hex; says nothing about the tokens themselves.
   */
  String fingerprint() {
    return current().fingerprint();
  }

  /** Whether {@code token} is one of the tokens at all (it may grant other domains only). */
  public boolean knows(String token) {
    return token != null && current().byDigest().containsKey(digest(token.strip()));
  }

  private Grants current() {
    Grants known = grants;
    long now = System.nanoTime();
    if (file == null || now - checkedAt < RECHECK_NANOS) {
      return known;
    }
    checkedAt = now;
    FileTime modified;
    try {
      modified = Files.getLastModifiedTime(file);
    } catch (IOException e) {
      problem("cannot read " + file + ": " + e, known);
      return known;
    }
    if (!modified.equals(known.modified())) {
      synchronized (this) {
        if (grants == known) {
          try {
            grants = parse(file);
            problem = null;
            log.info("API tokens: read {} tokens from {}", grants.byDigest().size(), file);
          } catch (IOException | IllegalArgumentException e) {
            // this version of the file is not read again: the next change is
            grants = Grants.of(modified, known.byDigest());
            problem(e.getMessage(), known);
          }
        }
      }
    }
    return grants;
  }

  /** Logs {@code what} once, not at every check while it lasts. */
  private void problem(String what, Grants kept) {
    if (!what.equals(problem)) {
      problem = what;
      log.warn("API tokens: {}; keeping the {} tokens read before", what, kept.byDigest().size());
    }
  }

  private static Grants parse(Path file) throws IOException {
    FileTime modified = Files.getLastModifiedTime(file);
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    Map<String, Set<String>> byDigest = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int hash = line.indexOf('#');
      String[] fields = (hash < 0 ? line : line.substring(0, hash)).strip().split("\\s+");
      if (fields.length == 1 && fields[0].isEmpty()) {
        continue;
      }
      String where = file + ":" + (i + 1) + ": ";
      if (fields.length != 2) {
        throw new IllegalArgumentException(where + "expected TOKEN DOMAIN[,DOMAIN...] or TOKEN *");
      }
      if (fields[0].length() < MIN_TOKEN_LENGTH) {
        throw new IllegalArgumentException(
            where + "token shorter than " + MIN_TOKEN_LENGTH + " characters");
      }
      Set<String> domains;
      try {
        domains = fields[1].equals("*") ? Set.of("*") : PrivateDomains.parse(fields[1]).domains();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + e.getMessage(), e);
      }
      if (byDigest.put(digest(fields[0]), domains) != null) {
        throw new IllegalArgumentException(where + "the same token is on an earlier line");
      }
    }
    return Grants.of(modified, Map.copyOf(byDigest));
  }

  private static String digest(String token) {
    return HexFormat.of().formatHex(sha256(token));
  }

  /** The SHA-256 of {@code text} in UTF-8. */
  static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return file == null ? "no tokens" : "tokens from " + file;
  }

  /**
   * The tokens as read: the domains each grants by the token's digest, and {@link #fingerprint()}
   * of them.
   */
  private record Grants(FileTime modified, Map<String, Set<String>> byDigest, String fingerprint) {
    static Grants of(FileTime modified, Map<String, Set<String>> byDigest) {
      if (byDigest.isEmpty()) {
        return new Grants(modified, byDigest, "");
      }
      StringBuilder lines = new StringBuilder();
      new TreeMap<>(byDigest)
          .forEach(
              (digest, domains) ->
                  lines.append(digest).append(' ').append(new TreeSet<>(domains)).append('\n'));
      return new Grants(modified, byDigest, digest(lines.toString()));
    }
  }
}
