package dev.burnbox.server.mime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The likely one-time codes of a decoded message, for tests that read a verification code: tokens
 * of 4 to 8 digits (also written in groups, {@code 493 027}, {@code 493-027}), or of 6 to 8 capital
 * letters and digits with at least one digit ({@code K7QX2M}), found within {@value #NEAR}
 * characters after, or {@value #NEAR_BEFORE} before, a word that announces a code: code,
 * verification, verify, confirm, OTP, one-time, passcode, password, PIN, token, security, login
 * (and German, French, Spanish, Portuguese, Italian and Dutch equivalents). Searched in the subject
 * and the visible text ({@link DecodedMail#scanText()}: text parts, then the HTML's text, invisible
 * characters dropped). Each code is reported once, with the text around it, closest to its keyword
 * first.
 *
 * <p>Heuristic by nature: a year or a price right after "code" can be reported, and a code with no
 * announcing word is not. Stateless and thread-safe; O(size of the text).
 */
public final class VerificationCodes {
  /** How far after a keyword a code is looked for, in characters. */
  static final int NEAR = 80;

  /** How far before a keyword a code is looked for ("493027 is your code"). */
  static final int NEAR_BEFORE = 30;

  private static final Pattern KEYWORD =
      Pattern.compile(
          "(?iu)\\b(?:codes?|verification|verify|verif\\w*|confirm\\w*|otp|one[- ]time|passcode"
              + "|password|pin|token|security|sign[- ]?in|log[- ]?in|best\\u00e4tigung\\w*"
              + "|bestaetigung\\w*|sicherheitscode|c\\u00f3digo|codigo|v\\u00e9rification"
              + "|verificaci\\u00f3n|verifica\\u00e7\\u00e3o|codice|verificatie\\w*|inlogcode)\\b");

  private static final Pattern CODE =
      Pattern.compile(
          "(?<![\\w.,/$\\u20ac\\u00a3:-])"
              + "(\\d{3}[ -]\\d{3}|\\d{4,8}|(?=[A-Z0-9]{6,8}\\b)(?=[A-Z]*\\d)[A-Z0-9]*[A-Z][A-Z0-9]*)"
              + "(?![\\w/%\\u20ac:-]|[.,]\\d)");

  /**
   * One code.
   *
   * @param code the code as written (digit groups keep their separator)
   * @param context up to 40 characters either side, on one line
   */
  public record Code(String code, String context) {}

  private VerificationCodes() {}

  /** The likely codes of {@code mail}; see the class comment. */
  public static List<Code> of(DecodedMail mail) {
    return find(mail.scanText());
  }

  /** The likely codes of {@code text}, closest to a keyword first. */
  static List<Code> find(String text) {
    Map<String, int[]> best = new LinkedHashMap<>(); // code -> {distance, start, end}
    Matcher keyword = KEYWORD.matcher(text);
    Matcher code = CODE.matcher(text);
    while (keyword.find()) {
      int from = Math.max(0, keyword.start() - NEAR_BEFORE);
      int to = Math.min(text.length(), keyword.end() + NEAR);
      code.region(from, to);
      while (code.find()) {
        if (code.start() < keyword.end() && code.end() > keyword.start()) {
          continue; // inside the keyword itself
        }
        if (code.end() <= keyword.start() && !startsSentence(text, code.start())) {
          continue; // before its keyword only as in "493027 is your code", not mid-sentence
        }
        int distance =
            code.start() >= keyword.end()
                ? code.start() - keyword.end()
                : keyword.start() - code.end() + NEAR; // before the keyword: ranked after
        int[] known = best.get(code.group(1));
        if (known == null || distance < known[0]) {
          best.put(code.group(1), new int[] {distance, code.start(), code.end()});
        }
      }
    }
    List<Map.Entry<String, int[]>> ranked = new ArrayList<>(best.entrySet());
    ranked.sort((a, b) -> Integer.compare(a.getValue()[0], b.getValue()[0]));
    List<Code> out = new ArrayList<>();
    for (Map.Entry<String, int[]> entry : ranked) {
      out.add(new Code(entry.getKey(), context(text, entry.getValue()[1], entry.getValue()[2])));
    }
    return out;
  }

  /** Whether only white space lies between {@code at} and the start of a line or sentence. */
  private static boolean startsSentence(String text, int at) {
    int i = at - 1;
    while (i >= 0 && text.charAt(i) == ' ') {
      i--;
    }
    return i < 0 || ".!?:\n".indexOf(text.charAt(i)) >= 0;
  }

  private static String context(String text, int start, int end) {
    int from = Math.max(0, start - 40);
    int to = Math.min(text.length(), end + 40);
    return text.substring(from, to).replaceAll("\\s+", " ").strip();
  }
}
