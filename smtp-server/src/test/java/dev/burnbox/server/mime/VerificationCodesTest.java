package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerificationCodesTest {
  private static List<String> codes(String text) {
    return VerificationCodes.find(text).stream().map(VerificationCodes.Code::code).toList();
  }

  @Test
  void findsCodesAnnouncedInSeveralLanguagesAndShapes() {
    assertThat(codes("Your verification code is 493027.")).containsExactly("493027");
    assertThat(codes("493027 is your login code")).containsExactly("493027");
    assertThat(codes("Use code 493 027 to sign in")).containsExactly("493 027");
    assertThat(codes("Your one-time password: K7QX2M")).containsExactly("K7QX2M");
    assertThat(codes("Ihr Bestätigungscode lautet 8812")).containsExactly("8812");
    assertThat(codes("Votre code de vérification : 55-1234")).isEmpty();
    assertThat(codes("Tu código de verificación es 7731")).containsExactly("7731");
    assertThat(codes("Il tuo codice è 123456")).containsExactly("123456");
    assertThat(codes("Je verificatiecode: 204981")).containsExactly("204981");
  }

  @Test
  void numbersThatAreNoCodesAreLeftOut() {
    assertThat(codes("Your order 12345 ships on 2026-11-25; total $1234.50")).isEmpty();
    assertThat(codes("Use promo code on 3.5 GHz models, 1,000 units, 50% off")).isEmpty();
    assertThat(codes("Your code: WELCOME")).as("no digit").isEmpty();
    assertThat(codes("Call 0800 123 456 for the code")).doesNotContain("0800");
  }

  @Test
  void theClosestCodeComesFirstWithItsContext() {
    List<VerificationCodes.Code> found =
        VerificationCodes.find(
            "Order 88123 confirmed.\nYour security code is 604112, valid 10 min.");
    assertThat(found.get(0).code()).isEqualTo("604112");
    assertThat(found.get(0).context()).contains("security code is 604112");
  }

  @Test
  void readsTheSubjectTextAndHtmlOfADecodedMail() {
    String raw =
        "Subject: =?UTF-8?Q?Dein_Code:_7781?=\r\n"
            + "Content-Type: text/html; charset=utf-8\r\n"
            + "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
            + "<p>Your verification code:</p><p><b>3=\r\n90211</b></p>\r\n";
    DecodedMail mail = MailDecoder.withDefaults().decode(raw.getBytes(StandardCharsets.UTF_8));
    assertThat(VerificationCodes.of(mail).stream().map(VerificationCodes.Code::code))
        .containsExactly("7781", "390211");
  }
}
