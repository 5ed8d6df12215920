package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Reads a Redis store's keys behind its back, on one server or on every master of a cluster, and
 * recounts each partition: entries, inboxes, each piece's reference count, raw and stored bytes
 * must equal the counters the scripts keep, every entry must be listed in its inbox, and the
 * entries delivered less those evicted and deleted must be the entries held.
 */
final class RedisStoreKeys {
  private RedisStoreKeys() {}

  /**
   * Checks every partition of the store with key prefix {@code prefix} found on {@code nodes}.
   *
   * @return for each partition holding keys, its hash tag and the index in {@code nodes} of the
   *     node that holds it
   */
  static Map<String, Integer> checkInvariants(List<Jedis> nodes, String prefix) {
    Map<String, Integer> nodeOfPartition = new TreeMap<>();
    for (int n = 0; n < nodes.size(); n++) {
      Jedis jedis = nodes.get(n);
      Map<String, List<String>> keysByTag = new HashMap<>();
      for (String key : scan(jedis, prefix + ":{*")) {
        int close = key.indexOf('}');
        String tag = key.substring(prefix.length() + 2, close);
        keysByTag.computeIfAbsent(tag, t -> new ArrayList<>()).add(key);
      }
      for (Map.Entry<String, List<String>> partition : keysByTag.entrySet()) {
        Integer other = nodeOfPartition.put(partition.getKey(), n);
        assertThat(other).as("partition %s on two nodes", partition.getKey()).isNull();
        checkPartition(jedis, prefix + ":{" + partition.getKey() + "}", partition.getValue());
      }
    }
    return nodeOfPartition;
  }

  private static void checkPartition(Jedis jedis, String p, List<String> keys) {
    Map<String, Long> refs = new HashMap<>();
    long entryCost = 0;
    int entries = 0;
    int inboxes = 0;
    List<String> pieces = new ArrayList<>();
    for (String key : keys) {
      String rest = key.substring(p.length() + 1);
      if (rest.startsWith("m:")) {
        entries++;
        Map<String, String> e = jedis.hgetAll(key);
        entryCost += Long.parseLong(e.get("c"));
        for (String sha : e.get("p").split(" ")) {
          refs.merge(sha, 1L, Long::sum);
        }
        String id = rest.substring(2);
        assertThat(jedis.zscore(p + ":{" + e.get("i") + "}", id)).as("listed " + id).isNotNull();
      } else if (rest.startsWith("b:")) {
        pieces.add(key);
      } else if (rest.startsWith("{")) {
        inboxes++;
      } else {
        assertThat(rest).as("key %s", key).isIn("q", "s");
      }
    }
    long raw = 0;
    long pieceCost = 0;
    for (String key : pieces) {
      Map<String, String> b = jedis.hgetAll(key);
      String sha = key.substring((p + ":b:").length());
      assertThat(Long.parseLong(b.get("r"))).as("refs of " + sha).isEqualTo(refs.get(sha));
      raw += Long.parseLong(b.get("n"));
      pieceCost += Long.parseLong(b.get("c"));
    }
    assertThat(pieces).hasSameSizeAs(refs.keySet());
    Map<String, String> counters = jedis.hgetAll(p + ":s");
    assertThat(counter(counters, "messages")).as(p).isEqualTo(entries);
    assertThat(jedis.zcard(p + ":q")).isEqualTo(entries);
    assertThat(counter(counters, "inboxes")).as(p).isEqualTo(inboxes);
    assertThat(counter(counters, "raw")).as(p).isEqualTo(raw);
    assertThat(counter(counters, "stored")).as(p).isEqualTo(entryCost + pieceCost);
    long removed =
        counter(counters, "cap")
            + counter(counters, "budget")
            + counter(counters, "ttl")
            + counter(counters, "deleted");
    assertThat(counter(counters, "delivered") - removed).as(p).isEqualTo(entries);
  }

  private static long counter(Map<String, String> counters, String name) {
    return Long.parseLong(counters.getOrDefault(name, "0"));
  }

  static List<String> scan(Jedis jedis, String pattern) {
    List<String> keys = new ArrayList<>();
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = jedis.scan(cursor, new ScanParams().match(pattern).count(1000));
      keys.addAll(page.getResult());
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return keys;
  }
}
