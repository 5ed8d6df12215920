package dev.burnbox.server.web;

import dev.burnbox.mailstore.DeliveryResult;
import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.InboxPage;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.mailstore.IncomingMessage;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.mailstore.StoreStats;
import dev.burnbox.mailstore.StoreUnavailableException;
import dev.burnbox.mailstore.StoredMessage;
import dev.burnbox.mailstore.Subscription;
import dev.burnbox.server.mime.DecodedMail;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.pipeline.PrivateDomains;
import dev.burnbox.server.pipeline.SpamScanner;
import dev.burnbox.server.smtp.IntakeSettings;
import dev.burnbox.server.smtp.NetworkList;
import dev.burnbox.wordlists.SpamModel;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A started {@link WebServer} on a free port over a fresh in-memory store, with helpers to deliver
 * mail the way the intake pipeline does (decoded From and Subject in the listing, and if asked the
 * scanner's verdict) and to call it. Counts open store subscriptions, so tests can see event
 * streams let go of theirs, and can make its store unreachable ({@link #storeDown}).
 */
final class WebFixture implements AutoCloseable {
  /**
   * The terms of the default scanner: a plain list (weight 1 each, whole words, every part; spam
   * from a capped count of 5, so {@code -5 + hits} is the score).
   */
  static final List<String> TERMS = List.of("viagra", "casino", "claim your prize");

  final MailDecoder decoder = MailDecoder.withDefaults();
  final AtomicInteger openSubscriptions = new AtomicInteger();

  /**
   * While set, the store throws {@link StoreUnavailableException}, as an unreachable Redis does.
   */
  final AtomicBoolean storeDown = new AtomicBoolean();

  /** Subscriptions (event streams) refused because {@link #storeDown} was set. */
  final AtomicInteger refusedSubscriptions = new AtomicInteger();

  final InboxStore store;
  final SpamScanner scanner;

  /** The operator token of the fixture's server. */
  static final String ADMIN_TOKEN = "fixture-admin-token-0123";

  /** The fixture's private domain: inbox {@code bob@team.test} needs a token. */
  static final String PRIVATE_DOMAIN = "team.test";

  /** The domains the fixture's server takes mail for, the private one among them. */
  static final List<String> SERVED_DOMAINS = List.of("burnbox.test", "mail.test", PRIVATE_DOMAIN);

  /**
   * A token of the fixture's tokens file that opens another domain, not {@link #PRIVATE_DOMAIN}.
   */
  static final String OTHER_DOMAIN_TOKEN = "fixture-other-domain-token";

  /** The fixture server's access: its operator token, private domain and tokens. */
  final WebAccess access = configuredAccess();

  final WebServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  WebFixture(Duration heartbeat, SpamScanner scanner) {
    this(heartbeat, scanner, IntakeSettings.defaults().trustedNetworks());
  }

  /** A fixture whose server exempts {@code trusted} from the per-address limits. */
  WebFixture(NetworkList trusted) {
    this(Duration.ofMillis(200), plainListScanner(), trusted);
  }

  private WebFixture(Duration heartbeat, SpamScanner scanner, NetworkList trusted) {
    this(heartbeat, scanner, trusted, InboxStore.memory().build());
  }

  private WebFixture(
      Duration heartbeat, SpamScanner scanner, NetworkList trusted, InboxStore memory) {
    this.store =
        new SubscriptionCountingStore(memory, openSubscriptions, storeDown, refusedSubscriptions);
    this.scanner = scanner;
    this.server =
        new WebServer(
            "127.0.0.1",
            0,
            WebLimits.defaults(trusted),
            MetricsEndpoint.webPort(),
            access,
            SERVED_DOMAINS,
            store,
            decoder,
            scanner,
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            heartbeat);
    server.start();
  }

  /**
   * The operator token, the private domain and a tokens file with {@link #OTHER_DOMAIN_TOKEN}: each
   * call a new one with the same secrets, as another node of the same deployment would have.
   */
  static WebAccess configuredAccess() {
    try {
      Path tokens = Files.createTempFile("burnbox-fixture-tokens", "");
      tokens.toFile().deleteOnExit();
      Files.writeString(tokens, OTHER_DOMAIN_TOKEN + " other.test\n");
      return new WebAccess(
          CorsPolicy.NONE,
          ADMIN_TOKEN,
          PrivateDomains.parse(PRIVATE_DOMAIN),
          ApiTokens.read(tokens));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  WebFixture(Duration heartbeat) {
    this(heartbeat, plainListScanner());
  }

  WebFixture(SpamScanner scanner) {
    this(Duration.ofMillis(200), scanner);
  }

  WebFixture() {
    this(Duration.ofMillis(200));
  }

  /** A fixture whose inboxes hold up to {@code inboxCap} messages (the default is 50). */
  static WebFixture withInboxCap(int inboxCap) {
    return new WebFixture(
        Duration.ofMillis(200),
        plainListScanner(),
        IntakeSettings.defaults().trustedNetworks(),
        InboxStore.memory().inboxCap(inboxCap).build());
  }

  /**
   * A started server on a free loopback port over an empty memory store, with {@code trusted}
   * exempt from the per-address limits and {@code cors} for other origins; the caller closes it.
   */
  static WebServer startedServer(NetworkList trusted, CorsPolicy cors) {
    return startedServer(trusted, new WebAccess(cors, null), InboxStore.memory().build());
  }

  /** A started server on a free loopback port with {@code access}, serving {@code store}. */
  static WebServer startedServer(NetworkList trusted, WebAccess access, InboxStore store) {
    WebServer server =
        new WebServer(
            "127.0.0.1",
            0,
            WebLimits.defaults(trusted),
            MetricsEndpoint.webPort(),
            access,
            List.of(),
            store,
            MailDecoder.withDefaults(),
            plainListScanner(),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    server.start();
    return server;
  }

  /** A scanner over the plain list {@link #TERMS}. */
  static SpamScanner plainListScanner() {
    return SpamScanner.of(null, null, SpamModel.ofPlainTerms(TERMS, "web test terms"));
  }

  String url(String path) {
    return "http://127.0.0.1:" + server.port() + path;
  }

  /** Delivers {@code raw} to {@code inbox} and returns its id there. */
  MessageId deliver(String inbox, String raw, SpamVerdict verdict) {
    return deliver("sender@example.test", inbox, raw, verdict);
  }

  /**
   * Delivers {@code raw} from envelope sender {@code envelopeSender} ("" for the null sender of a
   * bounce) to {@code inbox} and returns its id there.
   */
  MessageId deliver(String envelopeSender, String inbox, String raw, SpamVerdict verdict) {
    byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
    DecodedMail mail = decoder.decode(bytes);
    DeliveryResult result =
        store.deliver(
            new IncomingMessage(
                bytes,
                envelopeSender,
                List.of(InboxName.of(inbox)),
                Instant.now(),
                mail.from(),
                mail.subject(),
                verdict));
    return ((DeliveryResult.Delivered) result).ids().values().iterator().next();
  }

  MessageId deliver(String inbox, String raw) {
    return deliver(inbox, raw, SpamVerdict.CLEAN);
  }

  /** Delivers {@code raw} to {@code inbox} with the verdict the fixture's scanner gives it. */
  MessageId deliverScanned(String inbox, String raw) {
    return deliver(inbox, raw, verdict(raw));
  }

  /** The verdict the fixture's scanner gives {@code raw}, as the intake pipeline computes it. */
  SpamVerdict verdict(String raw) {
    return scanner.scan(decoder.decode(raw.getBytes(StandardCharsets.UTF_8)).scanParts());
  }

  HttpResponse<String> get(String path) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url(path))).build());
  }

  HttpResponse<byte[]> getBytes(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url(path))).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  HttpResponse<String> send(HttpRequest request) throws Exception {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() {
    server.close();
    http.close();
  }

  /** A plain text mail with {@code subject}, lines ending in CRLF. */
  static String textMail(String subject, String body) {
    return "From: Ann Example <ann@example.test>\r\n"
        + "To: someone@burnbox.test\r\n"
        + "Subject: "
        + subject
        + "\r\nMessage-ID: <1@example.test>\r\n\r\n"
        + body
        + "\r\n";
  }

  /**
   * A store that counts the subscriptions its delegate holds open, and that throws {@link
   * StoreUnavailableException} from every call but {@code deliver} while {@code down} is set,
   * counting the subscriptions so {@code refused}.
   */
  private record SubscriptionCountingStore(
      InboxStore delegate, AtomicInteger open, AtomicBoolean down, AtomicInteger refused)
      implements InboxStore {
    private InboxStore reachable() {
      if (down.get()) {
        throw new StoreUnavailableException("the fixture's store is down", null);
      }
      return delegate;
    }

    @Override
    public DeliveryResult deliver(IncomingMessage message) {
      return delegate.deliver(message); // deliver answers refusals, never throws this
    }

    @Override
    public InboxPage list(InboxName inbox, int limit, String cursor) {
      return reachable().list(inbox, limit, cursor);
    }

    @Override
    public List<MessageSummary> newest(int limit) {
      return reachable().newest(limit);
    }

    @Override
    public Optional<StoredMessage> get(MessageId id) {
      return reachable().get(id);
    }

    @Override
    public boolean delete(MessageId id) {
      return reachable().delete(id);
    }

    @Override
    public Subscription subscribe(InboxName inbox, Consumer<? super MessageSummary> listener) {
      if (down.get()) {
        refused.incrementAndGet();
      }
      Subscription subscription = reachable().subscribe(inbox, listener);
      open.incrementAndGet();
      return new Subscription() {
        private boolean closed;

        @Override
        public synchronized void close() {
          if (!closed) {
            closed = true;
            open.decrementAndGet();
            subscription.close();
          }
        }
      };
    }

    @Override
    public StoreStats stats() {
      return reachable().stats();
    }
  }
}
