package dev.burnbox.server.pipeline;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.util.Locale;
import java.util.Objects;

/**
 * Mailinator's subject flood ban: when about {@code --subject-flood-count} messages with the same
 * subject arrive within {@code --subject-flood-window}, that subject is banned for {@code
 * --subject-flood-ban} (see {@link PipelineSettings}). Everything is in memory and ages out:
 * subjects not seen for a window are forgotten, bans lift by themselves.
 *
 * <p>Subjects are compared after trimming, collapsing white space and lower-casing ({@link
 * Locale#ROOT}), by their first {@value #KEY_CHARS} chars so compared; empty subjects are never
 * counted. Counting uses fixed windows that start at a subject's first sighting, so a burst
 * straddling two windows may need up to twice the count messages to trip the ban: "about N", as
 * Mailinator put it, in exchange for one counter per subject.
 *
 * <p>Memory is bounded: at most {@value #MAX_TRACKED_SUBJECTS} subjects are counted and {@value
 * #MAX_BANNED_SUBJECTS} banned at once (the least recently used are forgotten first), each kept as
 * at most {@value #KEY_CHARS} chars, so neither a flood of random subjects nor one of subjects as
 * long as a message can exhaust the heap. Thread-safe.
 */
public final class SubjectFloodFilter {
  /** The most subjects counted at once. */
  public static final int MAX_TRACKED_SUBJECTS = 100_000;

  /** The most subjects banned at once. */
  public static final int MAX_BANNED_SUBJECTS = 10_000;

  /**
   * The chars of a normalised subject compared and kept: subjects that agree in them count as one.
   * A subject may be as long as a message (its header folded over many lines), and kept whole a
   * flood of such subjects would hold gigabytes.
   */
  public static final int KEY_CHARS = 256;

  private final int count;
  private final long windowNanos;
  private final Ticker ticker;
  private final Cache<String, Window> windows;
  private final Cache<String, Boolean> banned;

  /** One subject's current counting window. Guarded by its own monitor. */
  private static final class Window {
    long startNanos;
    int seen;

    Window(long startNanos) {
      this.startNanos = startNanos;
    }
  }

  /** A filter with the subject flood options of {@code settings}, on the system clock. */
  public SubjectFloodFilter(PipelineSettings settings) {
    this(settings, Ticker.systemTicker());
  }

  /** A filter on {@code ticker}'s clock (tests pass a fake). */
  public SubjectFloodFilter(PipelineSettings settings, Ticker ticker) {
    this.count = settings.subjectFloodCount();
    this.windowNanos = settings.subjectFloodWindow().toNanos();
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.windows =
        Caffeine.newBuilder()
            .ticker(ticker)
            .expireAfterAccess(settings.subjectFloodWindow())
            .maximumSize(MAX_TRACKED_SUBJECTS)
            .build();
    this.banned =
        Caffeine.newBuilder()
            .ticker(ticker)
            .expireAfterWrite(settings.subjectFloodBan())
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
      if (now - window.startNanos >= windowNanos) {
        window.startNanos = now;
        window.seen = 0;
      }
      window.seen++;
      trip = window.seen >= count;
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

  /**
   * {@code subject} trimmed ({@link String#strip}), each run of white space inside ({@code \\s}:
   * space, tab, line feed, vertical tab, form feed, carriage return) made one space, cut to {@value
   * #KEY_CHARS} chars, stripped again (a cut may end in a space) and lower-cased. Reads no further
   * into the subject than the cut.
   */
  static String normalize(String subject) {
    int i = 0;
    while (i < subject.length() && Character.isWhitespace(subject.charAt(i))) {
      i++;
    }
    StringBuilder key = new StringBuilder(Math.min(subject.length() - i, KEY_CHARS));
    boolean space = false;
    for (; i < subject.length() && key.length() < KEY_CHARS; i++) {
      char c = subject.charAt(i);
      if (isWhiteSpace(c)) {
        space = true;
        continue;
      }
      if (space) {
        key.append(' ');
        space = false;
        if (key.length() == KEY_CHARS) {
          break;
        }
      }
      key.append(c);
    }
    return key.toString().strip().toLowerCase(Locale.ROOT);
  }

  private static boolean isWhiteSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
  }
}
