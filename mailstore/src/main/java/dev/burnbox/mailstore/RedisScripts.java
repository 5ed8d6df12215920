package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The Lua scripts of {@link RedisInboxStore}: every change to the store is one script, so Redis
 * runs it atomically and a reader (also a script) sees a delivery whole or not at all.
 *
 * <p>Redis 7 or newer (the scripts declare their flags with {@code #!lua}). Each script but {@link
 * #PARTITIONS} starts with {@link #COMMON}: the key layout and the two shared procedures, {@code
 * evict} (remove one entry, release its pieces, keep the counters exact) and {@code sweep} (evict
 * entries whose expiry time, kept as data, is not after the caller's clock). {@code KEYS[1]} is the
 * key prefix of one partition of the store, which carries the partition's hash tag; the scripts
 * derive every key they touch from it, so all of them lie in one hash slot and a script runs on
 * Redis Cluster as on one server (see {@link RedisInboxStore} for the layout).
 *
 * <p>Constants only; thread-safe.
 */
final class RedisScripts {
  private RedisScripts() {}

  /** Entries the sweep at the start of a script evicts at most, so no script runs long. */
  static final int SWEEP_BATCH = 500;

  // Every script declares itself (Redis 7+): "#!lua" makes Redis refuse it before it starts when
  // out of memory, never halfway through (a script without it is refused at its first write that
  // needs memory, after the sweep or evictions may have run, which would leave the counters wrong);
  // "allow-oom" lets the scripts that only free memory run anyway, "no-writes" marks the pure read.
  private static final String DELIVERS = "#!lua\n";
  private static final String FREES_MEMORY_ONLY = "#!lua flags=allow-oom\n";
  private static final String READS_ONLY = "#!lua flags=no-writes\n";

  private static final String COMMON =
      """
      local P = KEYS[1]
      local S = P .. ':s'   -- counters (HASH)
      local Q = P .. ':q'   -- every entry by delivery sequence (ZSET): the budget's and TTL's queue
      local function inboxKey(name) return P .. ':{' .. name .. '}' end
      local function entryKey(id) return P .. ':m:' .. id end
      local function pieceKey(sha) return P .. ':b:' .. sha end

      -- removes entry id with everything only it used; cause is a counter name or false (a delete)
      local function evict(id, cause)
        local e = entryKey(id)
        local f = redis.call('HMGET', e, 'i', 'p', 'c', 'l')
        redis.call('ZREM', Q, id)
        if not f[1] then return false end
        local inbox = inboxKey(f[1])
        redis.call('ZREM', inbox, id)
        if redis.call('EXISTS', inbox) == 0 then redis.call('HINCRBY', S, 'inboxes', -1) end
        redis.call('DEL', e)
        redis.call('HINCRBY', S, 'logical', -tonumber(f[4] or 0))
        local freed = tonumber(f[3])
        for sha in string.gmatch(f[2], '%S+') do
          local b = pieceKey(sha)
          if redis.call('HINCRBY', b, 'r', -1) <= 0 then
            local piece = redis.call('HMGET', b, 'n', 'c')
            redis.call('HINCRBY', S, 'raw', -tonumber(piece[1]))
            redis.call('HINCRBY', S, 'encoded', -redis.call('HSTRLEN', b, 'd'))
            freed = freed + tonumber(piece[2])
            redis.call('DEL', b)
          end
        end
        redis.call('HINCRBY', S, 'stored', -freed)
        redis.call('HINCRBY', S, 'messages', -1)
        if cause then redis.call('HINCRBY', S, cause, 1) end
        return true
      end

      -- evicts up to max entries that expired at or before now, oldest first; returns how many
      local function sweep(now, max)
        local n = 0
        while n < max do
          local oldest = redis.call('ZRANGE', Q, 0, 0)
          if #oldest == 0 then return n end
          local expires = tonumber(redis.call('HGET', entryKey(oldest[1]), 'x'))
          if expires and expires > now then return n end
          evict(oldest[1], 'ttl')
          n = n + 1
        end
        return n
      end
      """;

  /**
   * Delivers one message to the inboxes of one partition. ARGV: the events channel, now, expiresAt,
   * inbox cap, byte budget, cost of one entry, the metadata blob, the piece count, then per piece
   * (sha, stored bytes, raw length, cost), the inbox count, then per inbox (name, id). Returns
   * {@code {'ok', seq}} or {@code {'too-large', cost}}. (The channel is an argument, not derived
   * from {@code KEYS[1]}: every partition publishes on the store's one channel.)
   */
  static final String DELIVER =
      DELIVERS
          + COMMON
          + """
          local channel = ARGV[1]
          local now, expires = tonumber(ARGV[2]), ARGV[3]
          local cap, budget = tonumber(ARGV[4]), tonumber(ARGV[5])
          local entryCost, meta = tonumber(ARGV[6]), ARGV[7]
          local pieceCount = tonumber(ARGV[8])
          local pos = 9
          local pieces, shas, alone, logical = {}, {}, 0, 0
          for k = 1, pieceCount do
            pieces[k] = {ARGV[pos], ARGV[pos + 1], ARGV[pos + 2], tonumber(ARGV[pos + 3])}
            shas[k] = ARGV[pos]
            alone = alone + pieces[k][4]
            logical = logical + tonumber(pieces[k][3])
            pos = pos + 4
          end
          local inboxCount = tonumber(ARGV[pos])
          pos = pos + 1
          alone = alone + inboxCount * entryCost
          if alone > budget then return {'too-large', alone} end

          sweep(now, SWEEP_BATCH)
          for k = 0, inboxCount - 1 do
            local inbox = inboxKey(ARGV[pos + 2 * k])
            while redis.call('ZCARD', inbox) >= cap do
              evict(redis.call('ZRANGE', inbox, 0, 0)[1], 'cap')
            end
          end

          local seq = redis.call('HINCRBY', S, 'seq', 1)
          for k = 1, pieceCount do
            local b = pieceKey(pieces[k][1])
            if redis.call('HINCRBY', b, 'r', inboxCount) == inboxCount then
              redis.call('HSET', b, 'd', pieces[k][2], 'n', pieces[k][3], 'c', pieces[k][4])
              redis.call('HINCRBY', S, 'raw', pieces[k][3])
              redis.call('HINCRBY', S, 'encoded', #pieces[k][2])
              redis.call('HINCRBY', S, 'stored', pieces[k][4])
            end
          end
          local pieceList = table.concat(shas, ' ')
          for k = 0, inboxCount - 1 do
            local name, id = ARGV[pos + 2 * k], ARGV[pos + 2 * k + 1]
            redis.call('HSET', entryKey(id), 'i', name, 'q', seq, 'x', expires, 'p', pieceList,
              'c', entryCost, 'm', meta, 'l', logical)
            redis.call('HINCRBY', S, 'logical', logical)
            if redis.call('ZADD', inboxKey(name), seq, id) == 1
                and redis.call('ZCARD', inboxKey(name)) == 1 then
              redis.call('HINCRBY', S, 'inboxes', 1)
            end
            redis.call('ZADD', Q, seq, id)
            redis.call('HINCRBY', S, 'messages', 1)
            redis.call('HINCRBY', S, 'delivered', 1)
            redis.call('HINCRBY', S, 'stored', entryCost)
          end

          while tonumber(redis.call('HGET', S, 'stored')) > budget do
            local oldest = redis.call('ZRANGE', Q, 0, 0, 'WITHSCORES')
            if #oldest == 0 or tonumber(oldest[2]) >= seq then break end
            evict(oldest[1], 'budget')
          end

          for k = 0, inboxCount - 1 do
            redis.call('PUBLISH', channel,
              ARGV[pos + 2 * k + 1] .. '\\n' .. ARGV[pos + 2 * k] .. '\\n' .. meta)
          end
          return {'ok', seq}
          """
              .replace("SWEEP_BATCH", Integer.toString(SWEEP_BATCH));

  /**
   * One page of an inbox. ARGV: now, inbox name, exclusive upper sequence bound ({@code +inf} for
   * the newest page), limit. Returns {@code more} (1 if older entries exist) then per entry: id,
   * sequence, metadata blob; expired entries the sweep has not reached yet are left out.
   */
  static final String LIST =
      FREES_MEMORY_ONLY
          + COMMON
          + """
          local now = tonumber(ARGV[1])
          sweep(now, SWEEP_BATCH)
          local limit = tonumber(ARGV[4])
          local upper = ARGV[3] == '+inf' and '+inf' or '(' .. ARGV[3]
          local found = redis.call('ZREVRANGEBYSCORE', inboxKey(ARGV[2]), upper, '-inf',
            'WITHSCORES', 'LIMIT', 0, limit + 1)
          local out = {#found > 2 * limit and 1 or 0}
          for k = 1, math.min(#found, 2 * limit), 2 do
            local f = redis.call('HMGET', entryKey(found[k]), 'x', 'm')
            if f[1] and tonumber(f[1]) > now then
              table.insert(out, found[k])
              table.insert(out, found[k + 1])
              table.insert(out, f[2])
            end
          end
          return out
          """
              .replace("SWEEP_BATCH", Integer.toString(SWEEP_BATCH));

  /**
   * One entry with its pieces. ARGV: now, id. Returns nothing if absent or expired, else inbox
   * name, metadata blob, then each piece's stored bytes in order.
   */
  static final String GET =
      READS_ONLY
          + COMMON
          + """
          local f = redis.call('HMGET', entryKey(ARGV[2]), 'x', 'i', 'm', 'p')
          if not f[1] or tonumber(f[1]) <= tonumber(ARGV[1]) then return {} end
          local out = {f[2], f[3]}
          for sha in string.gmatch(f[4], '%S+') do
            table.insert(out, redis.call('HGET', pieceKey(sha), 'd'))
          end
          return out
          """;

  /**
   * The newest entries of one partition. ARGV: now, limit. Returns per entry: id, inbox name,
   * metadata blob, newest first; expired entries the sweep has not reached yet are left out.
   */
  static final String NEWEST =
      READS_ONLY
          + COMMON
          + """
          local now = tonumber(ARGV[1])
          local out = {}
          for _, id in ipairs(redis.call('ZREVRANGE', Q, 0, tonumber(ARGV[2]) - 1)) do
            local f = redis.call('HMGET', entryKey(id), 'x', 'i', 'm')
            if f[1] and tonumber(f[1]) > now then
              table.insert(out, id)
              table.insert(out, f[2])
              table.insert(out, f[3])
            end
          end
          return out
          """;

  /**
   * Deletes entries of the partition: one, or all that a refused delivery wrote there, in one round
   * trip. ARGV: now, {@code 1} to count them as deletions ({@code 0} for the undoing of a refused
   * delivery, which is taken off the entries delivered instead: the delivery was refused), then the
   * ids. Returns how many of them existed (and had not expired).
   */
  static final String DELETE =
      FREES_MEMORY_ONLY
          + COMMON
          + """
          sweep(tonumber(ARGV[1]), SWEEP_BATCH)
          local n = 0
          for k = 3, #ARGV do
            if evict(ARGV[k], false) then n = n + 1 end
          end
          if n == 0 then return 0 end
          if ARGV[2] == '1' then
            redis.call('HINCRBY', S, 'deleted', n)
          else
            redis.call('HINCRBY', S, 'delivered', -n)
          end
          return n
          """
              .replace("SWEEP_BATCH", Integer.toString(SWEEP_BATCH));

  /**
   * The counters, after sweeping every expired entry (in batches, so stats are exact on the
   * caller's clock). ARGV: now. Returns messages, inboxes, raw, stored, then evictions for cap,
   * budget, ttl, then logical and encoded bytes, then deletions, then entries delivered; or {@code
   * {'more'}} if another batch is due.
   */
  static final String STATS =
      FREES_MEMORY_ONLY
          + COMMON
          + """
          if sweep(tonumber(ARGV[1]), SWEEP_BATCH) == SWEEP_BATCH then return {'more'} end
          local c = redis.call('HMGET', S, 'messages', 'inboxes', 'raw', 'stored', 'cap', 'budget',
            'ttl', 'logical', 'encoded', 'deleted', 'delivered')
          for k = 1, #c do c[k] = tonumber(c[k] or 0) end
          return c
          """
              .replace("SWEEP_BATCH", Integer.toString(SWEEP_BATCH));

  /**
   * Records the store's partition count unless a count is recorded, and returns the recorded one
   * (as text, as stored). {@code KEYS[1]}: the store's key {@code P:partitions}, in no partition;
   * ARGV: this store's count. It may write when Redis is out of memory: a few bytes, once, and
   * without it no read would run either.
   */
  static final String PARTITIONS =
      "#!lua flags=allow-oom\n"
          + """
          local recorded = redis.call('GET', KEYS[1])
          if recorded then return recorded end
          redis.call('SET', KEYS[1], ARGV[1])
          return ARGV[1]
          """;

  /** A script's text and its SHA-1, as EVALSHA names it. */
  record Script(String name, byte[] text, byte[] sha) {
    static Script of(String name, String text) {
      byte[] bytes = text.getBytes(UTF_8);
      @SuppressWarnings("deprecation") // SHA-1 is what Redis names scripts by, not a security use
      String hex = com.google.common.hash.Hashing.sha1().hashBytes(bytes).toString();
      return new Script(name, bytes, hex.getBytes(UTF_8));
    }
  }
}
