package dev.burnbox.bench.soak;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every mail attempt of a soak run and how it ended, checked against what the store serves.
 *
 * <p>An attempt stays <em>open</em> (kept with its exact bytes) until a pruning check has seen it
 * and deleted it from the store; after that only its outcome is kept, and its token appearing in
 * the store again is a violation. A {@link #check} must run while no mail is being sent, so every
 * attempt it sees has ended. Recording is thread-safe; checks are run by one thread at a time.
 */
final class Ledger {
  private static final int MAX_LISTED_VIOLATIONS = 50;
  private static final byte PRUNED = (byte) 0x80;

  private final SoakMails mails;
  private final byte[] outcomes; // by sequence: 0 = never attempted, else 1 + ordinal (| PRUNED)
  private final Map<Long, Attempt> open = new ConcurrentHashMap<>();
  private final Map<Outcome, LongAdder> counts = new EnumMap<>(Outcome.class);
  private final Map<Misbehaviour, LongAdder> behaviours = new EnumMap<>(Misbehaviour.class);
  private final Map<String, LongAdder> refusals = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> wellBehavedNotAcknowledged = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> stallReplies = new ConcurrentHashMap<>();
  private final LongAdder bdat = new LongAdder();
  private final LongAdder recipients = new LongAdder();
  private final AtomicLong unknownStored = new AtomicLong();
  private final AtomicLong unknownNotStored = new AtomicLong();
  private final AtomicLong violationCount = new AtomicLong();
  private final List<String> violations = new ArrayList<>();

  Ledger(SoakMails mails, int capacity) {
    this.mails = mails;
    this.outcomes = new byte[capacity];
    for (Outcome o : Outcome.values()) {
      counts.put(o, new LongAdder());
    }
    for (Misbehaviour m : Misbehaviour.values()) {
      behaviours.put(m, new LongAdder());
    }
  }

  /** Records an ended attempt. */
  void record(Attempt attempt) {
    outcomes[(int) attempt.sequence()] = (byte) (1 + attempt.outcome().ordinal());
    open.put(attempt.sequence(), attempt);
    counts.get(attempt.outcome()).increment();
    behaviours.get(attempt.behaviour()).increment();
    recipients.add(attempt.inboxes().size());
    if (attempt.transport().equals("BDAT")) {
      bdat.increment();
    }
    if (attempt.outcome() == Outcome.REFUSED) {
      tally(refusals, replyCodes(attempt.reply()));
    }
    if (attempt.behaviour() == Misbehaviour.NONE && attempt.outcome() != Outcome.ACKNOWLEDGED) {
      tally(wellBehavedNotAcknowledged, attempt.outcome() + " " + replyCodes(attempt.reply()));
    }
    if (attempt.behaviour().isStall()) {
      tally(stallReplies, replyCodes(attempt.reply()));
    }
  }

  /** {@code 421 4.3.2} from {@code 421 4.3.2 Service shutting down}; the code alone otherwise. */
  private static String replyCodes(String reply) {
    java.util.regex.Matcher codes =
        java.util.regex.Pattern.compile("^(\\d{3})( \\d\\.\\d{1,3}\\.\\d{1,3})?").matcher(reply);
    return codes.find() ? codes.group() : reply;
  }

  /** What one check found. */
  record CheckResult(int attempts, int storedEntries, int newViolations, long evictions) {}

  /**
   * Reads every message in {@code inboxes} through the API and checks it against the open attempts
   * (see the class comment); with {@code prune}, then deletes every message it read and closes the
   * open attempts. Also checks that nothing was evicted, and after pruning that the store is empty
   * (so no mail went to an inbox the soak does not read).
   */
  CheckResult check(InboxApiClient api, List<String> inboxes, boolean prune) throws IOException {
    Map<Long, List<String>> foundIn = new ConcurrentHashMap<>();
    List<String> readIds = java.util.Collections.synchronizedList(new ArrayList<>());
    long before = violationCount.get();
    try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
      List<Future<?>> reads = new ArrayList<>();
      for (String inbox : inboxes) {
        reads.add(
            pool.submit(
                () -> {
                  for (String id : api.ids(inbox)) {
                    readIds.add(id);
                    checkStored(api, inbox, id, foundIn);
                  }
                  return null;
                }));
      }
      for (Future<?> read : reads) {
        read.get();
      }
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IOException("reading the store back failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    int attempts = open.size();
    for (Attempt attempt : open.values()) {
      Set<String> found = new HashSet<>(foundIn.getOrDefault(attempt.sequence(), List.of()));
      switch (attempt.outcome()) {
        case ACKNOWLEDGED -> {
          for (String inbox : attempt.inboxes()) {
            if (!found.contains(inbox)) {
              violation("acknowledged but missing from inbox " + inbox + ": " + attempt);
            }
          }
        }
        case UNKNOWN -> {
          if (!found.isEmpty() && !found.containsAll(attempt.inboxes())) {
            violation("partly stored (only in " + found + "): " + attempt);
          }
          if (prune) {
            (found.isEmpty() ? unknownNotStored : unknownStored).incrementAndGet();
          }
        }
        default -> {} // a stored one was reported as it was read
      }
    }
    JsonNode stats = api.stats();
    long evictions = 0;
    for (JsonNode n : stats.path("evictions")) {
      evictions += n.asLong();
    }
    if (evictions > 0) {
      violation(
          "the store evicted "
              + stats.path("evictions")
              + ": the run is not conclusive (raise the store size or the inbox cap)");
    }
    if (prune) {
      for (String id : readIds) {
        api.delete(id);
      }
      for (Long sequence : open.keySet()) {
        outcomes[sequence.intValue()] |= PRUNED;
      }
      open.clear();
      long left = api.stats().path("messages").asLong();
      if (left != 0) {
        violation("after deleting every message read, the store still holds " + left);
      }
    }
    return new CheckResult(
        attempts, readIds.size(), (int) (violationCount.get() - before), evictions);
  }

  private void checkStored(
      InboxApiClient api, String inbox, String id, Map<Long, List<String>> foundIn)
      throws IOException {
    byte[] raw = api.raw(id);
    if (raw == null) {
      violation("listed in " + inbox + " but its raw source is 404: " + id);
      return;
    }
    String token = SoakMails.tokenIn(raw);
    long sequence = token == null ? -1 : mails.sequence(token);
    if (sequence < 0 || sequence >= outcomes.length) {
      violation("a message in " + inbox + " that the soak never sent: " + id + " token " + token);
      return;
    }
    Attempt attempt = open.get(sequence);
    if (attempt == null) {
      byte outcome = outcomes[(int) sequence];
      violation(
          (outcome == 0
                  ? "stored but never attempted: "
                  : "came back after it was checked and deleted: ")
              + token
              + " in "
              + inbox);
      return;
    }
    List<String> inboxes = foundIn.computeIfAbsent(sequence, s -> new ArrayList<>());
    synchronized (inboxes) {
      if (inboxes.contains(inbox)) {
        violation("stored twice in " + inbox + ": " + attempt);
      }
      inboxes.add(inbox);
    }
    switch (attempt.outcome()) {
      case REFUSED, INTERRUPTED -> violation("stored in " + inbox + " although " + attempt);
      default -> {
        if (!attempt.inboxes().contains(inbox)) {
          violation("stored in " + inbox + ", which it was not sent to: " + attempt);
        } else if (!Arrays.equals(asSent(raw, attempt), attempt.raw())) {
          byte[] asSent = asSent(raw, attempt);
          violation(
              "stored bytes differ from the bytes sent (first difference at byte "
                  + Arrays.mismatch(asSent, attempt.raw())
                  + ", stored "
                  + asSent.length
                  + " bytes) in "
                  + inbox
                  + ": "
                  + attempt);
        }
      }
    }
  }

  /**
   * {@code stored} without the service's {@code Received:} trace field in front, when there is one:
   * its last {@code sentLength} bytes if what comes before them is one such field (it starts with
   * {@code Received: } and holds no empty line), else {@code stored} as it is.
   */
  private static byte[] asSent(byte[] stored, Attempt attempt) {
    return withoutTraceField(stored, attempt.raw().length);
  }

  static byte[] withoutTraceField(byte[] stored, int sentLength) {
    int fieldLength = stored.length - sentLength;
    if (fieldLength <= 0) {
      return stored;
    }
    String field = new String(stored, 0, fieldLength, StandardCharsets.ISO_8859_1);
    boolean oneField =
        field.startsWith("Received: ") && field.endsWith("\r\n") && !field.contains("\r\n\r\n");
    return oneField ? Arrays.copyOfRange(stored, fieldLength, stored.length) : stored;
  }

  /** Records a broken promise found outside a check (a server that did not stop cleanly). */
  synchronized void violation(String what) {
    violationCount.incrementAndGet();
    if (violations.size() < MAX_LISTED_VIOLATIONS) {
      violations.add(what);
    }
    System.err.println("VIOLATION: " + what);
  }

  long count(Outcome outcome) {
    return counts.get(outcome).sum();
  }

  long count(Misbehaviour behaviour) {
    return behaviours.get(behaviour).sum();
  }

  long attempts() {
    long total = 0;
    for (LongAdder n : counts.values()) {
      total += n.sum();
    }
    return total;
  }

  private static void tally(Map<String, LongAdder> tallies, String key) {
    tallies.computeIfAbsent(key, k -> new LongAdder()).increment();
  }

  private static Map<String, Long> sums(Map<String, LongAdder> tallies) {
    Map<String, Long> counted = new java.util.TreeMap<>();
    tallies.forEach((key, n) -> counted.put(key, n.sum()));
    return counted;
  }

  /** REFUSED attempts by reply code and enhanced status code. */
  Map<String, Long> refusals() {
    return sums(refusals);
  }

  /**
   * Attempts of well-behaved clients that did not end in 250 (restarts, timeouts), by outcome and
   * the last reply's codes.
   */
  Map<String, Long> wellBehavedNotAcknowledged() {
    return sums(wellBehavedNotAcknowledged);
  }

  /** What stalling clients read after their stall, by reply codes (or what ended the wait). */
  Map<String, Long> stallReplies() {
    return sums(stallReplies);
  }

  long bdatAttempts() {
    return bdat.sum();
  }

  long recipients() {
    return recipients.sum();
  }

  /** UNKNOWN attempts found stored, counted when a pruning check closed them. */
  long unknownStored() {
    return unknownStored.get();
  }

  /** UNKNOWN attempts found not stored, counted when a pruning check closed them. */
  long unknownNotStored() {
    return unknownNotStored.get();
  }

  long violationCount() {
    return violationCount.get();
  }

  /** The first violations, in the order found. */
  synchronized List<String> violations() {
    return List.copyOf(violations);
  }
}
