package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;

/** The hand-written DER parses back, as the JDK reads certificates, to what was asked for. */
class SelfSignedCertificateTest {
  private static KeyPair ecKeys() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  @Test
  void theCertificateNamesTheHostIsSignedByItsOwnKeyAndValidAsAsked() throws Exception {
    KeyPair keys = ecKeys();
    Instant from = Instant.parse("2026-11-25T10:00:00Z");
    Instant to = Instant.parse("2027-11-26T10:00:00Z");

    X509Certificate certificate = SelfSignedCertificate.create(keys, "mx.burnbox.test", from, to);

    certificate.verify(keys.getPublic()); // throws unless self-signed with this key
    assertThat(certificate.getVersion()).isEqualTo(3);
    assertThat(certificate.getSubjectX500Principal())
        .isEqualTo(new X500Principal("CN=mx.burnbox.test"))
        .isEqualTo(certificate.getIssuerX500Principal());
    assertThat(certificate.getNotBefore().toInstant()).isEqualTo(from);
    assertThat(certificate.getNotAfter().toInstant()).isEqualTo(to);
    assertThat(certificate.getPublicKey()).isEqualTo(keys.getPublic());
    assertThat(certificate.getSigAlgName()).isEqualTo("SHA256withECDSA");
    assertThat(certificate.getSubjectAlternativeNames())
        .containsExactly(List.of(2, "mx.burnbox.test"));
    assertThat(certificate.getSerialNumber().signum()).isPositive();
  }

  @Test
  void anInternationalHostNameIsItsAsciiFormInTheAltNameAndDatesAfter2049AreGeneralized()
      throws Exception {
    KeyPair keys = ecKeys();
    Instant from = Instant.parse("2049-12-31T23:59:59Z");
    Instant to = Instant.parse("2051-01-01T00:00:00Z");

    X509Certificate certificate = SelfSignedCertificate.create(keys, "bücher.test", from, to);

    certificate.verify(keys.getPublic());
    assertThat(certificate.getSubjectAlternativeNames())
        .containsExactly(List.of(2, "xn--bcher-kva.test"));
    assertThat(certificate.getSubjectX500Principal().getName()).isEqualTo("CN=bücher.test");
    assertThat(certificate.getNotBefore().toInstant()).isEqualTo(from);
    assertThat(certificate.getNotAfter().toInstant()).isEqualTo(to);
  }

  @Test
  void aLongHostNameNeedsLongFormLengthsAndStillParses() throws Exception {
    String host = "a".repeat(60) + "." + "b".repeat(60) + "." + "c".repeat(60) + ".test";
    X509Certificate certificate =
        SelfSignedCertificate.create(
            ecKeys(), host, Instant.now(), Instant.now().plusSeconds(3600));
    assertThat(certificate.getSubjectAlternativeNames()).containsExactly(List.of(2, host));
  }
}
