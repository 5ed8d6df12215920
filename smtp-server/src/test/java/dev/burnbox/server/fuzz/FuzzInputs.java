package dev.burnbox.server.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The seed corpus of a Jazzer fuzz test, and seeded random mutations of it for plain JUnit runs.
 *
 * <p>A fuzz test's seeds are the files of its Jazzer inputs directory, {@code
 * src/test/resources/<package>/<TestClass>Inputs/<method>/}: Jazzer runs each of them in regression
 * mode, and writes the inputs that crash a fuzzing run there too. {@link #checkMutations} adds what
 * Jazzer's regression mode lacks: thousands of nearby inputs on every build, reproducible from the
 * seed number alone.
 */
public final class FuzzInputs {
  private FuzzInputs() {}

  /**
   * The contents of every file in the inputs directory of {@code fuzzTest}'s method {@code method},
   * sorted by file name.
   *
   * @throws IllegalStateException if the directory is missing or empty
   */
  public static List<byte[]> seeds(Class<?> fuzzTest, String method) {
    String resource = fuzzTest.getSimpleName() + "Inputs/" + method;
    URL url = fuzzTest.getResource(resource);
    if (url == null) {
      throw new IllegalStateException("no seed directory " + resource + " next to " + fuzzTest);
    }
    try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
      List<byte[]> seeds = new ArrayList<>();
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        seeds.add(Files.readAllBytes(file));
      }
      if (seeds.isEmpty()) {
        throw new IllegalStateException("seed directory " + resource + " is empty");
      }
      return seeds;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Checks {@code property} on {@code rounds} mutations of the corpus drawn from {@code seed}: each
   * takes a random corpus entry and applies one to four edits (a byte changed, a snippet inserted,
   * a range deleted or duplicated, the tail cut, two entries spliced).
   *
   * @param snippets syntax of the input format worth inserting (e.g. {@code "\r\n.\r\n"}); may be
   *     empty
   * @throws AssertionError naming the seed, the round and the input, if the property fails
   */
  public static void checkMutations(
      long seed,
      List<byte[]> corpus,
      int rounds,
      List<String> snippets,
      Consumer<byte[]> property) {
    Random random = new Random(seed);
    for (int round = 0; round < rounds; round++) {
      byte[] input = mutate(corpus, snippets, random);
      try {
        property.accept(input);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            "seed "
                + seed
                + ", round "
                + round
                + ": property fails for input (as ISO-8859-1, escaped) \""
                + escaped(input)
                + "\"; keep it as a regression input",
            e);
      }
    }
  }

  private static byte[] mutate(List<byte[]> corpus, List<String> snippets, Random random) {
    List<Byte> bytes = toList(corpus.get(random.nextInt(corpus.size())));
    int edits = 1 + random.nextInt(4);
    for (int e = 0; e < edits; e++) {
      int at = bytes.isEmpty() ? 0 : random.nextInt(bytes.size());
      int end = Math.min(bytes.size(), at + 1 + random.nextInt(64));
      switch (random.nextInt(6)) {
        case 0 -> {
          if (!bytes.isEmpty()) {
            bytes.set(at, (byte) random.nextInt(256));
          }
        }
        case 1 -> {
          if (!snippets.isEmpty()) {
            String snippet = snippets.get(random.nextInt(snippets.size()));
            bytes.addAll(at, toList(snippet.getBytes(StandardCharsets.UTF_8)));
          }
        }
        case 2 -> bytes.subList(at, end).clear();
        case 3 -> bytes.addAll(at, new ArrayList<>(bytes.subList(at, end)));
        case 4 -> bytes.subList(at, bytes.size()).clear();
        default -> {
          List<Byte> other = toList(corpus.get(random.nextInt(corpus.size())));
          bytes.addAll(at, other.subList(random.nextInt(other.size() + 1), other.size()));
        }
      }
    }
    byte[] mutated = new byte[bytes.size()];
    for (int i = 0; i < mutated.length; i++) {
      mutated[i] = bytes.get(i);
    }
    return mutated;
  }

  private static List<Byte> toList(byte[] bytes) {
    List<Byte> list = new ArrayList<>(bytes.length + 64);
    for (byte b : bytes) {
      list.add(b);
    }
    return list;
  }

  /** {@code input} as Java string literal text, bytes read as ISO-8859-1. */
  public static String escaped(byte[] input) {
    StringBuilder out = new StringBuilder();
    for (byte b : input) {
      int c = b & 0xff;
      switch (c) {
        case '\r' -> out.append("\\r");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20 || c >= 0x7f) {
            out.append(String.format("\\u%04x", c));
          } else {
            out.append((char) c);
          }
        }
      }
    }
    return out.toString();
  }
}
