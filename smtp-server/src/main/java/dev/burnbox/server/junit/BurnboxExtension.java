package dev.burnbox.server.junit;

import dev.burnbox.server.BurnboxService;
import dev.burnbox.server.ServiceSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Burnbox inside a JUnit 5 test: the whole service (SMTP, the pipeline, the store, the web API) in
 * the test's JVM on free loopback ports, started once per class or once per test, and stopped
 * cleanly after, as GreenMail does for its users.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final BurnboxExtension burnbox = BurnboxExtension.perClass();
 *
 * @Test
 * void signUpSendsAVerificationMail() throws Exception {
 *   app.signUp("ann@burnbox.test", "smtp://127.0.0.1:" + burnbox.smtpPort());
 *   ReceivedMail mail = burnbox.inboxes().awaitMail("ann", Duration.ofSeconds(10));
 *   assertThat(mail.subject()).isEqualTo("Please verify your address");
 * }
 * }</pre>
 *
 * <p>The service is built exactly as {@code burnbox serve} builds it ({@link
 * BurnboxService#start}), from {@link ServiceSettings} with these test defaults: both ports free,
 * bound to loopback, host name {@code burnbox.test}, any domain accepted, 2 s shutdown grace;
 * {@link #configure} changes any setting. Test methods may also take {@link BurnboxService} or
 * {@link Inboxes} parameters. Register it as a {@code static} field for {@link #perClass()}; an
 * instance field works for either. Not for parallel use of one instance by concurrent test classes.
 */
public final class BurnboxExtension
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver {

  private final boolean perTest;
  private Consumer<ServiceSettings.Builder> configuration = settings -> {};
  private BurnboxService service;
  private Inboxes inboxes;

  private BurnboxExtension(boolean perTest) {
    this.perTest = perTest;
  }

  /** One service for all the tests of a class: fast, mail of earlier tests stays. */
  public static BurnboxExtension perClass() {
    return new BurnboxExtension(false);
  }

  /** A fresh service for every test: each test starts with empty inboxes. */
  public static BurnboxExtension perTest() {
    return new BurnboxExtension(true);
  }

  /**
   * Changes the settings the service starts with, after the test defaults (for instance {@code s ->
   * s.with("--inbox-cap=5", "--spam=reject")}: any option of {@code burnbox serve}).
   */
  public BurnboxExtension configure(Consumer<ServiceSettings.Builder> change) {
    this.configuration = this.configuration.andThen(Objects.requireNonNull(change, "change"));
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (!perTest) {
      start();
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (perTest || service == null) {
      start();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (perTest) {
      stop();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }

  /**
   * The settings a test's service starts from: the defaults, on free loopback ports (SMTP and web),
   * host name {@code burnbox.test}, a 2 s shutdown grace. For a test that starts {@link
   * BurnboxService} itself with settings of its own.
   */
  public static ServiceSettings.Builder testSettings() {
    return ServiceSettings.builder()
        .with("--bind=127.0.0.1", "--smtp-port=0", "--http-port=0", "--hostname=burnbox.test")
        .with("--shutdown-grace=2s");
  }

  private void start() {
    ServiceSettings.Builder settings = testSettings();
    configuration.accept(settings);
    try {
      service = BurnboxService.start(settings.build());
    } catch (IOException e) {
      throw new UncheckedIOException("Burnbox could not start", e);
    }
    inboxes = new Inboxes(service.store());
  }

  private void stop() {
    if (service != null) {
      service.close();
      service = null;
      inboxes = null;
    }
  }

  /** The running service. */
  public BurnboxService service() {
    if (service == null) {
      throw new IllegalStateException("Burnbox runs only while a test of its class runs");
    }
    return service;
  }

  /** The SMTP port to send mail to, on 127.0.0.1. */
  public int smtpPort() {
    return service().smtpPort();
  }

  /** The web port (pages and JSON API), on 127.0.0.1. */
  public int httpPort() {
    return service().httpPort();
  }

  /**
   * Reads and waits for mail in the running service's inboxes: one {@link Inboxes} per running
   * service, so its {@link Inboxes#awaitMail} returns each mail once across the tests of a {@link
   * #perClass()} class.
   */
  public Inboxes inboxes() {
    service();
    return inboxes;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == BurnboxService.class || type == Inboxes.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == BurnboxService.class ? service() : inboxes();
  }
}
