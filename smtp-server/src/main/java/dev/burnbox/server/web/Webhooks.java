package dev.burnbox.server.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.StoredMessage;
import dev.burnbox.mailstore.UrlPasswords;
import dev.burnbox.server.config.BurnboxVersion;
import dev.burnbox.server.config.OptionRecord;
import dev.burnbox.server.config.OptionValues;
import dev.burnbox.server.config.WhenUnset;
import dev.burnbox.server.mime.DecodedMail;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.mime.MailLinks;
import dev.burnbox.server.mime.VerificationCodes;
import dev.burnbox.server.pipeline.DeliveryListener;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.server.smtp.Envelope;
import dev.burnbox.server.smtp.LogWindow;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * Posts a JSON summary of each message this node delivered to every {@code --webhook} whose scope
 * covers the recipient address: one post per inbox copy and URL, with the fields of an inbox
 * listing entry plus {@code address} (the recipient it was sent to) and {@code links} (as {@code
 * /api/v1/messages/{id}/links} lists them) and {@code codes} (as {@code
 * /api/v1/messages/{id}/codes} lists them).
 *
 * <p>Guarantees: {@link #delivered} runs on the SMTP session's thread and only counts and starts a
 * virtual thread, so a slow, failing or silent receiver never slows SMTP. At most {@code queue}
 * posts are held at once (waiting, in flight, or waiting to be retried); beyond that new ones are
 * dropped, counted ({@code burnbox_webhook_posts_total{outcome="dropped"}}) and logged at most once
 * a minute. A post that gets no 2xx within the timeout is retried after 1, 2, 4 ... seconds (at
 * most 5 minutes apart, ±10% jitter) until the retry period is over, then given up and counted.
 * Each attempt carries the same {@code X-Burnbox-Delivery} id (receivers deduplicate by it) and,
 * with a secret, a fresh {@code X-Burnbox-Signature: t=SECONDS,v1=HEX}: HMAC-SHA256 of {@code t +
 * "." + body}, so a receiver can reject replays older than it likes. At most {@value #PER_URL}
 * posts are in flight to one URL at once. Posts still held at {@link #close} are lost. A copy's
 * JSON is built once, at its first attempt to any URL, from the store: a message evicted before
 * then is posted with no links and no codes.
 *
 * <p>Thread-safe.
 */
public final class Webhooks implements DeliveryListener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Webhooks.class);

  /** Posts in flight to one URL at once. */
  static final int PER_URL = 8;

  private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
  private static final Duration LONGEST_RETRY = Duration.ofMinutes(5);

  /**
   * The webhooks' settings: each component is an option of {@code burnbox serve}, declared here
   * once (see {@link OptionRecord}); make them with {@link #of}. Guarantees, checked at
   * construction: the timeout is positive, the retry period not negative, the queue at least 1. The
   * secret (the HMAC key; null sends unsigned posts) is never shown by {@link #toString()}.
   */
  public record Settings(
      @Option(
              names = "--webhook",
              paramLabel = "[SCOPE=]URL",
              split = "\\s+",
              hideParamSyntax = true, // the usage line shows the label, not the split pattern
              description =
                  "POST a JSON summary of each message delivered (id, inbox, address, sender, subject,"
                      + " time, spam verdict, links, one-time codes) to URL; repeatable (whitespace-separated in the"
                      + " variable). SCOPE limits it to a domain (`ci.example.test=https://...`) or an"
                      + " address glob (`signup-*@example.test=https://...`); see [Webhooks](#webhooks)")
          @WhenUnset("none")
          List<WebhookTarget> targets,
      @Option(
              names = "--webhook-secret",
              paramLabel = "SECRET",
              description =
                  "key of the HMAC-SHA256 signature sent with each post (`X-Burnbox-Signature:"
                      + " t=UNIX-SECONDS,v1=HEX` over `t.BODY`)")
          @WhenUnset("posts are not signed")
          String secret,
      @Option(
              names = "--webhook-retry-for",
              paramLabel = "DURATION",
              defaultValue = "10m",
              converter = OptionValues.Durations.class,
              description =
                  "how long a post that fails (no answer within `--webhook-timeout`, or not 2xx) is"
                      + " retried, with exponential backoff from 1 s to 5 min, before it is given up")
          Duration retryFor,
      @Option(
              names = "--webhook-timeout",
              paramLabel = "DURATION",
              defaultValue = "10s",
              converter = OptionValues.Durations.class,
              description = "time a receiver has to answer one post")
          Duration timeout,
      @Option(
              names = "--webhook-queue",
              paramLabel = "N",
              defaultValue = "1000",
              description =
                  "posts held at once (waiting, in flight or to be retried), for all URLs together; when"
                      + " full, new ones are dropped and counted, never slowing SMTP")
          int queue) {
    /**
     * @throws IllegalArgumentException if a value is out of range
     */
    public Settings {
      targets = targets == null ? List.of() : targets.stream().filter(Objects::nonNull).toList();
      if (retryFor.isNegative() || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException(
            "--webhook-timeout must be positive, --webhook-retry-for not negative");
      }
      if (queue < 1) {
        throw new IllegalArgumentException("--webhook-queue must be at least 1: " + queue);
      }
    }

    /**
     * These options given, every other at its default.
     *
     * @throws IllegalArgumentException if an option is unknown or a value invalid
     */
    public static Settings of(String... options) {
      return OptionRecord.parse(Settings.class, options);
    }

    /** Hides the secret. */
    @Override
    public String toString() {
      return OptionRecord.describe(this);
    }
  }

  private record Target(WebhookTarget target, Semaphore inFlight) {}

  /**
   * One delivered copy to post: its JSON is built once, on the first attempt to any URL, and shared
   * by the posts of every URL that covers it.
   */
  private final class Copy {
    final MessageId id;
    final String address;
    final long deliveredNanos;
    private byte[] body;

    Copy(MessageId id, String address, long deliveredNanos) {
      this.id = id;
      this.address = address;
      this.deliveredNanos = deliveredNanos;
    }

    synchronized byte[] body() throws JsonProcessingException {
      if (body == null) {
        body = json(this);
      }
      return body;
    }
  }

  /** One post: a copy to one URL, through its retries. */
  private record Post(Target target, Copy copy, String deliveryId, AtomicInteger attempts) {
    Post(Target target, Copy copy) {
      this(target, copy, UUID.randomUUID().toString(), new AtomicInteger());
    }
  }

  private final Settings settings;
  private final byte[] secret; // the HMAC key, or null
  private final List<Target> targets;
  private final InboxStore store;
  private final MailDecoder decoder;
  private final SpamScanner scanner;
  private final ObjectMapper json = new ObjectMapper();
  private final Clock clock;
  private final HttpClient http; // null without targets: its default trust store costs a start
  private final ExecutorService posting = Executors.newVirtualThreadPerTaskExecutor();
  private final ScheduledExecutorService retrying =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("webhook-retries").daemon().factory());
  private final AtomicInteger held = new AtomicInteger();
  private final LogWindow droppedLog = new LogWindow(60);
  private final LogWindow failedLog = new LogWindow(60);

  /** Give-ups have a window of their own, so that no stream of retry lines hides one. */
  private final LogWindow gaveUpLog = new LogWindow(60);

  private final Counter sent;
  private final Counter retried;
  private final Counter gaveUp;
  private final Counter dropped;
  private final Timer latency;

  /**
   * @param clock the wall clock of the signatures' timestamps
   */
  public Webhooks(
      Settings settings,
      InboxStore store,
      MailDecoder decoder,
      SpamScanner scanner,
      MeterRegistry registry,
      Clock clock) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.secret =
        settings.secret() == null || settings.secret().isEmpty()
            ? null
            : settings.secret().getBytes(StandardCharsets.UTF_8);
    this.targets =
        settings.targets().stream().map(t -> new Target(t, new Semaphore(PER_URL))).toList();
    this.store = Objects.requireNonNull(store, "store");
    this.decoder = Objects.requireNonNull(decoder, "decoder");
    this.scanner = Objects.requireNonNull(scanner, "scanner");
    this.clock = Objects.requireNonNull(clock, "clock");
    // without a URL nothing is posted: no client, whose TLS set-up (the JDK's trust store) took
    // 0.1-0.3 s of every start
    this.http =
        targets.isEmpty()
            ? null
            : HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1) // no h2c upgrade dance with plain receivers
                .connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(posting)
                .build();
    String posts = "burnbox.webhook.posts";
    String what = "webhook posts by how they ended";
    this.sent = Counter.builder(posts).tag("outcome", "sent").description(what).register(registry);
    this.gaveUp =
        Counter.builder(posts).tag("outcome", "gave_up").description(what).register(registry);
    this.dropped =
        Counter.builder(posts).tag("outcome", "dropped").description(what).register(registry);
    this.retried =
        Counter.builder("burnbox.webhook.retries")
            .description("webhook attempts that failed and were scheduled again")
            .register(registry);
    this.latency =
        Timer.builder("burnbox.webhook.latency")
            .description("time from a message's delivery to its webhook's 2xx answer")
            .publishPercentileHistogram()
            .register(registry);
    Gauge.builder("burnbox.webhook.held", held, AtomicInteger::get)
        .description(
            "webhook posts held now: waiting, in flight or to be retried, for all URLs together"
                + " (at most --webhook-queue)")
        .strongReference(true)
        .register(registry);
  }

  @Override
  public void delivered(Envelope envelope, Map<String, MessageId> ids) {
    if (targets.isEmpty()) {
      return;
    }
    long now = System.nanoTime();
    Set<MessageId> done = new HashSet<>();
    for (Map.Entry<String, MessageId> e : ids.entrySet()) {
      if (!done.add(e.getValue())) {
        continue; // one post per inbox copy, however many addresses led to it
      }
      Copy copy = new Copy(e.getValue(), e.getKey(), now);
      for (Target target : targets) {
        if (target.target().covers(e.getKey())) {
          offer(new Post(target, copy));
        }
      }
    }
  }

  private void offer(Post post) {
    if (held.incrementAndGet() > settings.queue()) {
      held.decrementAndGet();
      dropped.increment();
      long suppressed = droppedLog.admit(System.nanoTime());
      if (suppressed >= 0) {
        log.warn(
            "webhook queue full ({} posts held): dropped the post of {} to {}{}",
            settings.queue(),
            post.copy().id.value(),
            shownUrl(post),
            andMore(suppressed, "since the last such line"));
      }
      return;
    }
    dispatch(post);
  }

  /** Starts an attempt of {@code post} on its own virtual thread; after close, lets it go. */
  private void dispatch(Post post) {
    try {
      posting.execute(() -> attempt(post));
    } catch (RejectedExecutionException e) {
      held.decrementAndGet(); // closed
    }
  }

  /** {@code " (and N more WHAT)"} for a throttled log line, or "" when none were left out. */
  private static String andMore(long suppressed, String what) {
    return suppressed > 0 ? " (and " + suppressed + " more " + what + ")" : "";
  }

  private void attempt(Post post) {
    int attempts = post.attempts().incrementAndGet();
    String failure;
    try {
      post.target().inFlight().acquire();
      try {
        failure = send(post, attempts);
      } finally {
        post.target().inFlight().release();
      }
    } catch (InterruptedException e) {
      held.decrementAndGet();
      Thread.currentThread().interrupt();
      return;
    }
    if (failure == null) {
      held.decrementAndGet();
      sent.increment();
      latency.record(System.nanoTime() - post.copy().deliveredNanos, TimeUnit.NANOSECONDS);
      return;
    }
    Duration delay = backoff(attempts);
    long elapsed = System.nanoTime() - post.copy().deliveredNanos;
    if (elapsed + delay.toNanos() > settings.retryFor().toNanos()) {
      held.decrementAndGet();
      gaveUp.increment();
      logGaveUp(post, failure, attempts);
      return;
    }
    retried.increment();
    logFailure(post, failure, "retrying in " + delay.toMillis() + " ms");
    try {
      retrying.schedule(() -> dispatch(post), delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      held.decrementAndGet(); // closed
    }
  }

  /** 1 s, 2 s, 4 s ... at most 5 min, ±10%. */
  static Duration backoff(int attempts) {
    long millis = FIRST_RETRY.toMillis() << Math.min(attempts - 1, 20);
    millis = Math.min(millis, LONGEST_RETRY.toMillis());
    double jitter = 0.9 + 0.2 * ThreadLocalRandom.current().nextDouble();
    return Duration.ofMillis(Math.round(millis * jitter));
  }

  /** Posts once; null if the receiver answered 2xx, else what went wrong. */
  private String send(Post post, int attempt) throws InterruptedException {
    try {
      byte[] body = post.copy().body();
      long seconds = clock.instant().getEpochSecond();
      HttpRequest.Builder request =
          HttpRequest.newBuilder(post.target().target().url())
              .timeout(settings.timeout())
              .header("Content-Type", "application/json")
              .header("User-Agent", "Burnbox/" + BurnboxVersion.current())
              .header("X-Burnbox-Event", "mail")
              .header("X-Burnbox-Delivery", post.deliveryId())
              .header("X-Burnbox-Attempt", Integer.toString(attempt))
              .POST(HttpRequest.BodyPublishers.ofByteArray(body));
      if (secret != null) {
        request.header("X-Burnbox-Signature", signature(secret, seconds, body));
      }
      HttpResponse<Void> response =
          http.send(request.build(), HttpResponse.BodyHandlers.discarding());
      int status = response.statusCode();
      return status >= 200 && status < 300 ? null : "HTTP " + status;
    } catch (IOException e) {
      return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
  }

  /** The JSON of a copy: the listing entry, the recipient address, the links, the codes. */
  private byte[] json(Copy copy) throws JsonProcessingException {
    Optional<StoredMessage> stored = store.get(copy.id);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("event", "mail");
    if (stored.isPresent()) {
      body.putAll(MailJson.summary(stored.get().summary(), scanner.threshold()));
    } else {
      body.put("id", copy.id.value());
      body.put("evicted", true);
    }
    body.put("address", copy.address);
    if (stored.isPresent()) {
      DecodedMail mail = decoder.decode(stored.get().raw());
      body.put("links", MailJson.links(MailLinks.of(mail)));
      body.put("codes", MailJson.codes(VerificationCodes.of(mail)));
    } else {
      body.put("links", List.of());
      body.put("codes", List.of());
    }
    return json.writeValueAsBytes(body);
  }

  /** {@code t=SECONDS,v1=HEX}: HMAC-SHA256 of {@code SECONDS + "." + body} with {@code secret}. */
  public static String signature(byte[] secret, long seconds, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      mac.update((seconds + ".").getBytes(StandardCharsets.US_ASCII));
      return "t=" + seconds + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  private void logFailure(Post post, String failure, String next) {
    long suppressed = failedLog.admit(System.nanoTime());
    if (suppressed >= 0) {
      log.warn(
          "webhook post of {} to {} failed ({}): {}{}",
          post.copy().id.value(),
          shownUrl(post),
          failure,
          next,
          andMore(suppressed, "failures since the last such line"));
    }
  }

  /** One WARN line for a delivery given up after its retries, throttled as the failures are. */
  private void logGaveUp(Post post, String failure, int attempts) {
    long suppressed = gaveUpLog.admit(System.nanoTime());
    if (suppressed >= 0) {
      log.warn(
          "webhook delivery {} (message {}) to {} given up after {} attempts; last: {}{}",
          post.deliveryId(),
          post.copy().id.value(),
          shownUrl(post),
          attempts,
          failure,
          andMore(suppressed, "deliveries given up since the last such line"));
    }
  }

  /** The URL of {@code post}'s target as logs show it: its password hidden. */
  private static String shownUrl(Post post) {
    return UrlPasswords.hide(post.target().target().url().toString());
  }

  /** Stops posting; posts still held are lost. */
  @Override
  public void close() {
    retrying.shutdownNow();
    if (http != null) {
      http.shutdownNow(); // requests in flight fail now rather than wait for a silent receiver
    }
    posting.shutdownNow();
  }
}
