package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.net.InetAddresses;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IntakeSettingsTest {
  @Test
  void defaultsAreTheDocumentedOnes() {
    IntakeSettings defaults = IntakeSettings.defaults();
    assertThat(defaults.port()).isEqualTo(2525);
    assertThat(defaults.bindAddress()).isNull();
    assertThat(defaults.hostName()).isNotBlank();
    assertThat(defaults.domains()).isEmpty();
    assertThat(defaults.threads()).isEqualTo(ThreadModel.VIRTUAL);
    assertThat(defaults.maxMessageSize()).isEqualTo(10 * 1024 * 1024);
    assertThat(defaults.maxRecipients()).isEqualTo(100);
    assertThat(defaults.maxConnections()).isEqualTo(2000);
    assertThat(defaults.maxConnectionsPerIp()).isEqualTo(50);
    assertThat(defaults.commandTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(defaults.dataTimeout()).isEqualTo(Duration.ofSeconds(120));
    assertThat(defaults.maxLineLength()).isEqualTo(8192);
    assertThat(defaults.acceptNullSender()).isTrue();
    assertThat(defaults.trustedNetworks().contains(InetAddresses.forString("127.3.4.5"))).isTrue();
    assertThat(defaults.trustedNetworks().contains(InetAddresses.forString("::1"))).isTrue();
    assertThat(defaults.trustedNetworks().contains(InetAddresses.forString("10.0.0.1"))).isFalse();
    assertThat(defaults.perIpMessageRate()).isEqualTo(120);
    assertThat(defaults.filtersEnabled()).isTrue();
    assertThat(defaults.tlsKeystore()).isNull();
    assertThat(defaults.backlog()).isEqualTo(1024);
  }

  @Test
  void lowerCasesDomainsAndServesEveryDomainWhenEmpty() {
    IntakeSettings settings = IntakeSettings.builder().domains(Set.of(" Burnbox.TEST ")).build();
    assertThat(settings.domains()).containsExactly("burnbox.test");
    assertThat(settings.serves("BURNBOX.test")).isTrue();
    assertThat(settings.serves("other.test")).isFalse();
    assertThat(IntakeSettings.defaults().serves("anything.test")).isTrue();
  }

  @Test
  void matchesInternationalizedDomainsInEitherForm() {
    IntakeSettings settings = IntakeSettings.builder().domains(Set.of("Bücher.Test")).build();
    assertThat(settings.domains()).containsExactly("xn--bcher-kva.test");
    assertThat(settings.serves("BÜCHER.test")).isTrue();
    assertThat(settings.serves("xn--bcher-kva.test.")).isTrue();
  }

  @Test
  void rebuildsFromItself() {
    IntakeSettings settings =
        IntakeSettings.builder().hostName("mx.test").port(25).maxRecipients(7).build();
    assertThat(settings.toBuilder().build()).isEqualTo(settings);
  }

  @Test
  void hidesTheKeystorePassword() {
    IntakeSettings settings =
        IntakeSettings.builder()
            .tlsKeystore(Path.of("keys.p12"))
            .tlsKeystorePassword("hunter2")
            .build();
    assertThat(settings.toString()).contains("keys.p12").doesNotContain("hunter2");
  }

  @Test
  void rejectsValuesOutOfRange() {
    assertThatThrownBy(() -> IntakeSettings.builder().port(70000).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("port");
    assertThatThrownBy(() -> IntakeSettings.builder().maxMessageSize(0).build())
        .hasMessageContaining("maxMessageSize");
    assertThatThrownBy(() -> IntakeSettings.builder().commandTimeout(Duration.ZERO).build())
        .hasMessageContaining("commandTimeout");
    assertThatThrownBy(() -> IntakeSettings.builder().perIpMessageRate(-1).build())
        .hasMessageContaining("perIpMessageRate");
    assertThatThrownBy(() -> IntakeSettings.builder().domains(Set.of(" ")).build())
        .hasMessageContaining("domain");
    assertThatThrownBy(() -> IntakeSettings.builder().hostName("two words").build())
        .hasMessageContaining("hostName");
  }
}
