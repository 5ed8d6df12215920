package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** STARTTLS with a key store from a file instead of the self-signed certificate. */
class SmtpIntakeTlsKeystoreTest {
  @TempDir Path folder;

  private Path keystore(String hostName, String password) throws Exception {
    ServerTls.SingleKey generated = ServerTls.selfSigned(hostName);
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry(
        "mx",
        generated.key(),
        password.toCharArray(),
        new X509Certificate[] {generated.certificate()});
    Path file = folder.resolve("keys.p12");
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, password.toCharArray());
    }
    return file;
  }

  @Test
  void presentsTheCertificateFromTheKeystore() throws Exception {
    Path file = keystore("mail.from-file.test", "s3cret");
    try (SmtpIntake intake =
            TestIntakes.start(
                TestIntakes.settings(
                    ThreadModel.VIRTUAL,
                    "--tls-keystore=" + file,
                    "--tls-keystore-password=s3cret"),
                new RecordingAcceptor(),
                new SimpleMeterRegistry());
        SmtpScript smtp = SmtpScript.ehlo(intake.port(), "127.0.0.1")) {
      smtp.startTls();
      X509Certificate certificate = (X509Certificate) smtp.peerCertificates()[0];
      assertThat(certificate.getSubjectX500Principal().getName())
          .isEqualTo("CN=mail.from-file.test");
      assertThat(smtp.send("EHLO client.test")).startsWith("250");
    }
  }

  @Test
  void refusesToStartWithAWrongPassword() throws Exception {
    Path file = keystore("mail.from-file.test", "s3cret");
    SmtpIntake intake =
        new SmtpIntake(
            TestIntakes.settings(
                ThreadModel.VIRTUAL, "--tls-keystore=" + file, "--tls-keystore-password=wrong"),
            InetAddress.getLoopbackAddress(),
            new RecordingAcceptor(),
            new SimpleMeterRegistry());
    assertThatThrownBy(intake::start)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--tls-keystore-password: the password does not open the key store " + file);
  }
}
