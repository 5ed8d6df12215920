package dev.burnbox.mailstore;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A bounded pool of native (de)compression contexts, which are not thread-safe themselves: a caller
 * {@link #take takes} one for the length of a call and {@link #give gives} it back. Never blocks:
 * when the pool is empty a new context is made, and when it is full a returned one is closed, so at
 * most {@code capacity} contexts stay alive between calls (capacity 0: one context per call).
 * Thread-safe; suits virtual threads (no thread-locals, no pinning while waiting).
 *
 * @param <T> the context type
 */
final class ContextPool<T extends AutoCloseable> {
  private final Supplier<T> factory;
  private final Consumer<T> reset;
  private final ArrayBlockingQueue<T> idle;

  /**
   * A pool keeping up to {@code capacity} idle contexts made by {@code factory}; {@code reset} runs
   * on each context given back, before it is kept or closed, and must drop any reference the
   * context holds to a dictionary.
   *
   * @throws IllegalArgumentException if {@code capacity} is negative
   */
  ContextPool(int capacity, Supplier<T> factory, Consumer<T> reset) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + capacity);
    }
    this.factory = factory;
    this.reset = reset;
    this.idle = capacity == 0 ? null : new ArrayBlockingQueue<>(capacity);
  }

  /** An idle context, or a new one. */
  T take() {
    T context = idle == null ? null : idle.poll();
    return context != null ? context : factory.get();
  }

  /** Gives back a context taken from this pool; the caller must not use it afterwards. */
  void give(T context) {
    reset.accept(context);
    if (idle == null || !idle.offer(context)) {
      try {
        context.close();
      } catch (Exception e) {
        throw new IllegalStateException("cannot close a compression context", e);
      }
    }
  }
}
