package dev.burnbox.server.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.net.InetAddresses;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NetworkListTest {
  private static InetAddress ip(String literal) {
    return InetAddresses.forString(literal);
  }

  @Test
  void matchesIpv4NetworksByPrefix() {
    NetworkList list = NetworkList.parse("127.0.0.0/8, 10.1.0.0/16 192.0.2.7");
    assertThat(list.contains(ip("127.1.2.3"))).isTrue();
    assertThat(list.contains(ip("10.1.255.1"))).isTrue();
    assertThat(list.contains(ip("10.2.0.1"))).isFalse();
    assertThat(list.contains(ip("192.0.2.7"))).isTrue();
    assertThat(list.contains(ip("192.0.2.8"))).isFalse();
  }

  @Test
  void matchesIpv6NetworksByPrefix() {
    NetworkList list = NetworkList.parse("::1,2001:db8::/32,fe80::/10");
    assertThat(list.contains(ip("::1"))).isTrue();
    assertThat(list.contains(ip("::2"))).isFalse();
    assertThat(list.contains(ip("2001:db8:ffff::1"))).isTrue();
    assertThat(list.contains(ip("2001:db9::1"))).isFalse();
    assertThat(list.contains(ip("febf::1"))).isTrue();
    assertThat(list.contains(ip("fec0::1"))).isFalse();
  }

  @Test
  void neverMatchesAcrossAddressFamilies() {
    assertThat(NetworkList.parse("0.0.0.0/0").contains(ip("::1"))).isFalse();
    assertThat(NetworkList.parse("::/0").contains(ip("127.0.0.1"))).isFalse();
  }

  @Test
  void ignoresHostBitsAndPrintsTheNetwork() {
    NetworkList list = NetworkList.parse("10.9.8.7/8");
    assertThat(list.contains(ip("10.0.0.1"))).isTrue();
    assertThat(list).hasToString("10.0.0.0/8");
    assertThat(list).isEqualTo(NetworkList.parse("10.0.0.0/8"));
  }

  @Test
  void printsIpv6NetworksCompressed() {
    assertThat(NetworkList.parse("::1, 2001:db8::/32")).hasToString("::1/128, 2001:db8::/32");
  }

  @Test
  void emptyTextIsAnEmptyList() {
    assertThat(NetworkList.parse(" , ").isEmpty()).isTrue();
    assertThat(NetworkList.empty().contains(ip("127.0.0.1"))).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "localhost",
        "10.0.0.0/33",
        "::1/129",
        "10.0.0/8",
        "10.0.0.0/",
        "10.0.0.0/-1",
        "1.2.3.4/8x"
      })
  void rejectsWhatIsNotANetworkLiteral(String entry) {
    assertThatThrownBy(() -> NetworkList.parse("127.0.0.1, " + entry))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(entry.substring(0, Math.min(entry.length(), 6)));
  }
}
