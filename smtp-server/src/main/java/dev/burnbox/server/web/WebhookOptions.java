package dev.burnbox.server.web;

import dev.burnbox.server.config.OptionCatalog;
import dev.burnbox.server.config.OptionValues;
import dev.burnbox.server.config.WhenUnset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The webhook options of {@code burnbox serve}, each declared once here (see {@link
 * OptionCatalog}); {@link #settings()} turns them into the {@link Webhooks.Settings} the service
 * runs with. A picocli mixin; not thread-safe until parsed.
 */
public final class WebhookOptions {
  private static final WebhookOptions DEFAULTS = OptionCatalog.defaults(new WebhookOptions());

  @Option(
      names = "--webhook",
      paramLabel = "[SCOPE=]URL",
      split = "\\s+",
      description =
          "POST a JSON summary of each message delivered (id, inbox, address, sender, subject,"
              + " time, spam verdict, links) to URL; repeatable (whitespace-separated in the"
              + " variable). SCOPE limits it to a domain (`ci.example.test=https://...`) or an"
              + " address glob (`signup-*@example.test=https://...`); see [Webhooks](#webhooks)")
  @WhenUnset("none")
  String[] webhooks = {};

  @Option(
      names = "--webhook-secret",
      paramLabel = "SECRET",
      description =
          "key of the HMAC-SHA256 signature sent with each post (`X-Burnbox-Signature:"
              + " t=UNIX-SECONDS,v1=HEX` over `t.BODY`)")
  @WhenUnset("posts are not signed")
  String secret;

  @Option(
      names = "--webhook-retry-for",
      paramLabel = "DURATION",
      defaultValue = "10m",
      converter = OptionValues.Durations.class,
      description =
          "how long a post that fails (no answer within `--webhook-timeout`, or not 2xx) is"
              + " retried, with exponential backoff from 1 s to 5 min, before it is given up")
  Duration retryFor;

  @Option(
      names = "--webhook-timeout",
      paramLabel = "DURATION",
      defaultValue = "10s",
      converter = OptionValues.Durations.class,
      description = "time a receiver has to answer one post")
  Duration timeout;

  @Option(
      names = "--webhook-queue",
      paramLabel = "N",
      defaultValue = "1000",
      description =
          "posts held at once (waiting, in flight or to be retried), for all URLs together; when"
              + " full, new ones are dropped and counted, never slowing SMTP")
  int queue;

  /** These options without a command line or environment: every one at its default. */
  public static WebhookOptions defaults() {
    return DEFAULTS;
  }

  /**
   * The settings these options describe.
   *
   * @throws IllegalArgumentException if a {@code --webhook} is malformed or a number is out of
   *     range
   */
  public Webhooks.Settings settings() {
    List<WebhookTarget> targets =
        Arrays.stream(webhooks)
            .filter(value -> !value.isBlank())
            .map(WebhookTarget::parse)
            .toList();
    byte[] key =
        secret == null || secret.isEmpty() ? null : secret.getBytes(StandardCharsets.UTF_8);
    return new Webhooks.Settings(targets, key, retryFor, timeout, queue);
  }
}
