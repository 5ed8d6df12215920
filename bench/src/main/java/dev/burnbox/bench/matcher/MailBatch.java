package dev.burnbox.bench.matcher;

import dev.burnbox.matcher.CaseFolding;

/**
 * The fixed batch of mails one benchmark operation scans, plus the same mails folded per {@code
 * char} with {@link CaseFolding#foldChar} for peers that cannot ignore case themselves.
 *
 * @param mails the mails as received
 * @param folded each mail folded (same length, so offsets agree)
 * @param chars total length of the mails in {@code char}s
 */
record MailBatch(String[] mails, char[][] folded, long chars) {

  /** Wraps {@code mails}, folding a copy of each. */
  static MailBatch of(String[] mails) {
    char[][] folded = new char[mails.length][];
    long chars = 0;
    for (int m = 0; m < mails.length; m++) {
      char[] f = mails[m].toCharArray();
      for (int i = 0; i < f.length; i++) {
        f[i] = CaseFolding.foldChar(f[i]);
      }
      folded[m] = f;
      chars += f.length;
    }
    return new MailBatch(mails, folded, chars);
  }
}
