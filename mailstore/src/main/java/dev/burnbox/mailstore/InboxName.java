package dev.burnbox.mailstore;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;
import java.net.IDN;
import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.Locale;
import java.util.Objects;

/**
 * The name of an inbox: the local part of a recipient address, lower-cased; or, for an inbox kept
 * apart for one domain (a private domain, whose mail is not shared with the same local part at the
 * other domains), the local part, {@code @} and that domain: {@code bob@team.example}.
 *
 * <p>Names are case-insensitive ({@code Bob} and {@code bob} are one inbox) and made of letters and
 * digits of any script ({@code jörg}, {@code 张伟}, {@code иван}, as SMTPUTF8 addresses have them),
 * combining marks anywhere but first (so a letter may carry several: {@code ẹ́}, Yoruba, has no
 * precomposed form), {@code .}, {@code -}, {@code _} and {@code +}; no leading or trailing dot and
 * no two dots in a row; 1 to {@value #MAX_LENGTH} characters, counted as Unicode code points of the
 * name's final (NFC) form, so every script has as many ({@code 𐐀}, outside the Basic Multilingual
 * Plane, counts one). A name is the local part in Unicode NFC, lower-cased ({@link Locale#ROOT}),
 * so precomposed and decomposed {@code ö} are one inbox. Controls, spaces, separators, symbols and
 * punctuation other than those four are refused. Non-ASCII names need percent-encoding in a URL. A
 * {@code +tag} (everything from the first {@code +}) is part of the name; {@link #withoutTag()}
 * drops it, which a store does for every name when built with {@link
 * InboxStore.Builder#stripPlusTags(boolean)}. The part before the first {@code +} obeys the same
 * rules as the whole name, so it is never empty. A domain is lower-cased ASCII (an
 * internationalised domain in its {@code xn--} form): labels of 1 to {@value #MAX_LABEL_LENGTH}
 * letters, digits and inner hyphens, separated by single dots, at most {@value #MAX_DOMAIN_LENGTH}
 * characters.
 *
 * <p>Immutable and thread-safe; equal names have equal {@link #value()}s.
 */
public final class InboxName implements Comparable<InboxName> {
  /**
   * The longest name accepted, in code points (the SMTP limit on a local part, which RFC 5321
   * counts in octets, counted per character so that no script gets fewer).
   */
  public static final int MAX_LENGTH = 64;

  /** The longest domain accepted in a name, in characters (the DNS limit on a name). */
  public static final int MAX_DOMAIN_LENGTH = 253;

  /** The longest label of such a domain, in characters (the DNS limit on a label). */
  public static final int MAX_LABEL_LENGTH = 63;

  /**
   * SipHash-2-4 under a key drawn once a process: senders cannot choose names whose hashes collide,
   * which a table of inboxes probed by {@link String#hashCode} would let them do.
   */
  private static final HashFunction KEYED = keyedHashing();

  private final String value;
  private int keyedHash; // 0: not computed yet (racy but idempotent, as String#hashCode)

  private InboxName(String value) {
    this.value = value;
  }

  private static HashFunction keyedHashing() {
    SecureRandom random = new SecureRandom();
    return Hashing.sipHash24(random.nextLong(), random.nextLong());
  }

  /**
   * A hash of this name's value that senders cannot aim (SipHash under a per-process secret key):
   * what a hash table of names that senders choose must be keyed by. Computed once a name; never 0.
   */
  int keyedHash() {
    int h = keyedHash;
    if (h == 0) {
      h = KEYED.hashUnencodedChars(value).asInt();
      h = h == 0 ? 1 : h;
      keyedHash = h;
    }
    return h;
  }

  /**
   * The name whose {@link #value()} is {@code value}, which must have come from one: for a holder
   * that keeps only the string. Not checked again.
   */
  static InboxName ofValue(String value) {
    return new InboxName(value);
  }

  /**
   * The inbox for a local part such as {@code Bob+news}, or for {@code local@domain}: the inbox
   * kept apart for that domain (what {@link #value()} gives back for such an inbox).
   *
   * @throws NullPointerException if {@code name} is null
   * @throws IllegalArgumentException if it is not a valid name (see the class comment)
   */
  public static InboxName of(String name) {
    Objects.requireNonNull(name, "name");
    int at = name.lastIndexOf('@');
    return at < 0
        ? new InboxName(localName(name))
        : of(name.substring(0, at), name.substring(at + 1));
  }

  /**
   * The inbox of {@code localPart} kept apart for {@code domain}: {@code bob@team.example}.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the local part is not a valid name or the domain not a
   *     valid domain (see the class comment)
   */
  public static InboxName of(String localPart, String domain) {
    Objects.requireNonNull(localPart, "localPart");
    return new InboxName(localName(localPart) + "@" + domainName(domain));
  }

