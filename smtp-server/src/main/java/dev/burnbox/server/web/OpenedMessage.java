package dev.burnbox.server.web;

import dev.burnbox.mailstore.MessageSummary;
import dev.burnbox.server.mime.DecodedMail;

/**
 * One stored message decoded for reading.
 *
 * @param summary the store's listing metadata
 * @param mail the decoded message; its {@code html} is the sender's, unsanitized
 * @param safeHtml {@code mail.html()} passed through {@link MailHtmlSanitizer}; the only HTML of
 *     the mail that is ever served
 * @param inlineImages whether the mail has parts that {@code safeHtml} may show as inline images
 *     ({@link InlineImages})
 */
record OpenedMessage(
    MessageSummary summary, DecodedMail mail, String safeHtml, boolean inlineImages) {}
