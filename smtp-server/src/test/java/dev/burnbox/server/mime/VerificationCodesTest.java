package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class VerificationCodesTest {
  private static List<String> codes(String text) {
    return VerificationCodes.find(text).stream().map(VerificationCodes.Code::code).toList();
  }

  private static Arguments mail(String what, String text, String... codes) {
    return Arguments.of(what, text, List.of(codes));
  }

  /** Sign-up mails and what a test should read from them, each code as written, best first. */
  static Stream<Arguments> signUpMails() {
    return Stream.of(
        // codes as sign-up mails write them, in each language with keywords
        mail("en", "Your verification code is 493027.", "493027"),
        mail("en, code first", "493027 is your login code", "493027"),
        mail("en, capitals and digits", "Your one-time password: K7QX2M", "K7QX2M"),
        mail("de", "Ihr Bestätigungscode lautet 8812", "8812"),
        mail("de, separable verb", "Geben Sie den Code 604112 an, um fortzufahren.", "604112"),
        mail("fr", "Votre code de vérification : 604112\nIl expire dans 10 minutes.", "604112"),
        mail("es", "Tu código de verificación es 7731. Caduca en 10 minutos.", "7731"),
        mail("pt", "O seu código de verificação é 4821.", "4821"),
        mail("it", "Il tuo codice è 123456", "123456"),
        mail("nl", "Je verificatiecode: 204981", "204981"),
        mail("a code that looks like a year, announced", "Your code is 2026.", "2026"),
        mail("it, a year-like code announced", "Il tuo codice è 1984", "1984"),

        // 1. a number crossing the end of the search window is read whole, never cut
        mail(
            "crossing the window (pl:)",
            "Here is your code. Enter it in the app where you started signing up, within ten"
                + " minutes, pl: 604112",
            "604112"),
        mail(
            "crossing the window (p:)",
            "Here is your code. Enter it in the app where you started signing up, within ten"
                + " minutes, p: 604112",
            "604112"),
        mail(
            "crossing the window, 8 digits",
            "Here is your code. Type it into the app where you started signing up, within ten"
                + " minutes: 48213977",
            "48213977"),
        mail(
            "an order number crossing the window",
            "Your code was sent in another message. For questions about this order, quote"
                + " Order #88231947"),
        mail(
            "a number past the window is not found at all",
            "Here is your code. Enter it in the app where you started signing up, within ten"
                + " minutes, please, thank you: 604112"),

        // 2. grouped codes are one code
        mail("4+4 by a space", "Verification code: 1234 5678", "1234 5678"),
        mail("4+4 by a hyphen", "Verification code: 1234-5678", "1234-5678"),
        mail("4+3", "Verification code: 1234 567", "1234 567"),
        mail("3+3 by a space", "Use code 493 027 to sign in", "493 027"),
        mail("3+3 by a hyphen", "Your Microsoft security code: 493-027", "493-027"),
        mail("3+3 by a dot", "Tu código de acceso: 604.112", "604.112"),
        mail("2+2+2", "Ihr Sicherheitscode: 12-34-56", "12-34-56"),
        mail("2+4", "Votre code de vérification : 55-1234", "55-1234"),
        mail("a card number is no code", "Your verification code: 1234 5678 9012 3456"),

        // 3. URLs and e-mail addresses
        mail(
            "a number in a URL after the code",
            "Your code is 604112.\n\nhttps://app.example/v?code=777888",
            "604112"),
        mail(
            "a number in a link's query",
            "Click the link to verify: https://app.example/v?token=ABCD1234EF&id=99887766"),
        mail(
            "a number alone in a link's query",
            "Verify with code 604112 or open https://app.example/v?777888",
            "604112"),
        mail(
            "a link without a scheme",
            "Confirm your address: www.app.example/confirm/48213977 or type 604112",
            "604112"),
        mail(
            "a number in an e-mail address",
            "Your code is 604112. Questions? Write to support+48213977@app.example",
            "604112"),

        // 4. identifiers, years, phone numbers, postcodes, prices, times and dates
        mail("an order number first", "Your login code for order 4821 is 604112", "604112"),
        mail(
            "order #",
            "Order #88231947 confirmed.\nYour security code is 604112, valid 10 min.",
            "604112"),
        mail("invoice no.", "Invoice no. 4821: confirm with code 604112", "604112"),
        mail("de, Bestellnummer", "Bestätigung Ihrer Bestellnummer 48213977"),
        mail("fr, commande n°", "Confirmation de votre commande n° 48213"),
        mail("ticket and ref", "Login problem, ticket 4821 (ref: AB12CD34)"),
        mail(
            "a year in the subject",
            "Security update – March 2026\nYour login code is 604112.",
            "604112"),
        mail(
            "a date and time in words",
            "New sign-in on 27 November 2026 at 12:30.\nYour code: 604112",
            "604112"),
        mail("ISO date", "Sign-in attempt on 2026-11-27 at 12:30. Code: 604112", "604112"),
        mail("de, dotted date", "Ihr Code vom 27.11.2026 um 12:30 Uhr: 604112", "604112"),
        mail(
            "nl, hyphenated date",
            "Inlogcode aangevraagd op 27-11-2026. Je code is 604112",
            "604112"),
        mail("de, time with a dot", "Ihr Code gilt bis 12.30 Uhr: 604112", "604112"),
        mail("a phone number", "Didn't request this code? Call 0800 123 4567."),
        mail("a phone number with an area code", "Questions about your code? (0800) 123 4567"),
        mail("de, Tel.", "Fragen zum Sicherheitscode? Tel. 1234 5678"),
        mail("an international number", "Security questions: +49 1234 5678"),
        mail(
            "de, an address line",
            "Ihr Code: 604112\nExample GmbH, Musterstraße 12, 10115 Berlin",
            "604112"),
        mail(
            "de, an address block",
            "Ihr Sicherheitscode: 604112\nExample GmbH\nMusterstraße 12\n10115 Berlin",
            "604112"),
        mail(
            "fr, an address line",
            "Votre code : 604112\nExample SAS, 10 rue de Rivoli, 75001 Paris",
            "604112"),
        mail(
            "nl, an address line",
            "Je code: 604112\nExample B.V., Keizersgracht 1, 1015 CJ Amsterdam",
            "604112"),
        mail(
            "pt, an address line",
            "O seu código: 604112\nExample Lda, Rua Augusta 10, 1100-053 Lisboa",
            "604112"),
        mail(
            "us, an address line",
            "Your security code: 604112 · Example Inc., 123 Main St, Springfield, IL 62704",
            "604112"),
        mail("a price in dollars", "Confirm your payment of $1234 with code 604112", "604112"),
        mail(
            "a price in euros",
            "Confirm your payment: 1 234,00 € (12 345 EUR in all). Code: 604112",
            "604112"),
        mail("a duration", "Votre code : 604112 (valable 10-15 minutes)", "604112"),
        mail("a fullwidth digit", "Your code is 60411２", "604112"),
        mail(
            "an account number",
            "Your verification code is 604112. Your account number is 12345678.",
            "604112"),
        mail(
            "an account number with a colon",
            "Security code 604112, account number: 48213977",
            "604112"),
        mail("a letter prefix", "G-123456 is your Google verification code.", "G-123456"),
        mail("a code joined to its keyword by =", "Your login: code=918273", "918273"),
        mail("a code joined to its keyword by :", "Verification code:918273", "918273"),
        mail("no keyword, no code", "Your order 12345 ships on 2026-11-25; total $1234.50"),
        mail("no number", "Use promo code on 3.5 GHz models, 1,000 units, 50% off"),
        mail("no digit", "Your code: WELCOME"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("signUpMails")
  void readsTheCodeOfASignUpMailAndNothingElse(String what, String text, List<String> expected) {
    assertThat(codes(text)).as(text).containsExactlyElementsOf(expected);
  }

  @Test
  void theCrossingCasesStartInsideTheWindowAndEndPastIt() {
    List<Object[]> crossing =
        signUpMails()
            .map(Arguments::get)
            .filter(mail -> ((String) mail[0]).contains("crossing the window"))
            .toList();
    assertThat(crossing).hasSize(4);
    for (Object[] mail : crossing) {
      String text = (String) mail[1];
      String number = text.substring(text.lastIndexOf(' ') + 1).replace("#", "");
      int gap = text.indexOf(number) - (text.indexOf("code") + "code".length());
      assertThat(gap).as(text).isLessThanOrEqualTo(VerificationCodes.NEAR);
      assertThat(gap + number.length()).as(text).isGreaterThan(VerificationCodes.NEAR);
    }
  }

  @Test
  void aGroupedCodeIsTypedWithoutItsSeparators() {
    assertThat(VerificationCodes.find("Verification code: 1234-5678"))
        .extracting(VerificationCodes.Code::code, VerificationCodes.Code::value)
        .containsExactly(tuple("1234-5678", "12345678"));
    assertThat(VerificationCodes.find("Use code 493 027 or K7QX2M to sign in"))
        .extracting(VerificationCodes.Code::value)
        .containsExactly("493027", "K7QX2M");
    assertThat(VerificationCodes.find("Code 493 027\nYour code: 493027"))
        .as("once, as written closest to its keyword")
        .extracting(VerificationCodes.Code::code)
        .containsExactly("493 027");
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

  /** README's recipe types codes[0]: the current code, not the one the mail says is stale. */
  @Test
  void aCodeTheMailCallsPreviousOrInvalidRanksLast() {
    assertThat(codes("Your code is 123456\nYour previous code 654321 is no longer valid."))
        .containsExactly("123456", "654321");
    assertThat(codes("The old code 111111 has expired. Your new code: 222222"))
        .containsExactly("222222", "111111");
  }

  /**
   * Codes as near their keywords rank in the order of those occurrences in the mail; a code seen
   * twice kept the place of its first, farther occurrence instead.
   */
  @Test
  void amongCodesAsNearTheirKeywordTheEarlierComesFirst() {
    assertThat(codes("Code  222222 for the web.\nCode 111111 for the app.\nCode 222222 again."))
        .containsExactly("111111", "222222");
  }

  /** A letter prefix is written with the code but not typed: the form asks for the digits. */
  @Test
  void aCodeWithALetterPrefixIsTypedAsItsDigits() {
    assertThat(VerificationCodes.find("G-123456 is your Google verification code"))
        .extracting(VerificationCodes.Code::code, VerificationCodes.Code::value)
        .containsExactly(tuple("G-123456", "123456"));
  }

  /** The HTML's text joins digits split across inline elements of one line. */
  @Test
  void digitsSplitAcrossBoldElementsOfOneLineAreOneCode() {
    String raw =
        "Content-Type: text/html; charset=utf-8\r\n\r\n"
            + "<p>Your verification code is <b>4</b><b>9</b><b>3</b><b>0</b><b>2</b><b>7</b></p>"
            + "\r\n";
    DecodedMail mail = MailDecoder.withDefaults().decode(raw.getBytes(StandardCharsets.UTF_8));
    assertThat(VerificationCodes.of(mail).stream().map(VerificationCodes.Code::value))
        .containsExactly("493027");
  }
}
