package dev.burnbox.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link PackedStrings} gives back exactly what it packed. */
class PackedStringsTest {
  @Test
  void unpacksWhatItPackedOverSeededRandomStrings() {
    SplittableRandom random = new SplittableRandom(20);
    for (int run = 0; run < 2_000; run++) {
      List<String> strings = new ArrayList<>();
      for (int i = random.nextInt(8); i > 0; i--) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(10) == 0 ? random.nextInt(20_000) : random.nextInt(60);
        int range =
            switch (random.nextInt(3)) {
              case 0 -> 128; // ASCII
              case 1 -> 256; // Latin-1: one byte a char
              default -> 0x10000; // anything, lone surrogates included
            };
        for (int k = 0; k < length; k++) {
          s.append((char) random.nextInt(range));
        }
        strings.add(s.toString());
      }
      List<String> unpacked = new ArrayList<>();
      for (PackedStrings.Reader r = new PackedStrings.Reader(PackedStrings.pack(strings));
          r.hasNext(); ) {
        unpacked.add(r.next());
      }
      assertThat(unpacked).isEqualTo(strings);
      for (String s : strings) {
        byte[] one = PackedStrings.pack(List.of(s));
        assertThat(PackedStrings.packedLength(s)).isEqualTo(one.length);
        assertThat(PackedStrings.holdsOnly(one, s)).isTrue();
        for (String other : strings) {
          assertThat(PackedStrings.holdsOnly(one, other)).isEqualTo(s.equals(other));
        }
      }
    }
  }

  @Test
  void aPackedStringIsOnlyEqualToItsOwnCharacters() {
    byte[] packed = PackedStrings.pack(List.of("ab"));
    assertThat(PackedStrings.holdsOnly(packed, "ab")).isTrue();
    assertThat(PackedStrings.holdsOnly(packed, "a")).isFalse();
    assertThat(PackedStrings.holdsOnly(packed, "abc")).isFalse();
    assertThat(PackedStrings.holdsOnly(packed, "aB")).isFalse();
    // the same characters, one of them in two bytes: "ĉ" is 0x0109, not "\u0001" then "\t"
    assertThat(PackedStrings.holdsOnly(PackedStrings.pack(List.of("ĉ")), "\u0001\t")).isFalse();
    assertThat(PackedStrings.holdsOnly(PackedStrings.pack(List.of("ab", "c")), "ab")).isFalse();
  }

  @Test
  void latinOneTextTakesOneByteACharacterAndALengthByte() {
    assertThat(PackedStrings.pack(List.of("sender@example.org", "", "Réunion")))
        .hasSize(1 + 18 + 1 + 1 + 7);
    assertThat(PackedStrings.pack(List.of("Ωmega"))).hasSize(1 + 10);
  }
}
