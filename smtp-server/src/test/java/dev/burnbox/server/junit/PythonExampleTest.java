package dev.burnbox.server.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The README's Python example ({@code docs/examples/test_signup.py}, standard library only) run
 * against a real Burnbox: it sends a sign-up mail with {@code smtplib}, waits for it over HTTP and
 * reads its link and code. Skipped where {@code python3} is not installed.
 */
class PythonExampleTest {
  @RegisterExtension static final BurnboxExtension burnbox = BurnboxExtension.perClass();
  private static final Path EXAMPLE = Path.of("..", "docs", "examples", "test_signup.py");

  @Test
  void thePythonSignUpExamplePasses() throws Exception {
    Assumptions.assumeTrue(python3Runs(), "python3 is not installed");
    Process run = run();
    String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(run.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(run.exitValue()).as(output).isZero();
    assertThat(output)
        .contains("test_the_sign_up_mail_has_a_verification_link_and_a_code")
        .contains(") ... ok")
        .contains("Ran 1 test");
  }

  private static Process run() throws IOException {
    assertThat(Files.exists(EXAMPLE)).as(EXAMPLE.toString()).isTrue();
    ProcessBuilder builder =
        new ProcessBuilder("python3", EXAMPLE.toAbsolutePath().normalize().toString(), "-v")
            .redirectErrorStream(true);
    builder.environment().put("BURNBOX_SMTP_PORT", Integer.toString(burnbox.smtpPort()));
    builder.environment().put("BURNBOX_HTTP_PORT", Integer.toString(burnbox.httpPort()));
    return builder.start();
  }

  private static boolean python3Runs() {
    try {
      Process version =
          new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
      return version.waitFor(10, TimeUnit.SECONDS) && version.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
