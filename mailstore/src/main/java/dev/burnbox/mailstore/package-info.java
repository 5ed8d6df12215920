/**
 * Bounded, deduplicated inboxes of received mail.
 *
 * <p>{@link dev.burnbox.mailstore.InboxStore} is the contract; {@link
 * dev.burnbox.mailstore.InboxStore#memory()} builds the in-memory backend, {@link
 * dev.burnbox.mailstore.InboxStore#redis} the Redis one that several nodes share. The SMTP intake
 * calls {@code deliver} with an {@link dev.burnbox.mailstore.IncomingMessage} and maps a {@link
 * dev.burnbox.mailstore.RefusalReason} to its reply; the web layer calls {@code list}, {@code get},
 * {@code delete}, {@code subscribe} and {@code stats}, addressing inboxes by {@link
 * dev.burnbox.mailstore.InboxName} and messages by {@link dev.burnbox.mailstore.MessageId}. How a
 * store keeps bodies is a {@link dev.burnbox.mailstore.BodyCodec} ({@link
 * dev.burnbox.mailstore.ZstdCodec} by default, {@link dev.burnbox.mailstore.DeflateCodec}, or
 * none), public so that a store can be built with another and the codecs can be measured from
 * outside. Store implementations are package-private.
 */
package dev.burnbox.mailstore;
