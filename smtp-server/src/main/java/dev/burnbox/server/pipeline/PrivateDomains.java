package dev.burnbox.server.pipeline;

import dev.burnbox.mailstore.InboxName;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The served domains whose inboxes are kept apart and read only with a token, and so the inbox each
 * address names. Mail to {@code bob@} a public domain goes to inbox {@code bob}, which every public
 * domain shares and anyone may read (Mailinator's model); mail to {@code bob@team.example}, a
 * private domain, goes to inbox {@code bob@team.example}, which the web port opens only to a token
 * that grants {@code team.example} (see {@code web.ApiTokens}).
 *
 * <p>Domains are compared in the form served domains are ({@link InboxName#canonicalDomain}):
 * lower-case ASCII, an internationalised domain as its {@code xn--} form ({@code bücher.example} is
 * {@code xn--bcher-kva.example}), without a trailing dot ({@code team.example.} is {@code
 * team.example}, so its mail stays private). Immutable and thread-safe.
 *
 * @param domains the private domains, lower-case ASCII
 */
public record PrivateDomains(Set<String> domains) {
  /** No private domains: every inbox is shared and public. */
  public static final PrivateDomains NONE = new PrivateDomains(Set.of());

  /**
   * @throws IllegalArgumentException if a domain is not a valid domain name
   */
  public PrivateDomains {
    Set<String> ascii = new TreeSet<>();
    for (String domain : domains) {
      ascii.add(InboxName.domainName(InboxName.canonicalDomain(domain)));
    }
    domains = Set.copyOf(ascii);
  }

  /**
   * The private domains of a comma-separated list ({@code team.example, qa.example}); blank gives
   * {@link #NONE}.
   *
   * @throws IllegalArgumentException if a domain is not a valid domain name
   */
  public static PrivateDomains parse(String list) {
    if (list == null || list.isBlank()) {
      return NONE;
    }
    return new PrivateDomains(
        Set.copyOf(
            Arrays.stream(list.split(",")).map(String::strip).filter(d -> !d.isEmpty()).toList()));
  }

  /** True if no domain is private. */
  public boolean isEmpty() {
    return domains.isEmpty();
  }

  /** Whether {@code domain} (any case, Unicode or ASCII form) is private. */
  public boolean isPrivate(String domain) {
    if (domains.isEmpty() || domain == null) {
      return false;
    }
    return domains.contains(InboxName.canonicalDomain(domain));
  }

  /**
   * The inbox that mail to {@code address} is delivered to: {@code local@domain} at a private
   * domain, the shared inbox of the local part otherwise.
   *
   * @throws IllegalArgumentException if the address has no domain or its local part is not a valid
   *     inbox name (see {@link InboxName})
   */
  public InboxName inboxOf(String address) {
    Objects.requireNonNull(address, "address");
    int at = address.lastIndexOf('@');
    if (at > 0 && isPrivate(address.substring(at + 1))) {
      return InboxName.of(
          address.substring(0, at), InboxName.canonicalDomain(address.substring(at + 1)));
    }
    return InboxName.fromAddress(address);
  }

  /**
   * The inbox a reader names on the web: a local part ({@code bob}, the shared inbox), or a whole
   * address, which names the inbox its mail goes to ({@link #inboxOf}).
   *
   * @throws IllegalArgumentException if that is not a valid inbox name
   */
  public InboxName inboxNamed(String typed) {
    Objects.requireNonNull(typed, "typed");
    return typed.indexOf('@') < 0 ? InboxName.of(typed) : inboxOf(typed);
  }

  /** The domains, comma-separated, as {@link #parse} reads them. */
  @Override
  public String toString() {
    return String.join(",", domains);
  }
}
