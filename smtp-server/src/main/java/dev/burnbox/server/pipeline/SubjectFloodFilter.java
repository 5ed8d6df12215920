package dev.burnbox.server.pipeline;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Mailinator's subject flood ban: when about {@code count} messages with the same subject arrive
 * within {@code window}, that subject is banned for {@code ban}. Everything is in memory and ages
 * out: subjects not seen for a window are forgotten, bans lift by themselves.
 *
 * <p>Subjects are compared after trimming, collapsing white space and lower-casing ({@link
 * Locale#ROOT}); empty subjects are never counted. Counting uses fixed windows that start at a
 * subject's first sighting, so a burst straddling two windows may need up to twice {@code count}
 * messages to trip the ban: "about N", as Mailinator put it, in exchange for one counter per
 * subject.
 *
 * <p>Memory is bounded: at most {@value #MAX_TRACKED_SUBJECTS} subjects are counted and {@value
 * #MAX_BANNED_SUBJECTS} banned at once (the least recently used are forgotten first), so a flood of
 * random subjects cannot exhaust the heap. Thread-safe.
 */
public final class SubjectFloodFilter {
  /** The most subjects counted at once. */
  public static final int MAX_TRACKED_SUBJECTS = 100_000;

  /** The most subjects banned at once. */
  public static final int MAX_BANNED_SUBJECTS = 10_000;

  private static final Pattern WHITE_SPACE = Pattern.compile("\\s+");

  private final Settings settings;
  private final Ticker ticker;
  private final Cache<String, Window> windows;
  private final Cache<String, Boolean> banned;

  /**
   * When a subject is banned.
   *
   * @param count messages with one subject that trip the ban; at least 2
   * @param window the time they must arrive within; positive
   * @param ban how long the subject stays banned; positive
   */
  public record Settings(int count, Duration window, Duration ban) {
    /**
     * @throws IllegalArgumentException if a value is out of range
     */
    public Settings {
      if (count < 2) {
        throw new IllegalArgumentException("subject flood count must be at least 2: " + count);
      }
      requirePositive(window, "subject flood window");
      requirePositive(ban, "subject flood ban");
    }
  }

  /** One subject's current counting window. Guarded by its own monitor. */
  private static final class Window {
    long startNanos;
    int seen;

    Window(long startNanos) {
      this.startNanos = startNanos;
    }
  }

  /** A filter on the system clock. */
  public SubjectFloodFilter(Settings settings) {
    this(settings, Ticker.systemTicker());
  }

  /** A filter on {@code ticker}'s clock (tests pass a fake). */
  public SubjectFloodFilter(Settings settings, Ticker ticker) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.windows =
        Caffeine.newBuilder()
            .ticker(ticker)
            .expireAfterAccess(settings.window())
            .maximumSize(MAX_TRACKED_SUBJECTS)
            .build();
    this.banned =
        Caffeine.newBuilder()
            .ticker(ticker)
            .expireAfterWrite(settings.ban())
            .maximumSize(MAX_BANNED_SUBJECTS)
            .build();
  }

  /**
   * Counts one message with {@code subject} and tells whether the subject is banned, either already
   * or because this message tripped the ban.
   */
  public boolean recordAndCheckBanned(String subject) {
    String key = normalize(subject);
    if (key.isEmpty()) {
      return false;
    }
    if (banned.getIfPresent(key) != null) {
      return true;
    }
    long now = ticker.read();
    Window window = windows.get(key, k -> new Window(now));
    boolean trip;
    synchronized (window) {
      if (now - window.startNanos >= settings.window().toNanos()) {
        window.startNanos = now;
        window.seen = 0;
      }
      window.seen++;
      trip = window.seen >= settings.count();
    }
    if (trip) {
      banned.put(key, Boolean.TRUE);
      windows.invalidate(key);
    }
    return trip;
  }

  /** True if {@code subject} is banned now; counts nothing. */
  public boolean isBanned(String subject) {
    String key = normalize(subject);
    return !key.isEmpty() && banned.getIfPresent(key) != null;
  }

  /** How many subjects are banned now (approximate while bans expire). */
  public long bannedCount() {
    banned.cleanUp();
    return banned.estimatedSize();
  }

  static String normalize(String subject) {
    return WHITE_SPACE.matcher(subject.strip()).replaceAll(" ").toLowerCase(Locale.ROOT);
  }

  private static void requirePositive(Duration d, String what) {
    Objects.requireNonNull(d, what);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(what + " must be positive: " + d);
    }
  }
}
