package dev.burnbox.mailstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.Hashing;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The JDK-only hashes give what Guava's gave, so Redis partitions and piece keys do not move. */
class HashesTest {
  @Test
  @SuppressWarnings("deprecation") // Guava's SHA-1, the reference
  void agreeWithGuavaOnEveryLengthAndRandomBytes() {
    SplittableRandom random = new SplittableRandom(21);
    for (int length = 0; length < 200; length++) {
      for (int round = 0; round < 20; round++) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        assertThat(Hashes.murmur3x32(bytes))
            .as("murmur3 of %s", Arrays.toString(bytes))
            .isEqualTo(Hashing.murmur3_32_fixed().hashBytes(bytes).asInt());
        assertThat(Hashes.sha256(bytes)).isEqualTo(Hashing.sha256().hashBytes(bytes).asBytes());
        assertThat(Hashes.sha1Hex(bytes)).isEqualTo(Hashing.sha1().hashBytes(bytes).toString());
        int from = length == 0 ? 0 : random.nextInt(length);
        int to = from + random.nextInt(length - from + 1);
        assertThat(Hashes.sha256(bytes, from, to - from))
            .isEqualTo(Hashing.sha256().hashBytes(bytes, from, to - from).asBytes());
      }
    }
  }

  @Test
  void inboxNamesKeepTheirPartitions() {
    // as RedisInboxStore.partitionOf hashes them: UTF-8 bytes of the canonical name
    for (String name : new String[] {"a", "alice", "bob.smith", "ünïcødé", "x".repeat(64)}) {
      assertThat(Hashes.murmur3x32(name.getBytes(UTF_8)))
          .as(name)
          .isEqualTo(Hashing.murmur3_32_fixed().hashString(name, UTF_8).asInt());
    }
  }
}
