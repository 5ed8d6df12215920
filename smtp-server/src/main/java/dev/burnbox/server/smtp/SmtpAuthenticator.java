package dev.burnbox.server.smtp;

import at.favre.lib.crypto.bcrypt.BCrypt;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.burnbox.server.config.OptionErrors;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the user and password of an SMTP AUTH as {@link SmtpAuth} says.
 *
 * <p>With an htpasswd file ({@code user:hash} lines; {@code #} comments; bcrypt hashes {@code
 * $2y$}, {@code $2a$}, {@code $2b$} only, as {@code htpasswd -B} writes them; other lines are
 * skipped with a warning), the file is read at start (a missing or unreadable file fails the start)
 * and again whenever its modification time changes, checked at each AUTH; a file that cannot be
 * read then leaves the previous credentials in use. An unknown user costs a bcrypt comparison too,
 * so the time of an answer does not tell which users exist. After {@value #FAILURES_PER_MINUTE}
 * failures within a minute from one address, its next attempts get {@link Outcome#RATE_LIMITED}
 * without any check until the minute is over (bcrypt is slow on purpose; this keeps guessing and
 * CPU exhaustion out).
 *
 * <p>Thread-safe.
 */
final class SmtpAuthenticator {
  private static final Logger log = LoggerFactory.getLogger(SmtpAuthenticator.class);

  /** Failed attempts one address may make per minute. */
  static final int FAILURES_PER_MINUTE = 5;

  /** What an attempt gave. */
  enum Outcome {
    /** Taken without a check ({@link SmtpAuth.Mode#ACCEPT_ANY}). */
    ACCEPTED,
    /** The user and password match the credentials file. */
    VERIFIED,
    /** They do not. */
    REJECTED,
    /** Too many failures from this address; nothing was checked. */
    RATE_LIMITED
  }

  private final SmtpAuth auth;
  private final Cache<InetAddress, AtomicInteger> failures =
      Caffeine.newBuilder()
          .expireAfterWrite(Duration.ofMinutes(1))
          .maximumSize(MessageRateFilter.MAX_ADDRESSES)
          .build();
  private final byte[] dummyHash;
  private volatile Credentials credentials;
  private final Counter accepted;
  private final Counter verified;

  private static Counter passed(MeterRegistry registry, String outcome) {
    return Counter.builder("burnbox.smtp.auth")
        .description("SMTP AUTHs that passed: accepted without a check, or verified")
        .tag("outcome", outcome)
        .register(registry);
  }

  /** The user name to hash of one version of the file. */
  private record Credentials(FileTime modified, Map<String, byte[]> hashes) {}

  /**
   * @param registry where {@code burnbox.smtp.auth{outcome}} counts the AUTHs that passed ({@code
   *     accepted}, {@code verified}); those that did not are refusals
   * @throws IllegalArgumentException if the credentials file cannot be read: a setting the intake
   *     cannot use, the message beginning with {@code --smtp-auth}
   */
  SmtpAuthenticator(SmtpAuth auth, MeterRegistry registry) {
    this.auth = auth;
    this.accepted = passed(registry, "accepted");
    this.verified = passed(registry, "verified");
    if (auth.mode() == SmtpAuth.Mode.CREDENTIALS) {
      byte[] password = new byte[16];
      new SecureRandom().nextBytes(password);
      this.dummyHash = BCrypt.withDefaults().hash(10, password);
      try {
        this.credentials = read();
      } catch (IOException e) {
        throw OptionErrors.unreadable("--smtp-auth", auth.credentials(), e);
      }
    } else {
      this.dummyHash = null;
    }
  }

  /** Whether AUTH is offered at all. */
  boolean enabled() {
    return auth.mode() != SmtpAuth.Mode.OFF;
  }

  /** Checks {@code user} and {@code password} from {@code client}. */
  Outcome check(InetAddress client, String user, String password) {
    if (auth.mode() == SmtpAuth.Mode.ACCEPT_ANY) {
      accepted.increment();
      return Outcome.ACCEPTED;
    }
    AtomicInteger failed = failures.getIfPresent(client);
    if (failed != null && failed.get() >= FAILURES_PER_MINUTE) {
      return Outcome.RATE_LIMITED;
    }
    byte[] hash = current().hashes().get(user);
    boolean matches;
    try {
      matches =
          BCrypt.verifyer()
              .verify(password.getBytes(StandardCharsets.UTF_8), hash != null ? hash : dummyHash)
              .verified;
    } catch (IllegalArgumentException tooLong) { // bcrypt reads at most 72 bytes of a password
      matches = false;
    }
    if (matches && hash != null) {
      verified.increment();
      return Outcome.VERIFIED;
    }
    failures.get(client, a -> new AtomicInteger()).incrementAndGet();
    return Outcome.REJECTED;
  }

  /** The credentials, read again if the file changed; the old ones if it cannot be read. */
  private Credentials current() {
    Credentials known = credentials;
    try {
      if (!Files.getLastModifiedTime(auth.credentials()).equals(known.modified())) {
        synchronized (this) {
          if (credentials == known) {
            credentials = read();
            log.info(
                "SMTP AUTH: read {} users from {}",
                credentials.hashes().size(),
                auth.credentials());
          }
        }
      }
    } catch (IOException e) {
      log.warn("SMTP AUTH: keeping the previous credentials: {}", e.toString());
    }
    return credentials;
  }

  private Credentials read() throws IOException {
    FileTime modified = Files.getLastModifiedTime(auth.credentials());
    List<String> lines = Files.readAllLines(auth.credentials(), StandardCharsets.UTF_8);
    Map<String, byte[]> hashes = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int colon = line.indexOf(':');
      String hash = colon < 0 ? "" : line.substring(colon + 1);
      if (colon < 1 || !hash.matches("\\$2[aby]\\$\\d\\d\\$[./A-Za-z0-9]{53}")) {
        log.warn(
            "SMTP AUTH: {}:{}: skipped, not user:bcrypt-hash (htpasswd -B)",
            auth.credentials(),
            i + 1);
        continue;
      }
      hashes.put(line.substring(0, colon), hash.getBytes(StandardCharsets.US_ASCII));
    }
    return new Credentials(modified, Map.copyOf(hashes));
  }
}
