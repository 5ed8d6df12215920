package dev.burnbox.bench.smtp;

import java.net.InetSocketAddress;

/**
 * An SMTP server under load: where it listens (loopback) and how to read its CPU time and RSS.
 *
 * @param label how reports name it, e.g. {@code virtual} or {@code smtp-sink}
 * @param address its SMTP address
 * @param probe its process, or a probe of pid -1 if it is not a local process
 */
public record LoadTarget(String label, InetSocketAddress address, ProcessProbe probe) {}
