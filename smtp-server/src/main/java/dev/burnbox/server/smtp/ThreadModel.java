package dev.burnbox.server.smtp;

/**
 * Which threads run SMTP sessions: one thread per connection ({@link #VIRTUAL}, {@link #PLATFORM}),
 * or a fixed pool ({@link #POOL}) where a connection waits for a free thread.
 */
public enum ThreadModel {
  /** One virtual thread per connection (default): cheap to park, scales to many idle clients. */
  VIRTUAL,
  /** One platform thread per connection from a cached pool bounded by the connection limit. */
  PLATFORM,
  /**
   * A fixed pool of {@link IntakeSettings#poolThreads()} platform threads; connections beyond it
   * wait, without a greeting, until a session ends. For comparison in the load bench.
   */
  POOL
}
