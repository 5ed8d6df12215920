package dev.burnbox.server.smtp;

/**
 * A {@link MessageAcceptor}'s answer to a message: an {@link SmtpReply} the intake sends as it is
 * (the 250 of a stored message), or a {@link Refused} the intake sends, counts and logs like its
 * own refusals, so that every refusal is counted on one metric and logged by one throttle.
 */
public sealed interface Answer permits SmtpReply, Refused {}
