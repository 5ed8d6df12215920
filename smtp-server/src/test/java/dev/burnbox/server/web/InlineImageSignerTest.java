package dev.burnbox.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.burnbox.mailstore.InboxName;
import dev.burnbox.mailstore.MessageId;
import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.mailstore.SpamVerdict;
import dev.burnbox.server.pipeline.PrivateDomains;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link InlineImageSigner}'s key follows the deployment's secrets: a changed tokens file voids
 * every URL made before, and with no secret at all nothing is signed and nothing accepted. (The
 * route that checks its URLs: {@code WebApiTest.aPrivateInboxsInlineImageOpensWithItsSignedUrl...}
 * and, in Chromium, {@code WebBrowserTest.anInlineImageShowsAtOnceInAPrivateInboxToo}.)
 */
class InlineImageSignerTest {
  private static final String TEAM = "team-0123456789abcdef";
  private static final MessageSummary PRIVATE_MAIL = summary("bob@team.test");

  @TempDir Path dir;

  private static MessageSummary summary(String inbox) {
    return new MessageSummary(
        MessageId.parse("mAiLiDmAiLiDmAiLiD-_0w"),
        InboxName.of(inbox),
        "ann@example.test",
        "Ann <ann@example.test>",
        "logo",
        Instant.now(),
        100,
        SpamVerdict.CLEAN);
  }

  /** Access to private domain team.test with {@code adminToken} and the tokens of a file. */
  private static WebAccess access(String adminToken, Path tokensFile) throws Exception {
    return new WebAccess(
        CorsPolicy.NONE,
        adminToken,
        PrivateDomains.parse("team.test"),
        tokensFile == null ? ApiTokens.none() : ApiTokens.read(tokensFile));
  }

  /** Whether {@code signer} lets {@code url} (a path with its query) through. */
  private static boolean allows(InlineImageSigner signer, String url) {
    URI uri = URI.create(url);
    String[] path = uri.getPath().split("/");
    String exp = null;
    String sig = null;
    for (String parameter : uri.getQuery().split("&")) {
      String value = parameter.substring(parameter.indexOf('=') + 1);
      if (parameter.startsWith("exp=")) {
        exp = value;
      } else if (parameter.startsWith("sig=")) {
        sig = value;
      }
    }
    return signer.allows(path[2], Integer.parseInt(path[4]), exp, sig);
  }

  @Test
  void aChangedTokensFileVoidsEveryUrlMadeBefore() throws Exception {
    Path file = dir.resolve("tokens");
    Files.write(file, List.of(TEAM + " team.test"));
    InlineImageSigner signer = new InlineImageSigner(access(null, file));
    String url = signer.url(PRIVATE_MAIL, 2);
    assertThat(allows(signer, url)).isTrue();
    assertThat(allows(new InlineImageSigner(access(null, file)), url))
        .as("another node with the same file")
        .isTrue();

    Files.write(file, List.of(TEAM + " team.test,other.test"));
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
    Thread.sleep(1_100); // the file is checked at most once a second
    assertThat(allows(signer, url)).as("a token's grants changed").isFalse();
    assertThat(allows(signer, signer.url(PRIVATE_MAIL, 2))).isTrue();
  }

  @Test
  void withoutASecretNothingIsSignedAndNothingAccepted() throws Exception {
    Path empty = Files.createFile(dir.resolve("no-tokens"));
    InlineImageSigner unkeyed = new InlineImageSigner(access(null, empty));
    String path = InlineImages.path(PRIVATE_MAIL.id().value(), 0);
    assertThat(unkeyed.url(PRIVATE_MAIL, 0)).isEqualTo(path);

    Path file = dir.resolve("tokens");
    Files.write(file, List.of(TEAM + " team.test"));
    String signed = new InlineImageSigner(access(null, file)).url(PRIVATE_MAIL, 0);
    assertThat(allows(unkeyed, signed)).isFalse();
  }

  @Test
  void aSharedInboxsImageKeepsItsPlainUrl() throws Exception {
    MessageSummary shared = summary("bob");
    InlineImageSigner signer = new InlineImageSigner(access("op-0123456789abcdefgh", null));
    assertThat(signer.url(shared, 1)).isEqualTo(InlineImages.path(shared.id().value(), 1));
  }
}
