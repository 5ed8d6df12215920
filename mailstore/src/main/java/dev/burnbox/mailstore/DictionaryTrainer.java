package dev.burnbox.mailstore;

import com.github.luben.zstd.Zstd;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Trains zstd dictionaries for a {@link ZstdCodec} from a bounded reservoir of recent mail, so that
 * a store starts without a dictionary (plain zstd) and gains one once it has seen enough mail, then
 * refreshes it as mail drifts.
 *
 * <p><b>Policy.</b> Every body {@link #record recorded} adds its first {@link Policy#sampleBytes()}
 * bytes to a reservoir of the most recent samples, at most {@link Policy#reservoirBytes()} in all
 * (oldest dropped first). After {@link Policy#firstAfter()} bodies, and then every {@link
 * Policy#retrainEvery()} bodies, a dictionary of {@link Policy#dictionaryBytes()} is trained from
 * the reservoir on the training executor and added to the {@link ZstdDictionaries}, which keep
 * every dictionary for decoding. After {@link Policy#maxDictionaries()} dictionaries training stops
 * and the reservoir is released, which bounds the dictionaries' memory (see {@link
 * ZstdDictionaries}). A failed training (too few or too uniform samples) is retried after another
 * {@code firstAfter} bodies; {@link #lastFailure()} tells why it failed.
 *
 * <p><b>Memory.</b> Heap: the reservoir, at most {@code reservoirBytes} counting {@value
 * #SAMPLE_OVERHEAD} bytes per sample besides its bytes; during training a copy of the reservoir's
 * sample references and a {@code dictionaryBytes} buffer. Time: training the first 16 KiB of 1,000
 * mails (about 4.4 MB) into 448 KiB takes 0.6-0.7 s of one core on the machine of {@code
 * docs/benchmarks.md} (into 112 KiB the same), off the encoding thread if the executor is.
 *
 * <p>Thread-safe: recording takes a short lock (a copy of at most {@code sampleBytes} is made
 * before it); at most one training runs at a time.
 */
final class DictionaryTrainer {
  /**
   * When and from what dictionaries are trained.
   *
   * @param dictionaryBytes size of each dictionary (zstd advises about 100 KiB; 16 KiB at least)
   * @param firstAfter bodies seen before the first training
   * @param retrainEvery bodies seen between later trainings
   * @param reservoirBytes the most sample bytes kept (zstd advises about 100x the dictionary)
   * @param sampleBytes the most bytes kept from one body (its start: headers and first part)
   * @param maxDictionaries trainings after which training stops for good
   */
  record Policy(
      int dictionaryBytes,
      int firstAfter,
      int retrainEvery,
      int reservoirBytes,
      int sampleBytes,
      int maxDictionaries) {

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException if a size or count is not positive, or the dictionary is
     *     under 1 KiB
     */
    Policy {
      if (dictionaryBytes < 1024
          || firstAfter < 1
          || retrainEvery < 1
          || reservoirBytes < 1
          || sampleBytes < 1
          || maxDictionaries < 1) {
        throw new IllegalArgumentException("invalid dictionary training policy: " + this);
      }
    }

    /**
     * The measured choice ({@code docs/benchmarks.md}): 448 KiB dictionaries (112 KiB until
     * 2026-11-26: 448 stores 6% fewer message bytes of unseen mail and 19% of the store bench's
     * workload), first after 1,000 bodies, then every 100,000; an 8 MiB reservoir of 16 KiB
     * samples; at most 16 dictionaries.
     */
    static Policy defaults() {
      return new Policy(448 << 10, 1_000, 100_000, 8 << 20, 16 << 10, 16);
    }

    /**
     * The defaults scaled to a store of {@code maxBytes}: a reservoir of at most an eighth of it (8
     * MiB from 64 MiB up), dictionaries of 1/16 of the reservoir (1 to 448 KiB) and samples of at
     * most a quarter of it, so that a small store keeps most of its budget for mail.
     */
    static Policy forBudget(long maxBytes) {
      Policy d = defaults();
      int reservoir = (int) Math.max(1, Math.min(d.reservoirBytes(), maxBytes / 8));
      int dictionary = Math.clamp(reservoir / 16, 1024, d.dictionaryBytes());
      int sample = Math.max(1, Math.min(d.sampleBytes(), reservoir / 4));
      return new Policy(
          dictionary, d.firstAfter(), d.retrainEvery(), reservoir, sample, d.maxDictionaries());
    }
  }

  /** Heap per sample besides its bytes: array header and the deque's slot, rounded up. */
  static final int SAMPLE_OVERHEAD = 24;

  private final Policy policy;
  private final ZstdDictionaries dictionaries;
  private final Executor executor;
  private final ArrayDeque<byte[]> reservoir = new ArrayDeque<>();
  private long reservoirBytes;
  private long seen;
  private long nextTrainingAt;
  private boolean training;
  private volatile boolean done;
  private volatile String lastFailure;

  /**
   * A trainer adding to {@code dictionaries}, training on {@code executor} (e.g. a virtual thread
   * per task; {@code Runnable::run} trains on the encoding thread that crosses the threshold).
   */
  DictionaryTrainer(Policy policy, ZstdDictionaries dictionaries, Executor executor) {
    this.policy = policy;
    this.dictionaries = dictionaries;
    this.executor = executor;
    this.nextTrainingAt = policy.firstAfter();
  }

  /** Records one body just stored; may start a training. Keeps no reference to {@code raw}. */
  void record(byte[] raw) {
    if (done) {
      return;
    }
    byte[] sample = Arrays.copyOf(raw, Math.min(raw.length, policy.sampleBytes()));
    byte[][] toTrain = null;
    synchronized (this) {
      if (done) {
        return;
      }
      if (sample.length > 0) {
        reservoir.addLast(sample);
        reservoirBytes += SAMPLE_OVERHEAD + sample.length;
        while (reservoirBytes > policy.reservoirBytes()) {
          reservoirBytes -= SAMPLE_OVERHEAD + reservoir.removeFirst().length;
        }
      }
      seen++;
      if (!training && seen >= nextTrainingAt) {
        training = true;
        toTrain = reservoir.toArray(new byte[0][]);
      }
    }
    if (toTrain != null) {
      byte[][] samples = toTrain;
      try {
        executor.execute(() -> train(samples));
      } catch (RejectedExecutionException e) {
        finished("training executor rejected the task: " + e.getMessage());
      }
    }
  }

  private void train(byte[][] samples) {
    String failure = null;
    try {
      byte[] buffer = new byte[policy.dictionaryBytes()];
      long size = Zstd.trainFromBuffer(samples, buffer, false);
      if (Zstd.isError(size)) {
        failure = "zstd could not train a dictionary: " + Zstd.getErrorName(size);
      } else {
        dictionaries.add(Arrays.copyOf(buffer, (int) size));
      }
    } catch (RuntimeException e) {
      failure = "zstd could not train a dictionary: " + e;
    }
    finished(failure);
  }

  private synchronized void finished(String failure) {
    training = false;
    if (failure != null) {
      lastFailure = failure;
      nextTrainingAt = seen + policy.firstAfter();
    } else {
      nextTrainingAt = seen + policy.retrainEvery();
    }
    if (dictionaries.count() >= policy.maxDictionaries()) {
      done = true;
      reservoir.clear();
      reservoirBytes = 0;
    }
  }

  /** Why the last training failed, or null if none has. */
  String lastFailure() {
    return lastFailure;
  }

  /**
   * Heap reserved for the reservoir: {@link Policy#reservoirBytes()} until training stops for good,
   * then 0. The reservoir fills up to it, so a store counts the whole of it from the start.
   */
  long retainedBytes() {
    return done ? 0 : policy.reservoirBytes();
  }

  /** Heap the samples hold now, {@value #SAMPLE_OVERHEAD} bytes per sample included. */
  synchronized long reservoirBytes() {
    return reservoirBytes;
  }
}
