package dev.burnbox.server.smtp;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Builds the server side {@link SSLContext} for STARTTLS. Stateless. */
final class ServerTls {
  private static final char[] NO_PASSWORD = new char[0];
  private static final char[] SELF_SIGNED_PASSWORD = "self-signed".toCharArray();

  private ServerTls() {}

  /**
   * The key store in the settings, or else a fresh self-signed EC P-256 certificate for the host
   * name, valid from a day ago for a year.
   *
   * @throws IOException if the key store cannot be read or holds no usable key
   */
  static SSLContext context(IntakeSettings settings) throws IOException {
    try {
      KeyStore keys;
      char[] password;
      if (settings.tlsKeystore() != null) {
        password =
            settings.tlsKeystorePassword() == null
                ? NO_PASSWORD
                : settings.tlsKeystorePassword().toCharArray();
        keys = load(settings.tlsKeystore(), password);
      } else {
        password = SELF_SIGNED_PASSWORD;
        keys = selfSigned(settings.hostName());
      }
      KeyManagerFactory keyManagers =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, password);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers.getKeyManagers(), null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  private static KeyStore load(Path path, char[] password)
      throws IOException, GeneralSecurityException {
    try {
      return KeyStore.getInstance(path.toFile(), password);
    } catch (IOException e) {
      throw new IOException("cannot read TLS key store " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * A PKCS#12 store holding one self-signed key entry for {@code hostName} (password
   * "self-signed").
   */
  static KeyStore selfSigned(String hostName) throws GeneralSecurityException, IOException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair pair = generator.generateKeyPair();
    X500Name subject = new X500Name("CN=" + hostName.replaceAll("[,=+<>#;\"\\\\]", "_"));
    Instant now = Instant.now();
    JcaX509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            subject,
            new BigInteger(64, new SecureRandom()),
            Date.from(now.minus(Duration.ofDays(1))),
            Date.from(now.plus(Duration.ofDays(365))),
            subject,
            pair.getPublic());
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(new GeneralName(GeneralName.dNSName, hostName)));
    X509Certificate certificate;
    try {
      certificate =
          new JcaX509CertificateConverter()
              .getCertificate(
                  builder.build(
                      new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry(
        "burnbox", pair.getPrivate(), SELF_SIGNED_PASSWORD, new X509Certificate[] {certificate});
    return keys;
  }
}
