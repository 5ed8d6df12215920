package dev.burnbox.server.web;

import dev.burnbox.mailstore.MessageSummary;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signed URLs for the inline images of a private inbox's mail. The mail view's sandboxed frame has
 * an opaque origin, so the images it loads go without the reader's {@code SameSite=Strict} token
 * cookie; their URLs carry a capability instead: {@code /message/{id}/inline/{n}?exp=E&sig=S},
 * where {@code E} is when it stops working (Unix seconds, {@link #LIFETIME} after the HTML was
 * rendered) and {@code S} the HMAC-SHA256 of the message id, {@code n} and {@code E}, base64url.
 *
 * <p>The key is {@link WebAccess#derivedKey derived} from the operator token and the tokens of
 * {@code --api-tokens-file}: every node of a deployment with the same configuration makes and
 * accepts the same URLs with no setting of its own, and changing any token voids every URL made
 * before. A URL opens that one part of that one message until it expires, and holds no token. Mail
 * of shared inboxes keeps unsigned URLs (it needs no token). Thread-safe.
 */
final class InlineImageSigner {
  /** How long a signed URL works after the mail HTML naming it was rendered. */
  static final Duration LIFETIME = Duration.ofHours(4);

  private static final String KEY_PURPOSE = "burnbox inline image URL v1";
  private static final String HMAC = "HmacSHA256";

  private final WebAccess access;
  private final Clock clock;

  /**
   * @param access the secrets the key is derived from
   * @param clock the time URLs are made and checked at
   */
  InlineImageSigner(WebAccess access, Clock clock) {
    this.access = Objects.requireNonNull(access, "access");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  InlineImageSigner(WebAccess access) {
    this(access, Clock.systemUTC());
  }

  /**
   * The URL of part {@code index} of {@code message} as an inline image: {@link InlineImages#path},
   * signed for {@link #LIFETIME} if the message is in a private inbox.
   */
  String url(MessageSummary message, int index) {
    String id = message.id().value();
    String path = InlineImages.path(id, index);
    byte[] key = access.derivedKey(KEY_PURPOSE);
    if (message.inbox().domain() == null || key == null) {
      return path; // with no key, nobody can read the inbox anyway
    }
    long expires = clock.instant().plus(LIFETIME).getEpochSecond();
    return path + "?exp=" + expires + "&sig=" + signature(key, id, index, expires);
  }

  /**
   * Whether {@code exp} and {@code sig} (the query parameters, null if absent) sign part {@code
   * index} of message {@code id} and {@code exp} has not passed; compared in constant time.
   */
  boolean allows(String id, int index, String exp, String sig) {
    byte[] key = access.derivedKey(KEY_PURPOSE);
    if (key == null || exp == null || sig == null) {
      return false;
    }
    long expires;
    try {
      expires = Long.parseLong(exp);
    } catch (NumberFormatException e) {
      return false;
    }
    return clock.instant().getEpochSecond() < expires
        && MessageDigest.isEqual(
            signature(key, id, index, expires).getBytes(StandardCharsets.US_ASCII),
            sig.getBytes(StandardCharsets.UTF_8));
  }

  private static String signature(byte[] key, String id, int index, long expires) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(key, HMAC));
      byte[] signed =
          mac.doFinal((id + "\n" + index + "\n" + expires).getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(signed);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JDK has " + HMAC, e);
    }
  }
}
