package dev.burnbox.server.smtp;

import com.google.common.base.Suppliers;
import dev.burnbox.server.config.OptionErrors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.UnrecoverableKeyException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Builds the server side {@link SSLContext} for STARTTLS. Stateless; its suppliers are thread-safe.
 */
final class ServerTls {
  private static final char[] NO_PASSWORD = new char[0];

  private ServerTls() {}

  /**
   * The key store in the settings, or else a fresh self-signed EC P-256 certificate for the host
   * name, valid from a day ago for a year.
   *
   * @throws IOException if TLS cannot be set up with the key (no usable key)
   * @throws IllegalArgumentException if the key store cannot be read, naming {@code
   *     --tls-keystore}, or its password does not open it, naming {@code --tls-keystore-password}
   */
  static SSLContext context(IntakeSettings settings) throws IOException {
    try {
      KeyManager[] keyManagers;
      if (settings.tlsKeystore() != null) {
        char[] password =
            settings.tlsKeystorePassword() == null
                ? NO_PASSWORD
                : settings.tlsKeystorePassword().toCharArray();
        KeyManagerFactory factory =
            KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(load(settings.tlsKeystore(), password), password);
        keyManagers = factory.getKeyManagers();
      } else {
        keyManagers = new KeyManager[] {selfSigned(settings.hostName())};
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers, null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /**
   * The context {@link #context} makes, a key store's read now (so that a wrong path or password
   * stops the start) but a self-signed key made only when the first client asks for STARTTLS, once:
   * making it (an EC key, a signature, the JDK's TLS set-up, on a JVM that has compiled none of it)
   * was a seventh of the start's main-thread CPU, and most mail never asks.
   *
   * @throws IllegalArgumentException if the key store cannot be read or holds no usable key: a
   *     setting the intake cannot use, the message beginning with {@code --tls-keystore}; or its
   *     password does not open it, the message beginning with {@code --tls-keystore-password}
   */
  static Supplier<SSLContext> onDemand(IntakeSettings settings) {
    if (settings.tlsKeystore() != null) {
      SSLContext fromKeyStore;
      try {
        fromKeyStore = context(settings);
      } catch (IOException e) {
        throw new IllegalArgumentException("--tls-keystore: " + e.getMessage(), e);
      }
      return () -> fromKeyStore;
    }
    return Suppliers.memoize(
        () -> {
          try {
            return context(settings);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  private static KeyStore load(Path path, char[] password)
      throws IOException, GeneralSecurityException {
    if (!Files.isRegularFile(path)) { // KeyStore says "File does not exist or it does not refer..."
      throw OptionErrors.unreadable(
          "--tls-keystore",
          path,
          Files.isDirectory(path)
              ? new IOException("is a folder")
              : new NoSuchFileException(path.toString()));
    }
    try {
      return KeyStore.getInstance(path.toFile(), password);
    } catch (IOException e) { // not a key store, or the password is wrong
      if (e.getCause() instanceof UnrecoverableKeyException) { // the JDK's "password incorrect"
        throw new IllegalArgumentException(
            password.length == 0
                ? "--tls-keystore-password: none given, and the key store " + path + " needs one"
                : "--tls-keystore-password: the password does not open the key store " + path,
            e);
      }
      throw OptionErrors.unreadable("--tls-keystore", path, e);
    }
  }

  /**
   * A new EC P-256 key and its self-signed certificate for {@code hostName}, held in memory only:
   * no key store, whose PKCS#12 form would encrypt the key and decrypt it again (10,000 PBKDF2
   * rounds each way, a fifth of a start's time here).
   */
  static SingleKey selfSigned(String hostName) throws GeneralSecurityException, IOException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair pair = generator.generateKeyPair();
    Instant now = Instant.now();
    X509Certificate certificate =
        SelfSignedCertificate.create(
            pair, hostName, now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(365)));
    return new SingleKey(pair.getPrivate(), certificate);
  }

  /**
   * A server key manager with one key and its certificate, offered to every handshake that can use
   * a key of its algorithm (as the JDK's own key manager chooses among the keys of a store); it
   * never acts for a client.
   */
  static final class SingleKey extends X509ExtendedKeyManager {
    static final String ALIAS = "burnbox";

    private final PrivateKey key;
    private final X509Certificate certificate;

    SingleKey(PrivateKey key, X509Certificate certificate) {
      this.key = key;
      this.certificate = certificate;
    }

    /** The key's certificate. */
    X509Certificate certificate() {
      return certificate;
    }

    /** The key, for a test to store it. */
    PrivateKey key() {
      return key;
    }

    // keyType is an algorithm ("EC", "RSA", "RSASSA-PSS"), or for old TLS 1.2 suites the key's
    // and the certificate signature's ("EC_EC", "EC_RSA")
    private boolean fits(String keyType) {
      return keyType != null && keyType.split("_")[0].equals(key.getAlgorithm());
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return fits(keyType) ? ALIAS : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
      return fits(keyType) ? ALIAS : null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return fits(keyType) ? new String[] {ALIAS} : null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return ALIAS.equals(alias) ? new X509Certificate[] {certificate} : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return ALIAS.equals(alias) ? key : null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return null;
    }
  }
}
