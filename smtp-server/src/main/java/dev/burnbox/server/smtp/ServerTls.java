package dev.burnbox.server.smtp;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

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
    Instant now = Instant.now();
    X509Certificate certificate =
        SelfSignedCertificate.create(
            pair, hostName, now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(365)));
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry(
        "burnbox", pair.getPrivate(), SELF_SIGNED_PASSWORD, new X509Certificate[] {certificate});
    return keys;
  }
}
