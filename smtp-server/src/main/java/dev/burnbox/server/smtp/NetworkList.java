package dev.burnbox.server.smtp;

import com.google.common.net.InetAddresses;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An immutable list of IPv4 and IPv6 networks in CIDR notation ({@code 127.0.0.0/8}, {@code ::1},
 * {@code 2001:db8::/32}), for questions like "is this client trusted?". Thread-safe.
 *
 * <p>Only address literals are accepted, never host names, so parsing never touches DNS. An entry
 * without a prefix length is a single host. Host bits beyond the prefix are ignored ({@code
 * 10.1.2.3/8} means {@code 10.0.0.0/8}). An IPv4 address never matches an IPv6 network and vice
 * versa (Java already presents IPv4-mapped IPv6 clients as IPv4 addresses).
 */
public final class NetworkList {
  private final List<Network> networks;

  private NetworkList(List<Network> networks) {
    this.networks = List.copyOf(networks);
  }

  /** A list matching nothing. */
  public static NetworkList empty() {
    return new NetworkList(List.of());
  }

  /**
   * Parses networks separated by commas and/or white space, e.g. {@code "127.0.0.0/8, ::1"}.
   *
   * @throws IllegalArgumentException naming the offending entry if one is not an address literal
   *     with an optional prefix length in range (0–32 for IPv4, 0–128 for IPv6)
   */
  public static NetworkList parse(String networks) {
    Objects.requireNonNull(networks, "networks");
    return of(Arrays.stream(networks.split("[,\\s]+")).filter(entry -> !entry.isEmpty()).toList());
  }

  /**
   * Parses one network per entry.
   *
   * @throws IllegalArgumentException as for {@link #parse(String)}, also for an empty entry
   */
  public static NetworkList of(List<String> entries) {
    List<Network> parsed = new ArrayList<>(entries.size());
    for (String entry : entries) {
      parsed.add(Network.parse(entry));
    }
    return new NetworkList(parsed);
  }

  /** True if {@code address} is inside one of the networks. */
  public boolean contains(InetAddress address) {
    byte[] bytes = address.getAddress();
    for (Network network : networks) {
      if (network.contains(bytes)) {
        return true;
      }
    }
    return false;
  }

  /** True if the list has no network. */
  public boolean isEmpty() {
    return networks.isEmpty();
  }

  /** The networks in CIDR notation, comma separated, e.g. {@code 127.0.0.0/8, ::1/128}. */
  @Override
  public String toString() {
    return String.join(", ", networks.stream().map(Network::toString).toList());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof NetworkList list && list.networks.equals(networks);
  }

  @Override
  public int hashCode() {
    return networks.hashCode();
  }

  private record Network(byte[] prefix, int prefixLength) {
    static Network parse(String entry) {
      String trimmed = entry.strip();
      if (trimmed.isEmpty()) {
        throw new IllegalArgumentException("empty network entry");
      }
      int slash = trimmed.indexOf('/');
      String literal = slash < 0 ? trimmed : trimmed.substring(0, slash);
      byte[] address;
      try {
        address = InetAddresses.forString(literal).getAddress();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "not an IPv4 or IPv6 network: '" + entry + "' (" + literal + " is no address literal)");
      }
      int maxLength = address.length * 8;
      int length = maxLength;
      if (slash >= 0) {
        String digits = trimmed.substring(slash + 1);
        if (!digits.matches("\\d{1,3}") || Integer.parseInt(digits) > maxLength) {
          throw new IllegalArgumentException(
              "bad prefix length in '" + entry + "': expected 0 to " + maxLength);
        }
        length = Integer.parseInt(digits);
      }
      return new Network(mask(address, length), length);
    }

    private static byte[] mask(byte[] address, int length) {
      byte[] masked = address.clone();
      for (int i = 0; i < masked.length; i++) {
        int bitsKept = Math.clamp(length - i * 8L, 0, 8);
        masked[i] &= (byte) (0xff00 >> bitsKept);
      }
      return masked;
    }

    boolean contains(byte[] address) {
      return address.length == prefix.length && Arrays.equals(mask(address, prefixLength), prefix);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Network network
          && network.prefixLength == prefixLength
          && Arrays.equals(network.prefix, prefix);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(prefix) + prefixLength;
    }

    @Override
    public String toString() {
      try {
        return InetAddresses.toAddrString(InetAddress.getByAddress(prefix)) + "/" + prefixLength;
      } catch (java.net.UnknownHostException e) {
        throw new IllegalStateException(e); // cannot happen: 4 or 16 bytes
      }
    }
  }
}
