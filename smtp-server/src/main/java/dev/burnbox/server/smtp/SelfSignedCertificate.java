package dev.burnbox.server.smtp;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.net.IDN;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A self-signed X.509 v3 certificate for a host name, written in DER by hand: the JDK signs and
 * parses certificates but has no public API to build one, and a library for the ten fields of a
 * self-signed certificate (BouncyCastle, 6.7 MB in the jar) cost more start time than the TLS it
 * serves. The certificate: serial 64 random bits, issuer = subject = {@code CN=<host name>},
 * validity as given, the key pair's public key, one extension (subject alternative name: the host
 * name as a DNS name, IDNA-encoded), signed with SHA256withECDSA (an EC key pair is required).
 *
 * <p>Stateless and thread-safe.
 */
final class SelfSignedCertificate {
  // DER of the object identifiers used, tag and length included
  private static final byte[] ECDSA_WITH_SHA256 = {
    0x06, 0x08, 0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x04, 0x03, 0x02
  };
  private static final byte[] COMMON_NAME = {0x06, 0x03, 0x55, 0x04, 0x03};
  private static final byte[] SUBJECT_ALT_NAME = {0x06, 0x03, 0x55, 0x1D, 0x11};

  private static final int INTEGER = 0x02;
  private static final int BIT_STRING = 0x03;
  private static final int OCTET_STRING = 0x04;
  private static final int UTF8_STRING = 0x0C;
  private static final int UTC_TIME = 0x17;
  private static final int GENERALIZED_TIME = 0x18;
  private static final int SEQUENCE = 0x30;
  private static final int SET = 0x31;
  private static final int DNS_NAME = 0x82; // [2] IMPLICIT IA5String in GeneralName
  private static final int VERSION = 0xA0; // [0] EXPLICIT
  private static final int EXTENSIONS = 0xA3; // [3] EXPLICIT

  private SelfSignedCertificate() {}

  /**
   * The certificate of {@code keys} (EC) for {@code hostName}, valid from {@code notBefore} to
   * {@code notAfter}.
   *
   * @throws GeneralSecurityException if the key cannot sign with SHA256withECDSA
   */
  static X509Certificate create(KeyPair keys, String hostName, Instant notBefore, Instant notAfter)
      throws GeneralSecurityException {
    byte[] name =
        der(
            SEQUENCE,
            der(
                SET,
                der(
                    SEQUENCE,
                    COMMON_NAME,
                    der(UTF8_STRING, hostName.getBytes(StandardCharsets.UTF_8)))));
    byte[] algorithm = der(SEQUENCE, ECDSA_WITH_SHA256);
    byte[] dnsName =
        IDN.toASCII(hostName, IDN.ALLOW_UNASSIGNED).getBytes(StandardCharsets.US_ASCII);
    byte[] extensions =
        der(
            EXTENSIONS,
            der(
                SEQUENCE,
                der(
                    SEQUENCE,
                    SUBJECT_ALT_NAME,
                    der(OCTET_STRING, der(SEQUENCE, der(DNS_NAME, dnsName))))));
    byte[] tbs =
        der(
            SEQUENCE,
            der(VERSION, der(INTEGER, new byte[] {2})),
            der(INTEGER, new BigInteger(64, new SecureRandom()).toByteArray()),
            algorithm,
            name,
            der(SEQUENCE, time(notBefore), time(notAfter)),
            name,
            keys.getPublic().getEncoded(), // SubjectPublicKeyInfo, already DER
            extensions);
    Signature signer = Signature.getInstance("SHA256withECDSA");
    signer.initSign(keys.getPrivate());
    signer.update(tbs);
    byte[] signature = signer.sign();
    byte[] bits = new byte[signature.length + 1]; // leading 0: no unused bits
    System.arraycopy(signature, 0, bits, 1, signature.length);
    byte[] certificate = der(SEQUENCE, tbs, algorithm, der(BIT_STRING, bits));
    return (X509Certificate)
        CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(certificate));
  }

  /** UTCTime through 2049, GeneralizedTime after, as RFC 5280 §4.1.2.5 requires. */
  private static byte[] time(Instant instant) {
    var utc = instant.atOffset(ZoneOffset.UTC);
    boolean utcTime = utc.getYear() < 2050;
    String text =
        utc.format(DateTimeFormatter.ofPattern(utcTime ? "yyMMddHHmmss'Z'" : "yyyyMMddHHmmss'Z'"));
    return der(utcTime ? UTC_TIME : GENERALIZED_TIME, text.getBytes(StandardCharsets.US_ASCII));
  }

  /** One DER value: tag, definite length, and the concatenated contents. */
  private static byte[] der(int tag, byte[]... contents) {
    int length = 0;
    for (byte[] part : contents) {
      length += part.length;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(length + 6);
    out.write(tag);
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | bytes);
      for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
        out.write(length >>> shift);
      }
    }
    for (byte[] part : contents) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
