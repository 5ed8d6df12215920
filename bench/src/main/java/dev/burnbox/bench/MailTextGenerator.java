package dev.burnbox.bench;

import java.util.Random;

/**
 * Deterministic mail-like text for when the real corpus is absent: English-looking prose with
 * quoted replies, signatures, URLs and numbers for ham, and the same plus shouting, money, HTML and
 * the usual spam phrases for spam.
 *
 * <p>It only has to look like mail to a matcher (word lengths, punctuation, line breaks, some upper
 * case); published numbers should come from the real corpus. Not thread-safe.
 */
final class MailTextGenerator {
  private static final String[] WORDS =
      ("the of and to in is that it for was on are as with be at this have from or had by not but"
              + " what all were when we there can an your which their said if will each about how up"
              + " out them then she many some so these would other into has more her two like him see"
              + " time could no make than first been its who now people my made over did down only way"
              + " find use may water long little very after words called just where most know get"
              + " through back much before go good new write our used me man too any day same right"
              + " look think also around another came come work three must because does part even"
              + " place well such here take why help put different away again off went old number"
              + " server kernel patch build release package mailing list thread config debian python"
              + " perl script network machine disk memory update version install error message file"
              + " folder meeting tomorrow thanks regards question answer problem issue bug report")
          .split(" ");
  private static final String[] SPAM_PHRASES = {
    "click here", "free", "100% guaranteed", "act now", "limited time offer", "unsubscribe",
    "remove me", "no obligation", "risk free", "order now", "credit card", "lose weight",
    "earn money from home", "cash bonus", "winner", "viagra", "lowest price", "mortgage rates",
    "special promotion", "this is not spam", "dear friend", "call now", "buy direct", "save big"
  };

  private final Random random;

  MailTextGenerator(Random random) {
    this.random = random;
  }

  /** One ham body of roughly 0.5 to 5 KB. */
  String hamBody() {
    StringBuilder out = new StringBuilder();
    int paragraphs = 1 + random.nextInt(6);
    if (random.nextInt(3) == 0) {
      out.append("On ").append(1 + random.nextInt(28)).append(" Aug 2002, someone wrote:\n");
      appendParagraph(out, "> ", null);
    }
    for (int p = 0; p < paragraphs; p++) {
      appendParagraph(out, "", null);
    }
    if (random.nextBoolean()) {
      out.append("http://www.example.org/").append(word()).append('/').append(random.nextInt(999));
      out.append("\n\n");
    }
    out.append("-- \n").append(capitalised(word())).append(' ').append(capitalised(word()));
    out.append("\n_______________________________________________\n");
    return out.toString();
  }

  /** One spam body of roughly 0.5 to 5 KB, with many spam phrases and some HTML. */
  String spamBody() {
    StringBuilder out = new StringBuilder();
    boolean html = random.nextBoolean();
    if (html) {
      out.append("<html><body><font size=\"4\" color=\"#FF0000\">");
    }
    int paragraphs = 1 + random.nextInt(6);
    for (int p = 0; p < paragraphs; p++) {
      appendParagraph(out, "", SPAM_PHRASES);
      if (html) {
        out.append("<br><a href=\"http://").append(word()).append(".biz/?id=");
        out.append(random.nextInt(99_999)).append("\">CLICK HERE</a><br>\n");
      }
    }
    out.append("To be removed from our list, reply with REMOVE in the subject.\n");
    if (html) {
      out.append("</font></body></html>\n");
    }
    return out.toString();
  }

  private void appendParagraph(StringBuilder out, String prefix, String[] phrases) {
    int sentences = 2 + random.nextInt(6);
    out.append(prefix);
    int lineStart = out.length();
    for (int s = 0; s < sentences; s++) {
      int words = 4 + random.nextInt(14);
      for (int w = 0; w < words; w++) {
        String token;
        if (phrases != null && random.nextInt(6) == 0) {
          token = phrases[random.nextInt(phrases.length)];
          token = random.nextInt(3) == 0 ? token.toUpperCase(java.util.Locale.ROOT) : token;
        } else if (random.nextInt(25) == 0) {
          token =
              phrases != null
                  ? "$" + random.nextInt(10_000)
                  : Integer.toString(random.nextInt(2003));
        } else {
          token = word();
        }
        out.append(w == 0 ? capitalised(token) : token);
        out.append(w == words - 1 ? (random.nextInt(5) == 0 ? "!" : ".") : " ");
        if (out.length() - lineStart > 68) {
          out.append('\n').append(prefix);
          lineStart = out.length();
        } else if (w == words - 1) {
          out.append(' ');
        }
      }
    }
    out.append("\n\n");
  }

  private String word() {
    return WORDS[random.nextInt(WORDS.length)];
  }

  private static String capitalised(String word) {
    return word.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1);
  }
}
