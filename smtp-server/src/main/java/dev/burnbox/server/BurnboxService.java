package dev.burnbox.server;

import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.StoreSnapshot;
import dev.burnbox.mailstore.StoreUnavailableException;
import dev.burnbox.server.config.OptionErrors;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.pipeline.IntakePipeline;
import dev.burnbox.server.pipeline.PipelineSettings;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.server.pipeline.SubjectFloodFilter;
import dev.burnbox.server.pipeline.TermsFileWatcher;
import dev.burnbox.server.smtp.SmtpIntake;
import dev.burnbox.server.web.StoreMetrics;
import dev.burnbox.server.web.WebServer;
import dev.burnbox.server.web.Webhooks;
import dev.burnbox.wordlists.SpamModel;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole service in one JVM: SMTP intake, the decode-and-scan pipeline, the in-memory inbox
 * store and the web server, wired top to bottom as the mail flows (socket, session, message,
 * decode, scan, store, web). While the rest of it leaves the CPU idle, one more thread re-encodes
 * stored mail in its smaller form at rest ({@link StoreSettler}).
 *
 * <p>{@link #start} binds both ports (and the metrics port, if the settings give one) while the
 * spam model is compiled on another thread, returns once the model is ready (a mail that comes in
 * before is answered once it is scored) and logs {@code listening smtp=PORT http=PORT} (followed by
 * {@code metrics=PORT}); {@code /healthz} answers 503 until then and 200 from then on, so its first
 * 200 means mail is taken. {@link #close} first turns {@code /healthz} back to 503, then stops
 * taking connections, lets sessions in flight finish within the shutdown grace, then stops the web
 * server. Start and close from one thread; everything else is thread-safe.
 */
public final class BurnboxService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BurnboxService.class);

  private final ServiceSettings settings;
  private final PrometheusMeterRegistry registry;
  private final InboxStore store;
  private final StoreMetrics storeMetrics; // held: the registry's counters hold it only weakly
  private final StoreSettler settler; // null: no recompression at rest
  private final SpamScanner scanner;
  private final Webhooks webhooks;
  private final SmtpIntake intake;
  private final WebServer web;
  private TermsFileWatcher termsWatcher;
  private boolean closed;
  private volatile boolean snapshotSaveFailed;

  private BurnboxService(ServiceSettings settings) throws IOException {
    this.settings = settings;
    warnIfTheLimitsPassTheHeap(settings);
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);

    this.store = openStore(settings);
    this.storeMetrics = new StoreMetrics(store);
    storeMetrics.bindTo(registry);
    StoreSettings storeSettings = settings.store();
    this.settler =
        storeSettings.noIdleRecompression()
                || storeSettings.store() != StoreSettings.StoreKind.MEMORY
            ? null
            : new StoreSettler(store, registry);

    PipelineSettings pipeline = settings.pipeline();
    // compiled while the rest is built and the ports open; startAll waits for it
    this.scanner =
        SpamScanner.compileInBackground(
            pipeline.matcherKind(), pipeline.spamThreshold(), pipeline.terms());
    SubjectFloodFilter floodFilter =
        settings.smtp().noFilters() ? null : new SubjectFloodFilter(pipeline);
    MailDecoder decoder = new MailDecoder(settings.mime().limits());
    this.webhooks =
        new Webhooks(settings.webhooks(), store, decoder, scanner, registry, Clock.systemUTC());
    IntakePipeline intakePipeline =
        new IntakePipeline(
            decoder,
            scanner,
            pipeline.spam(),
            floodFilter,
            store,
            settings.web().privateDomains(),
            webhooks,
            registry);
    this.intake = new SmtpIntake(settings.smtp(), settings.bind(), intakePipeline, registry);
    this.web =
        new WebServer(
            settings.bind() == null ? null : settings.bind().getHostAddress(),
            settings.web().port(),
            settings.webLimits(),
            settings.web().metrics(),
            settings.web().access(),
            List.copyOf(settings.smtp().domains()),
            store,
            decoder,
            scanner,
            registry);
  }

  /**
   * The Redis store, a new memory store, or the one saved in the snapshot file. A snapshot file
   * that cannot be restored (damaged, or not a snapshot) is moved aside to {@code
   * FILE.unreadable-EPOCHSECONDS}, never overwritten, and the store starts empty. The snapshot's
   * folder is checked for writing now, not first at shutdown.
   *
   * @throws IllegalArgumentException if the snapshot cannot be written where it is configured
   * @throws IOException if an unreadable snapshot cannot be moved aside
   */
  private static InboxStore openStore(ServiceSettings settings) throws IOException {
    InboxStore.Builder builder = settings.store().builder();
    Path snapshot = settings.store().snapshot();
    if (snapshot == null) {
      return builder.build();
    }
    checkSnapshot(snapshot);
    if (!Files.exists(snapshot)) {
      return builder.build();
    }
    try {
      InboxStore restored = StoreSnapshot.restore(snapshot, builder);
      log.info("restored {} inbox entries from {}", restored.stats().messages(), snapshot);
      return restored;
    } catch (IOException e) {
      Path aside =
          snapshot.resolveSibling(
              snapshot.getFileName() + ".unreadable-" + Instant.now().getEpochSecond());
      Files.move(snapshot, aside);
      log.warn("starting with an empty store: {}; the file was moved to {}", e.getMessage(), aside);
      return builder.build();
    }
  }

  /**
   * Builds the service and starts listening on both ports.
   *
   * @throws IOException if a port cannot be bound
   * @throws IllegalArgumentException if a setting cannot be used: a file it names cannot be read
   *     (the TLS key store, the SMTP AUTH file, the term file) or written (the snapshot's folder),
   *     or the term file is not a valid model; the message begins with the option's name
   * @throws IllegalStateException if the Redis store records another partition count than this
   *     node's
   */
  public static BurnboxService start(ServiceSettings settings) throws IOException {
    Objects.requireNonNull(settings, "settings");
    BurnboxService service = new BurnboxService(settings);
    try {
      service.startAll();
    } catch (IOException | RuntimeException e) {
      try {
        service.close();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing); // the reason it did not start comes first
      }
      throw e;
    }
    return service;
  }

  /**
   * Reads the files {@code settings} name as {@link #start} does, with the same code, and does
   * nothing else (binds no port, starts no thread, connects nowhere) but log the warning {@link
   * #start} logs when the limits pass the heap ({@link MemoryPlan#warning}): the TLS key store and
   * the SMTP AUTH file ({@link SmtpIntake#check}), the snapshot's folder (checked for writing, as
   * at start), and the term file, read and compiled. Every other value was checked when the
   * settings were built, the store's limits and Redis URL by the store builder itself ({@link
   * StoreSettings}). For {@code serve --print-settings}, a check of a configuration.
   *
   * @return the spam threshold in effect: {@code --spam-threshold}, else the model's own, which
   *     only reading the model tells
   * @throws IllegalArgumentException as {@link #start} does for a setting it cannot use
   */
  public static double check(ServiceSettings settings) {
    warnIfTheLimitsPassTheHeap(settings);
    SmtpIntake.check(settings.smtp());
    if (settings.store().snapshot() != null) {
      checkSnapshot(settings.store().snapshot());
    }
    PipelineSettings pipeline = settings.pipeline();
    if (pipeline.terms() == null) {
      return pipeline.spamThreshold() != null
          ? pipeline.spamThreshold()
          : SpamModel.defaults().threshold();
    }
    try {
      return SpamScanner.fromFile(
              pipeline.matcherKind(), pipeline.spamThreshold(), pipeline.terms())
          .threshold();
    } catch (IOException | IllegalArgumentException e) {
      throw unusableTerms(pipeline.terms(), e);
    }
  }

  /** Logs {@link MemoryPlan#warning} if the limits let the service hold more than the heap. */
  private static void warnIfTheLimitsPassTheHeap(ServiceSettings settings) {
    MemoryPlan.of(settings).warning().ifPresent(log::warn);
  }

  /**
   * Checks that the snapshot can be saved to {@code snapshot} ({@link
   * StoreSnapshot#checkWritable}).
   *
   * @throws IllegalArgumentException if it cannot, naming {@code --snapshot}
   */
  private static void checkSnapshot(Path snapshot) {
    try {
      StoreSnapshot.checkWritable(snapshot);
    } catch (IOException e) {
      throw new IllegalArgumentException("--snapshot: " + e.getMessage(), e);
    }
  }

  /**
   * Why the term file {@code terms} cannot be used ({@code e}: it cannot be read, or is not a valid
   * model), naming the option.
   */
  private static IllegalArgumentException unusableTerms(Path terms, Exception e) {
    return e instanceof IOException unreadable
        ? OptionErrors.unreadable("--terms", terms, unreadable)
        : new IllegalArgumentException("--terms: " + e.getMessage(), e);
  }

  private void startAll() throws IOException {
    checkSharedStore();
    Path terms = settings.pipeline().terms();
    if (terms != null) {
      try {
        termsWatcher = new TermsFileWatcher(scanner, terms, Duration.ofMillis(500));
      } catch (IOException e) { // its folder
        throw unusableTerms(terms, e);
      }
    }
    web.health(WebServer.Health.STARTING); // until the intake listens and the model is ready
    web.start();
    intake.start();
    if (settler != null) {
      settler.start();
    }
    // a mail that came in meanwhile has been waiting for the model to be scored and answered
    try {
      scanner.awaitModel();
    } catch (IOException | IllegalArgumentException e) {
      if (terms == null) {
        throw e; // the built-in model: not a setting
      }
      throw unusableTerms(terms, e);
    }
    web.health(WebServer.Health.OK);
    log.info(
        "spam model: {} terms from {}, threshold {}, matcher {}, policy {}",
        scanner.termCount(),
        scanner.source(),
        scanner.threshold(),
        scanner.matcherKind().cliName(),
        settings.pipeline().spam().name().toLowerCase(Locale.ROOT));
    log.info(
        "listening smtp={} http={}{}",
        intake.port(),
        web.port(),
        web.metricsPort().isPresent() ? " metrics=" + web.metricsPort().getAsInt() : "");
  }

  /**
   * Refuses to start on a shared store that records other settings than this node's (the Redis
   * store's partition count), which would split the mail between the nodes; starts when the store
   * cannot be reached now, answering 451 and 503 until it can (it checks its settings then).
   *
   * @throws IllegalStateException if the settings disagree
   */
  private void checkSharedStore() {
    try {
      store.checkSharedSettings();
    } catch (StoreUnavailableException e) {
      log.warn(
          "starting without the store: {}; mail gets 451 until it answers (its partition count is"
              + " checked then)",
          e.getMessage());
    }
  }

  /** The SMTP port listened on. */
  public int smtpPort() {
    return intake.port();
  }

  /** The HTTP port listened on. */
  public int httpPort() {
    return web.port();
  }

  /** The port {@code /metrics} is served on alone, if the settings gave it one. */
  public OptionalInt metricsPort() {
    return web.metricsPort();
  }

  /** The inbox store mail is delivered to. */
  public InboxStore store() {
    return store;
  }

  /** The spam scanner: the model in use, its threshold. */
  public SpamScanner scanner() {
    return scanner;
  }

  /** The metrics registry served at {@code /metrics}. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /**
   * Reloads the spam term file now (as on SIGHUP); without a term file there is nothing to reload.
   *
   * @return true if a new list is in use
   */
  public boolean reloadTerms() {
    return termsWatcher != null && termsWatcher.reloadNow();
  }

  /**
   * Whether {@link #close} failed to write the snapshot file: the mail it held is lost, and the
   * process should say so in its exit status.
   */
  public boolean snapshotSaveFailed() {
    return snapshotSaveFailed;
  }

  /**
   * Stops taking connections, lets sessions in flight finish within the shutdown grace (then cuts
   * them), stops the web server and, with a snapshot file configured, saves the store to it.
   * Idempotent.
   */
  @Override
  public void close() {
    web.health(WebServer.Health.STOPPING);
    // each step runs even if one before it failed: a service that failed to start is closed too
    List<Runnable> steps = new ArrayList<>();
    steps.add(() -> intake.stop(settings.shutdownGrace()));
    steps.add(webhooks::close);
    steps.add(web::close);
    if (settler != null) {
      steps.add(settler::close);
    }
    steps.add(this::saveSnapshot);
    steps.add(store::close);
    if (termsWatcher != null) {
      steps.add(this::closeTermsWatcher);
    }
    steps.add(registry::close);
    RuntimeException failed = null;
    for (Runnable step : steps) {
      try {
        step.run();
      } catch (RuntimeException e) {
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    closed = true;
    if (failed != null) {
      throw failed;
    }
  }

  private void saveSnapshot() {
    Path snapshot = settings.store().snapshot();
    if (snapshot == null || closed) {
      return;
    }
    try {
      long entries = store.stats().messages();
      int saved = StoreSnapshot.save(store, snapshot);
      log.info("saved {} messages ({} inbox entries) to {}", saved, entries, snapshot);
    } catch (IOException | RuntimeException e) {
      snapshotSaveFailed = true;
      log.error("could not save the snapshot {}", snapshot, e);
    }
  }

  private void closeTermsWatcher() {
    try {
      termsWatcher.close();
    } catch (IOException e) {
      log.debug("closing the term file watcher", e);
    }
  }
}
