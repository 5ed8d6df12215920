package dev.burnbox.mailstore;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.providers.ConnectionProvider;

/**
 * How {@link RedisInboxStore} reaches Redis, chosen by the URL: {@code redis://host:port} is one
 * server (or a primary), {@code redis-cluster://host:port,host:port,...} a Redis Cluster found
 * through those seed nodes. Runs the store's scripts, routed by their one key (on a cluster, to the
 * master of the key's slot), loading a script again where a server does not have it, and turns
 * every way Redis can be unreachable, slow, too busy (no pooled connection free) or unable to write
 * into {@link StoreUnavailableException} within about the timeout, never a hang.
 *
 * <p>Connects lazily: building connects nowhere (the cluster client, which learns the slot map as
 * it starts, is made by the first call). Thread-safe.
 */
final class RedisConnections implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RedisConnections.class);
  private static final String SINGLE = "redis";
  private static final String CLUSTER = "redis-cluster";
  private static final List<String> CANNOT_RUN_NOW =
      List.of("OOM", "BUSY", "LOADING", "READONLY", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN");

  /** Connections kept per server (per node on a cluster). */
  static final int MAX_CONNECTIONS = 64;

  private final List<HostAndPort> nodes; // the server, or the cluster's seed nodes
  private final boolean cluster;
  private final Duration timeout;
  private final JedisClientConfig config;
  private final GenericObjectPoolConfig<Connection> poolConfig;
  private final ServerConnections server; // one server's pool; null on a cluster
  private final AtomicLong connectionLosses = new AtomicLong();
  private final Object lock = new Object();
  private UnifiedJedis client; // guarded by lock; for a cluster made by the first call
  private boolean closed; // guarded by lock

  private RedisConnections(
      List<HostAndPort> nodes, boolean cluster, Duration timeout, int maxConnections) {
    this.nodes = List.copyOf(nodes);
    this.cluster = cluster;
    this.timeout = timeout;
    int millis = Math.toIntExact(timeout.toMillis());
    this.config =
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(millis)
            .socketTimeoutMillis(millis)
            .clientName("burnbox")
            .protocol(RedisProtocol.RESP2) // the replies are read as RESP2 types
            .build();
    this.poolConfig = new GenericObjectPoolConfig<>();
    poolConfig.setMaxTotal(maxConnections); // per node on a cluster
    // keep every connection once opened: with 16 kept, 100 busy SMTP sessions made the pool close
    // and reopen connections all the time (connect, CLIENT SETNAME: 10% of the node's CPU)
    poolConfig.setMaxIdle(maxConnections);
    poolConfig.setMaxWait(timeout); // an exhausted pool fails like a slow Redis, never hangs
    poolConfig.setJmxEnabled(false);
    if (cluster) {
      server = null;
    } else {
      server = new ServerConnections(nodes.get(0), config, poolConfig);
      client =
          RedisClient.builder()
              .hostAndPort(nodes.get(0))
              .clientConfig(config)
              .connectionProvider(server)
              .build();
    }
  }

  /**
   * One server's connections: Jedis's pool, except that a connection that broke is replaced on a
   * thread of its own. commons-pool 2.13 replaces every invalidated connection on the spot, on the
   * thread that gave it back (POOL-424): a call that timed out on a frozen Redis then connected to
   * it again and waited for a second timeout, so SMTP's 451 and the web's 503 took twice the
   * timeout. Not replacing it at all would be no better: a call waiting for a connection of the
   * full pool wakes only when one is added to the pool, so it would wait out its whole timeout
   * although the broken connection left room for a new one.
   */
  private static final class ServerConnections implements ConnectionProvider {
    private final HostAndPort node;
    private final ConnectionPool pool;

    ServerConnections(
        HostAndPort node,
        JedisClientConfig config,
        GenericObjectPoolConfig<Connection> poolConfig) {
      this.node = node;
      this.pool = new ReplacingPool(node, config, poolConfig);
    }

    /** Closes every idle connection: the others died with the same server. */
    void dropIdle() {
      pool.clear();
    }

    @Override
    public Connection getConnection() {
      return pool.getResource();
    }

    @Override
    public Connection getConnection(CommandArguments args) {
      return pool.getResource();
    }

    @Override
    public Map<?, ?> getConnectionMap() {
      return Map.of(node, pool);
    }

    @Override
    public Map<?, ?> getPrimaryNodesConnectionMap() {
      return Map.of(node, pool);
    }

    @Override
    public void close() {
      pool.close();
    }
  }

  /** Jedis's pool of one server's connections, replacing a broken one on a thread of its own. */
  private static final class ReplacingPool extends ConnectionPool {
    ReplacingPool(
        HostAndPort node,
        JedisClientConfig config,
        GenericObjectPoolConfig<Connection> poolConfig) {
      super(node, config, poolConfig);
    }

    /**
     * Called by commons-pool only to replace an invalidated connection (this pool keeps no minimum
     * of idle connections and adds none ahead): connects on a new thread, so that the caller that
     * gave the broken connection back returns at once.
     */
    @Override
    public void addObject() {
      // a virtual thread: during an outage every broken connection has one waiting on its connect
      Thread.ofVirtual().name("burnbox-redis-replace").start(this::replace);
    }

    /**
     * Adds a connection if the pool has room for one, which the longest waiting caller, if any,
     * takes at once; also when none waits yet, so that a caller about to wait is not missed. Where
     * Redis cannot be reached it adds none: a caller then connects for itself.
     */
    private void replace() {
      try {
        super.addObject();
      } catch (Exception e) {
        LOG.debug("could not replace a broken Redis connection: {}", e.toString());
      }
      if (isClosed()) {
        clear(); // closed while connecting: close the new connection too
      }
    }
  }

  /**
   * Connections to the Redis that {@code url} names.
   *
   * @throws IllegalArgumentException unless {@code url} is one {@link #nodes} takes
   */
  static RedisConnections of(URI url, Duration timeout) {
    return of(url, timeout, MAX_CONNECTIONS);
  }

  /** As {@link #of(URI, Duration)}, keeping at most {@code maxConnections} per server. */
  static RedisConnections of(URI url, Duration timeout, int maxConnections) {
    return new RedisConnections(
        nodes(url), CLUSTER.equals(url.getScheme()), timeout, maxConnections);
  }

  /**
   * The server, or the cluster's seed nodes, that {@code url} names; connects nowhere.
   *
   * @throws IllegalArgumentException unless {@code url} is {@code redis://host[:port]} or {@code
   *     redis-cluster://host[:port][,host[:port]]...} (port 6379 if left out), without password,
   *     database, TLS or query; the message shows the URL with its password hidden
   */
  static List<HostAndPort> nodes(URI url) {
    String scheme = url.getScheme();
    String authority = url.getRawAuthority();
    if (!(SINGLE.equals(scheme) || CLUSTER.equals(scheme))
        || authority == null
        || authority.contains("@")
        || !(url.getRawPath() == null || url.getRawPath().isEmpty())
        || url.getRawQuery() != null
        || url.getRawFragment() != null
        || (SINGLE.equals(scheme) && url.getHost() == null)) {
      // a password, database or TLS silently ignored would fail later and less clearly
      throw badUrl(url, "no password, database or TLS yet");
    }
    List<HostAndPort> nodes = new ArrayList<>();
    for (String node : authority.split(",", -1)) {
      nodes.add(node(node, url));
    }
    if (SINGLE.equals(scheme) && nodes.size() != 1) {
      throw badUrl(url, "redis:// names one server, redis-cluster:// the seed nodes of a cluster");
    }
    return nodes;
  }

  private static HostAndPort node(String text, URI url) {
    int colon = text.lastIndexOf(':');
    String host = colon < 0 ? text : text.substring(0, colon);
    if (host.isEmpty() || host.contains("[") || (colon >= 0 && colon + 1 == text.length())) {
      throw badUrl(url, "\"" + text + "\" is not host:port");
    }
    if (colon < 0) {
      return new HostAndPort(host, 6379);
    }
    try {
      int port = Integer.parseInt(text.substring(colon + 1));
      if (port < 1 || port > 65535) {
        throw new NumberFormatException();
      }
      return new HostAndPort(host, port);
    } catch (NumberFormatException e) {
      throw badUrl(url, "\"" + text + "\" has no port from 1 to 65535");
    }
  }

  private static IllegalArgumentException badUrl(URI url, String why) {
    return new IllegalArgumentException(
        "redis url must be redis://host:port or redis-cluster://host:port,host:port,... ("
            + why
            + "), got "
            + UrlPasswords.hide(url.toString()));
  }

  boolean isCluster() {
    return cluster;
  }

  /** "Redis at host:port" or "Redis Cluster at host:port,...", for messages. */
  String describe() {
    StringBuilder text = new StringBuilder(cluster ? "Redis Cluster at " : "Redis at ");
    for (int i = 0; i < nodes.size(); i++) {
      text.append(i == 0 ? "" : ",").append(nodes.get(i));
    }
    return text.toString();
  }

  /**
   * Where an event subscriber may connect: the server, or every cluster node known so far (seed
   * nodes first, then those the slot map named), since a cluster broadcasts every PUBLISH to all of
   * its nodes.
   */
  List<HostAndPort> subscriberNodes() {
    Set<HostAndPort> all = new LinkedHashSet<>(nodes);
    if (cluster) {
      UnifiedJedis known;
      synchronized (lock) {
        known = client;
      }
      if (known instanceof RedisClusterClient c) {
        for (String node : c.getClusterNodes().keySet()) {
          all.add(HostAndPort.from(node));
        }
      }
    }
    return List.copyOf(all);
  }

  /**
   * How many times a call found Redis unreachable or lost its connection so far: a count that
   * changed since a moment means Redis may have restarted (empty, without persistence) since.
   */
  long connectionLosses() {
    return connectionLosses.get();
  }

  /**
   * Runs {@code script} by EVALSHA with the one key {@code key}, or by EVAL where Redis does not
   * have it yet (a new or restarted server; on a cluster, the master of the key's slot). On one
   * server, a connection that fails at once (a pooled socket that a Redis restart closed) is
   * dropped with every idle one, {@code beforeRetry} is run, and the script tried once more on a
   * fresh connection; the cluster client retries by itself, within the timeout. A failure that took
   * the whole timeout is not retried, so no call waits much longer than the timeout (on a cluster,
   * up to about twice).
   *
   * @param what the script and partition, for messages
   * @param beforeRetry what to check on a Redis that may have restarted before running the script
   *     there; it may throw {@link StoreUnavailableException} to give up
   * @throws StoreUnavailableException if Redis cannot be reached in time or cannot take a write, or
   *     no pooled connection comes free within the timeout
   */
  Object run(
      RedisScripts.Script script,
      byte[] key,
      List<byte[]> args,
      String what,
      Runnable beforeRetry) {
    long start = System.nanoTime();
    try {
      return runOnce(script, key, args, what);
    } catch (JedisConnectionException e) {
      connectionLosses.incrementAndGet();
      if (cluster || isClosed() || System.nanoTime() - start >= timeout.toNanos() / 2) {
        throw unavailable(what, e);
      }
      server.dropIdle();
      beforeRetry.run();
      try {
        return runOnce(script, key, args, what);
      } catch (JedisConnectionException again) {
        connectionLosses.incrementAndGet();
        again.addSuppressed(e);
        throw unavailable(what, again);
      }
    } catch (JedisClusterOperationException e) {
      connectionLosses.incrementAndGet();
      throw unavailable(what, e); // out of attempts or time, or no reachable node
    }
  }

  /**
   * One server only, for tests that fill the pool: one of its connections, taken from the pool
   * until closed (closed {@linkplain Connection#setBroken broken}, it is dropped instead).
   */
  Connection borrowConnection() {
    return server.getConnection();
  }

  /** One server only, for tests: how many callers wait for a connection of the full pool. */
  int callersWaitingForConnection() {
    return server.pool.getNumWaiters();
  }

  private Object runOnce(RedisScripts.Script script, byte[] key, List<byte[]> args, String what) {
    UnifiedJedis redis = client();
    List<byte[]> keys = List.of(key);
    try {
      try {
        return redis.evalsha(script.sha(), keys, args);
      } catch (JedisNoScriptException e) {
        // EVAL, routed like the EVALSHA by the key's slot, runs the script and leaves it cached
        // there; SCRIPT LOAD would not do: Jedis broadcasts it to every master of a cluster, so
        // one master down would keep the others from loading it
        return redis.eval(script.text(), keys, args);
      }
    } catch (JedisDataException e) {
      String message = String.valueOf(e.getMessage());
      for (String busy : CANNOT_RUN_NOW) {
        if (message.startsWith(busy)) {
          throw new StoreUnavailableException(
              describe() + " cannot run the " + what + " now: " + message, e);
        }
      }
      throw e;
    } catch (JedisException e) {
      if (e.getCause() instanceof NoSuchElementException) {
        // the pool's wait for a free connection (as long as the timeout) ran out: as busy as a
        // slow Redis, but not a lost connection, so nothing to check again afterwards
        throw new StoreUnavailableException(
            describe()
                + " is too busy ("
                + what
                + "): no pooled connection came free in "
                + timeout.toMillis()
                + " ms",
            e);
      }
      throw e;
    }
  }

  private UnifiedJedis client() {
    synchronized (lock) {
      if (closed) {
        throw new StoreUnavailableException("the store is closed", null);
      }
      if (client == null) {
        try {
          client =
              RedisClusterClient.builder()
                  .nodes(new LinkedHashSet<>(nodes))
                  .clientConfig(config)
                  .poolConfig(poolConfig)
                  .maxAttempts(3)
                  .maxTotalRetriesDuration(timeout)
                  .build();
        } catch (JedisConnectionException | JedisClusterOperationException e) {
          connectionLosses.incrementAndGet();
          throw unavailable("slot map", e); // tried again by the next call
        }
      }
      return client;
    }
  }

  private boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  private StoreUnavailableException unavailable(String what, Exception cause) {
    return new StoreUnavailableException(
        describe() + " is unreachable or slow (" + what + "): " + cause.getMessage(), cause);
  }

  /** Closes every connection. Idempotent. */
  @Override
  public void close() {
    UnifiedJedis c;
    synchronized (lock) {
      closed = true;
      c = client;
      client = null;
    }
    if (c != null) {
      c.close();
    }
  }
}
