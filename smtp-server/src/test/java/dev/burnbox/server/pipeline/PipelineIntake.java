package dev.burnbox.server.pipeline;

import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.server.mime.MailDecoder;
import dev.burnbox.server.mime.MimeLimits;
import dev.burnbox.server.pipeline.IntakePipeline.SpamPolicy;
import dev.burnbox.server.smtp.IntakeSettings;
import dev.burnbox.server.smtp.SmtpIntake;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;

/**
 * The SMTP intake, started on a free loopback port, with an {@link IntakePipeline} of real
 * collaborators behind it: the default MIME limits, {@code scanner}, spam tagged, no flood filter,
 * no private domains, no delivery listener, and {@code store}. The caller stops it.
 */
final class PipelineIntake {
  private PipelineIntake() {}

  static SmtpIntake start(SpamScanner scanner, InboxStore store) throws IOException {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    IntakePipeline pipeline =
        new IntakePipeline(
            new MailDecoder(MimeLimits.DEFAULTS),
            scanner,
            SpamPolicy.TAG,
            null,
            store,
            PrivateDomains.NONE,
            DeliveryListener.NONE,
            registry);
    SmtpIntake intake =
        new SmtpIntake(
            IntakeSettings.of("--smtp-port=0", "--hostname=mx.burnbox.test"),
            InetAddress.getLoopbackAddress(),
            pipeline,
            registry);
    intake.start();
    return intake;
  }
}
