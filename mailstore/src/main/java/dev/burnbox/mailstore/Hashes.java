package dev.burnbox.mailstore;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The store's three hashes, with the JDK alone: SHA-256 of a piece (the key it is shared by), SHA-1
 * of a Redis script (the name EVALSHA calls it by) and the 32-bit murmur3 of an inbox name (its
 * Redis partition, {@link RedisInboxStore#partitionOf}). They give the same values as Guava's
 * {@code Hashing.sha256()}, {@code sha1()} and {@code murmur3_32_fixed()}, which the store used
 * before (HashesTest compares them), so partitions in an existing Redis store stay where they are.
 * Thread-safe.
 */
final class Hashes {
  private static final MessageDigest SHA_256 = digest("SHA-256");
  private static final MessageDigest SHA_1 = digest("SHA-1");

  private Hashes() {}

  /** The SHA-256 of {@code length} bytes of {@code bytes} from {@code offset}. */
  static byte[] sha256(byte[] bytes, int offset, int length) {
    MessageDigest digest = copy(SHA_256);
    digest.update(bytes, offset, length);
    return digest.digest();
  }

  /** The SHA-256 of {@code bytes}. */
  static byte[] sha256(byte[] bytes) {
    return sha256(bytes, 0, bytes.length);
  }

  /** The SHA-1 of {@code bytes} in lower-case hex, as Redis names a script. */
  static String sha1Hex(byte[] bytes) {
    return HexFormat.of().formatHex(copy(SHA_1).digest(bytes));
  }

  /** MurmurHash3 x86_32 of {@code bytes} with seed 0. */
  static int murmur3x32(byte[] bytes) {
    int h = 0;
    int blocks = bytes.length / 4;
    for (int i = 0; i < blocks; i++) {
      int k =
          (bytes[4 * i] & 0xff)
              | (bytes[4 * i + 1] & 0xff) << 8
              | (bytes[4 * i + 2] & 0xff) << 16
              | (bytes[4 * i + 3] & 0xff) << 24;
      h ^= mixK1(k);
      h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
    }
    int k = 0;
    int tail = blocks * 4;
    switch (bytes.length & 3) {
      case 3:
        k ^= (bytes[tail + 2] & 0xff) << 16;
      // fall through
      case 2:
        k ^= (bytes[tail + 1] & 0xff) << 8;
      // fall through
      case 1:
        k ^= bytes[tail] & 0xff;
        h ^= mixK1(k);
      // fall through
      default:
        break;
    }
    h ^= bytes.length;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  private static int mixK1(int k) {
    return Integer.rotateLeft(k * 0xcc9e2d51, 15) * 0x1b873593;
  }

  private static MessageDigest digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is in every JDK", e);
    }
  }

  // a clone of a prototype spares the provider lookup per call (what Guava did)
  private static MessageDigest copy(MessageDigest prototype) {
    try {
      return (MessageDigest) prototype.clone();
    } catch (CloneNotSupportedException e) {
      return digest(prototype.getAlgorithm());
    }
  }
}
