package dev.burnbox.server.smtp;

/** Which threads run SMTP sessions: one thread per connection either way. */
public enum ThreadModel {
  /** One virtual thread per connection (default): cheap to park, scales to many idle clients. */
  VIRTUAL,
  /** One platform thread per connection from a cached pool bounded by the connection limit. */
  PLATFORM
}
