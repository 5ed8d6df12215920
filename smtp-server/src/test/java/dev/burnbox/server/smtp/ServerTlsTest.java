package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The self-signed key serves TLS 1.2 and 1.3 handshakes without a key store, and is made once, when
 * first asked for.
 */
class ServerTlsTest {
  @Test
  void theSelfSignedContextIsMadeOnceForEveryStartTls() throws Exception {
    Supplier<SSLContext> tls =
        ServerTls.onDemand(TestIntakes.settings(ThreadModel.VIRTUAL, "--hostname=mx.tls.test"));
    // sessions that ask at the same moment share one key
    List<CompletableFuture<SSLContext>> asked = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      asked.add(CompletableFuture.supplyAsync(tls));
    }
    SSLContext first = asked.getFirst().join();
    assertThat(asked).allSatisfy(context -> assertThat(context.join()).isSameAs(first));
    assertThat(tls.get()).isSameAs(first);
  }

  @ParameterizedTest
  @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
  void theSelfSignedKeyServesAHandshake(String protocol) throws Exception {
    SSLContext server =
        ServerTls.context(TestIntakes.settings(ThreadModel.VIRTUAL, "--hostname=mx.tls.test"));
    try (SSLServerSocket listening =
        (SSLServerSocket)
            server
                .getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CompletableFuture<Void> accepted =
          CompletableFuture.runAsync(
              () -> {
                try (SSLSocket socket = (SSLSocket) listening.accept()) {
                  socket.startHandshake();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      SSLContext client = SmtpScript.trustingEveryone();
      try (SSLSocket socket =
          (SSLSocket)
              client
                  .getSocketFactory()
                  .createSocket(InetAddress.getLoopbackAddress(), listening.getLocalPort())) {
        socket.setEnabledProtocols(new String[] {protocol});
        socket.startHandshake();
        assertThat(socket.getSession().getProtocol()).isEqualTo(protocol);
        X509Certificate certificate =
            (X509Certificate) socket.getSession().getPeerCertificates()[0];
        assertThat(certificate.getSubjectX500Principal().getName()).isEqualTo("CN=mx.tls.test");
        assertThat(certificate.getPublicKey().getAlgorithm()).isEqualTo("EC");
      }
      accepted.join();
    }
  }
}