  /**
   * The one form in which Burnbox compares domains (served domains, private domains, webhook
   * scopes): lower case, no trailing dot, IDNs as punycode ({@code bücher.test} → {@code
   * xn--bcher-kva.test}); what IDNA cannot convert is only lower-cased. Not checked: {@link
   * #domainName} checks.
   */
  public static String canonicalDomain(String domain) {
    String lower = domain.strip().toLowerCase(Locale.ROOT);
    if (lower.endsWith(".")) {
      lower = lower.substring(0, lower.length() - 1);
    }
    try {
      return IDN.toASCII(lower, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException notAnIdn) {
      return lower;
    }
  }

  /**
   * A domain as names hold it: lower-cased ASCII.
   *
   * @throws NullPointerException if {@code domain} is null
   * @throws IllegalArgumentException if it is not a valid domain (see the class comment)
   */
  public static String domainName(String domain) {
    Objects.requireNonNull(domain, "domain");
    String d = domain.toLowerCase(Locale.ROOT);
    if (d.isEmpty() || d.length() > MAX_DOMAIN_LENGTH) {
      throw new IllegalArgumentException(
          "domain must have 1 to " + MAX_DOMAIN_LENGTH + " characters: " + excerpt(domain));
    }
    for (String label : d.split("\\.", -1)) {
      if (label.length() > MAX_LABEL_LENGTH) {
        throw new IllegalArgumentException(
            "domain labels must have at most "
                + MAX_LABEL_LENGTH
                + " characters: "
                + excerpt(domain));
      }
      boolean ok = !label.isEmpty() && label.charAt(0) != '-' && !label.endsWith("-");
      for (int i = 0; ok && i < label.length(); i++) {
        char c = label.charAt(i);
        ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
      }
      if (!ok) {
        throw new IllegalArgumentException(
            "domain must be labels of ASCII letters, digits and inner hyphens separated by single"
                + " dots: "
                + excerpt(domain));
      }
    }
    return d;
  }

  private static String localName(String localPart) {
    validate(localPart, "inbox name");
    int plus = localPart.indexOf('+');
    if (plus >= 0) {
      validate(localPart.substring(0, plus), "inbox name before '+'");
    }
    // NFC before and after lower-casing, which may decompose or turn letters into ASCII (the Kelvin
    // sign becomes k): validated on the final form too, whose code points are what is counted
    String name =
        Normalizer.normalize(
            Normalizer.normalize(localPart, Normalizer.Form.NFC).toLowerCase(Locale.ROOT),
            Normalizer.Form.NFC);
    validate(name, "inbox name");
    if (name.codePointCount(0, name.length()) > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "inbox name is longer than " + MAX_LENGTH + " characters: " + excerpt(name));
    }
    return name;
  }

  /**
   * The inbox every domain shares for a full address {@code local@domain}: its local part's. The
   * domain is not checked beyond being non-empty (which domains are served, and which keep their
   * inboxes apart, is the SMTP layer's business).
   *
   * @throws NullPointerException if {@code address} is null
   * @throws IllegalArgumentException if there is no {@code @}, the domain is empty, or the local
   *     part is not a valid name
   */
  public static InboxName fromAddress(String address) {
    Objects.requireNonNull(address, "address");
    int at = address.lastIndexOf('@');
    if (at < 0) {
      throw new IllegalArgumentException("address has no '@': " + excerpt(address));
    }
    if (at == address.length() - 1) {
      throw new IllegalArgumentException("address has an empty domain: " + excerpt(address));
    }
    return new InboxName(localName(address.substring(0, at)));
  }

  /** Checks the characters and dots of {@code s}; the length is checked on the final form. */
  private static void validate(String s, String what) {
    if (s.isEmpty()) {
      throw new IllegalArgumentException(what + " is empty");
    }
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      boolean ok =
          Character.isLetterOrDigit(c)
              || (i > 0 && isMark(c)) // a mark on the letter before it
              || c == '.'
              || c == '-'
              || c == '_'
              || c == '+';
      if (!ok) {
        throw new IllegalArgumentException(
            String.format(
                "%s may hold letters, digits and . _ + - only, not U+%04X (index %d): %s",
                what, c, i, excerpt(s)));
      }
      if (c == '.' && i + 1 < s.length() && s.charAt(i + 1) == '.') {
        throw new IllegalArgumentException(what + " has two dots in a row: " + excerpt(s));
      }
      i += Character.charCount(c);
    }
    if (s.charAt(0) == '.' || s.charAt(s.length() - 1) == '.') {
      throw new IllegalArgumentException(what + " starts or ends with a dot: " + excerpt(s));
    }
  }

  private static boolean isMark(int c) {
    int type = Character.getType(c);
    return type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK;
  }

  // Names come from hostile senders: quote at most a bounded, escaped prefix in messages.
  private static String excerpt(String s) {
    StringBuilder out = new StringBuilder("\"");
    int n = Math.min(s.length(), MAX_LENGTH);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
        out.append(c);
      } else {
        out.append(String.format("\\u%04x", (int) c));
      }
    }
    return out.append(s.length() > n ? "\"..." : "\"").toString();
  }

  /** The lower-cased name, including any {@code +tag} and any {@code @domain}. */
  public String value() {
    return value;
  }

  /** The domain this inbox is kept apart for, or null for an inbox shared by every domain. */
  public String domain() {
    int at = value.indexOf('@');
    return at < 0 ? null : value.substring(at + 1);
  }

  /** True if the name has a {@code +tag}. */
  public boolean hasTag() {
    int plus = value.indexOf('+');
    return plus >= 0 && plus < localEnd();
  }

  /**
   * This name without its {@code +tag} ({@code bob+news} becomes {@code bob}, {@code
   * bob+news@team.example} becomes {@code bob@team.example}); this if none.
   */
  public InboxName withoutTag() {
    if (!hasTag()) {
      return this;
    }
    return new InboxName(value.substring(0, value.indexOf('+')) + value.substring(localEnd()));
  }

  private int localEnd() {
    int at = value.indexOf('@');
    return at < 0 ? value.length() : at;
  }

  @Override
  public int compareTo(InboxName other) {
    return value.compareTo(other.value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof InboxName other && value.equals(other.value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  /** The same as {@link #value()}. */
  @Override
  public String toString() {
    return value;
  }
}
