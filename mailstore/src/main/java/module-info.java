/**
 * Burnbox's inbox store: the {@link dev.burnbox.mailstore.InboxStore} contract and its memory and
 * Redis backends. Exports only {@code dev.burnbox.mailstore}; everything else (Redis scripts, codec
 * internals, snapshots' format) stays inside.
 */
module dev.burnbox.mailstore {
  requires com.github.benmanes.caffeine;
  requires com.github.luben.zstd_jni;
  requires com.google.common;
  requires org.apache.commons.pool2;
  requires redis.clients.jedis;
  requires org.slf4j;

  exports dev.burnbox.mailstore;
}
