package dev.burnbox.matcher;

/**
 * One occurrence of a term in a text: {@code text.substring(start, end)} equals the term (under the
 * set's {@link MatchOptions}).
 *
 * @param term the term as it was given to {@link TermSet#of}
 * @param termIndex its index in the {@link TermSet}
 * @param start first {@code char} index (inclusive)
 * @param end index just past the last {@code char} (exclusive)
 */
public record Match(String term, int termIndex, int start, int end) {}
