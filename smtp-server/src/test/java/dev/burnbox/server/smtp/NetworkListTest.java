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

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0.0.0.0",
        "255.255.255.255",
        "192.0.2.1",
        "::",
        "::1",
        "1::",
        "2001:db8::1",
        "2001:DB8:0:0:1:0:0:1",
        "1:0:0:2:0:0:0:3",
        "0:0:1:0:0:0:0:0",
        "::ffff:192.0.2.1",
        "::192.0.2.1",
        "64:ff9b::192.0.2.33",
        "fe80::1:2:3:4",
        "1:2:3:4:5:6:7:8"
      })
  void parsesAndPrintsLiteralsAsGuavaDid(String literal) throws Exception {
    InetAddress guava = InetAddresses.forString(literal);
    assertThat(NetworkList.addressBytes(literal)).isEqualTo(guava.getAddress());
    assertThat(NetworkList.addressText(guava.getAddress()))
        .isEqualTo(InetAddresses.toAddrString(guava));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "1.2.3",
        "1.2.3.4.5",
        "256.1.1.1",
        "01.2.3.4",
        "1.2.3.04",
        "localhost",
        "example.com",
        "[::1]",
        "1::2::3",
        ":::",
        "1:2:3:4:5:6:7:8:9",
        "12345::",
        "::1.2.3",
        ".:",
        "g::1",
        "1.2.3.4:"
      })
  void rejectsWhatGuavaRejected(String literal) {
    assertThatThrownBy(() -> InetAddresses.forString(literal))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> NetworkList.addressBytes(literal))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void printsRandomAddressesAsGuavaDid() throws Exception {
    java.util.SplittableRandom random = new java.util.SplittableRandom(6);
    for (int i = 0; i < 20_000; i++) {
      byte[] bytes = new byte[i % 2 == 0 ? 4 : 16];
      random.nextBytes(bytes);
      for (int b = 0; b < bytes.length; b++) {
        if (random.nextInt(3) == 0) {
          bytes[b] = 0; // runs of zero groups, to compress
        }
      }
      InetAddress address = InetAddress.getByAddress(bytes);
      String text = InetAddresses.toAddrString(address);
      assertThat(NetworkList.addressText(address.getAddress())).isEqualTo(text);
      assertThat(NetworkList.addressBytes(text)).isEqualTo(address.getAddress());
    }
  }

  @Test
  void dropsAnIpv6Scope() {
    assertThat(NetworkList.addressBytes("fe80::1%1")).isEqualTo(ip("fe80::1").getAddress());
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
