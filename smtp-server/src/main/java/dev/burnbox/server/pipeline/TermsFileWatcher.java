package dev.burnbox.server.pipeline;

import dev.burnbox.server.config.OptionErrors;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reloads a {@link SpamScanner}'s term list whenever its file changes, so an operator can edit the
 * list without a restart. Editors write files in several steps, so changes are debounced: the
 * reload happens once the file has been quiet for a short while. A file that cannot be read or
 * parsed keeps the old list in place and is logged with the reason.
 *
 * <p>One virtual thread watches the file's directory until {@link #close()}. Thread-safe.
 */
public final class TermsFileWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TermsFileWatcher.class);

  private final SpamScanner scanner;
  private final Path file;
  private final Duration quietPeriod;
  private final WatchService watcher;
  private final Thread thread;

  /**
   * Starts watching {@code file} and reloading {@code scanner} from it.
   *
   * @param quietPeriod how long the file must be unchanged before it is reloaded
   * @throws IOException if the file's directory cannot be watched
   */
  public TermsFileWatcher(SpamScanner scanner, Path file, Duration quietPeriod) throws IOException {
    this.scanner = Objects.requireNonNull(scanner, "scanner");
    this.file = file.toAbsolutePath().normalize();
    this.quietPeriod = Objects.requireNonNull(quietPeriod, "quietPeriod");
    this.watcher = FileSystems.getDefault().newWatchService();
    this.file
        .getParent()
        .register(
            watcher,
            StandardWatchEventKinds.ENTRY_CREATE,
            StandardWatchEventKinds.ENTRY_MODIFY,
            StandardWatchEventKinds.ENTRY_DELETE);
    this.thread = Thread.ofVirtual().name("terms-watcher").start(this::watch);
  }

  /**
   * Reloads the list now, logging the outcome.
   *
   * @return true if the new list is in use
   */
  public boolean reloadNow() {
    try {
      int terms = scanner.reload(file);
      log.info("reloaded {} spam terms from {}", terms, file);
      return true;
    } catch (IOException e) {
      log.warn("kept the previous spam terms: cannot use {}: {}", file, OptionErrors.why(e));
      return false;
    } catch (IllegalArgumentException e) { // not a valid model: the message names file and line
      log.warn("kept the previous spam terms: cannot use {}: {}", file, e.getMessage());
      return false;
    } catch (RuntimeException e) { // a fault of ours: its class says more
      log.warn("kept the previous spam terms: cannot use {}", file, e);
      return false;
    }
  }

  private void watch() {
    try {
      while (true) {
        WatchKey key = watcher.take();
        boolean ours = drain(key);
        // debounce: wait until nothing about our file happens for a quiet period
        while (true) {
          WatchKey more = watcher.poll(quietPeriod.toNanos(), TimeUnit.NANOSECONDS);
          if (more == null) {
            break;
          }
          ours |= drain(more);
        }
        if (ours) {
          reloadNow();
        }
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // closed: stop watching
    }
  }

  private boolean drain(WatchKey key) {
    boolean ours = false;
    for (WatchEvent<?> event : key.pollEvents()) {
      if (event.kind() == StandardWatchEventKinds.OVERFLOW
          || file.getFileName().equals(event.context())) {
        ours = true;
      }
    }
    key.reset();
    return ours;
  }

  /** Stops watching; the scanner keeps its current list. */
  @Override
  public void close() throws IOException {
    watcher.close();
    thread.interrupt();
  }
}
