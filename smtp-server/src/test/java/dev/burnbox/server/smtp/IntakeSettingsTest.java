package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.net.InetAddresses;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class IntakeSettingsTest {
  @Test
  void defaultsAreTheDocumentedOnes() {
    IntakeSettings defaults = IntakeSettings.defaults();
    assertThat(defaults.port()).isEqualTo(2525);
    assertThat(defaults.hostName()).isNotBlank();
    assertThat(defaults.domains()).isEmpty();
    assertThat(defaults.threads()).isEqualTo(ThreadModel.VIRTUAL);
    assertThat(defaults.maxMessageSize()).isEqualTo(10 * 1024 * 1024);
    assertThat(defaults.maxRecipients()).isEqualTo(100);
    assertThat(defaults.maxConnections()).isEqualTo(2000);
    assertThat(defaults.maxConnectionsPerIp()).isEqualTo(50);
    assertThat(defaults.commandTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(defaults.dataTimeout()).isEqualTo(Duration.ofSeconds(120));
    assertThat(defaults.maxLineLength()).isEqualTo(1 << 20);
    assertThat(defaults.nullSender()).isEqualTo(IntakeSettings.NullSender.ACCEPT);
    assertThat(defaults.trustedNetworks().contains(InetAddresses.forString("127.3.4.5"))).isTrue();
    assertThat(defaults.trustedNetworks().contains(InetAddresses.forString("::1"))).isTrue();
    assertThat(defaults.trustedNetworks().contains(InetAddresses.forString("10.0.0.1"))).isFalse();
    assertThat(defaults.perIpMessageRate()).isEqualTo(120);
    assertThat(defaults.noFilters()).isFalse();
    assertThat(defaults.tlsKeystore()).isNull();
    assertThat(defaults.noTraceHeader()).isFalse();
  }

  @Test
  void lowerCasesDomainsAndServesEveryDomainWhenEmpty() {
    IntakeSettings settings = IntakeSettings.of("--domains= Burnbox.TEST ");
    assertThat(settings.domains()).containsExactly("burnbox.test");
    assertThat(settings.serves("BURNBOX.test")).isTrue();
    assertThat(settings.serves("other.test")).isFalse();
    assertThat(IntakeSettings.defaults().serves("anything.test")).isTrue();
  }

  @Test
  void thePostmasterIsAtTheFirstDomainGivenOrAtTheHostWhenEveryDomainIsServed() {
    assertThat(IntakeSettings.of("--domains=Zeta.test,alpha.test").postmasterDomain())
        .isEqualTo("zeta.test");
    assertThat(IntakeSettings.of("--domains=alpha.test,zeta.test").postmasterDomain())
        .isEqualTo("alpha.test");
    assertThat(IntakeSettings.of("--hostname=mx.burnbox.test").postmasterDomain())
        .isEqualTo("mx.burnbox.test");
  }

  @Test
  void matchesInternationalizedDomainsInEitherForm() {
    IntakeSettings settings = IntakeSettings.of("--domains=Bücher.Test");
    assertThat(settings.domains()).containsExactly("xn--bcher-kva.test");
    assertThat(settings.serves("BÜCHER.test")).isTrue();
    assertThat(settings.serves("xn--bcher-kva.test.")).isTrue();
  }

  @Test
  void refusesDomainsThatAreNotDnsNames() {
    for (String bad :
        List.of(
            "bad..domain",
            "a b",
            "-mx.test",
            "mx_1.test",
            "x".repeat(64) + ".test",
            ("a".repeat(60) + ".").repeat(5) + "test")) {
      assertThatThrownBy(() -> IntakeSettings.of("--domains=ok.test," + bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("--domains: domain");
    }
    assertThat(IntakeSettings.of("--domains=mx-1.test,Bücher.Test,").domains())
        .as("an empty item is no domain; an internationalized one is taken as punycode")
        .containsExactly("mx-1.test", "xn--bcher-kva.test");
  }

  @Test
  void aLineLimitBelowTheLinesSmtpMustTakeIsRefused() {
    for (String tooShort : List.of("10", "999")) {
      assertThatThrownBy(() -> IntakeSettings.of("--max-line-length=" + tooShort))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("--max-line-length must be at least 1000 (RFC 5321");
    }
    assertThat(IntakeSettings.of("--max-line-length=1000").maxLineLength()).isEqualTo(1000);
  }

  @Test
  void theSameOptionsGiveEqualSettingsAndALaterOptionWins() {
    IntakeSettings settings = IntakeSettings.of("--hostname=mx.test", "--smtp-port=25");
    assertThat(IntakeSettings.of("--smtp-port=1", "--hostname=mx.test", "--smtp-port=25"))
        .isEqualTo(settings);
    assertThat(settings.port()).isEqualTo(25);
    assertThat(settings.hostName()).isEqualTo("mx.test");
  }

  @Test
  void hidesTheKeystorePassword() {
    IntakeSettings settings =
        IntakeSettings.of("--tls-keystore=keys.p12", "--tls-keystore-password=hunter2");
    assertThat(settings.toString()).contains("keys.p12").doesNotContain("hunter2");
  }

  @Test
  void rejectsValuesOutOfRange() {
    assertThatThrownBy(() -> IntakeSettings.of("--smtp-port=70000"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--smtp-port");
    assertThatThrownBy(() -> IntakeSettings.of("--max-message-size=0"))
        .hasMessageContaining("--max-message-size");
    assertThatThrownBy(() -> IntakeSettings.of("--command-timeout=0s"))
        .hasMessageContaining("--command-timeout");
    assertThatThrownBy(() -> IntakeSettings.of("--per-ip-rate=-1"))
        .hasMessageContaining("--per-ip-rate");
    assertThatThrownBy(() -> IntakeSettings.of("--hostname=two words"))
        .hasMessageContaining("--hostname");
    assertThatThrownBy(() -> IntakeSettings.of("--threads=fibres"))
        .hasMessageContaining("--threads");
    assertThatThrownBy(() -> IntakeSettings.of("--no-such-option"))
        .hasMessageContaining("--no-such-option");
  }
}
