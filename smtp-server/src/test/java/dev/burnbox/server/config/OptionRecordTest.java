package dev.burnbox.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.burnbox.server.smtp.NetworkList;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

class OptionRecordTest {
  /** A slice: options of several kinds, one validated. */
  record Inner(
      @Option(names = "--count", defaultValue = "3", description = "a count") int count,
      @Option(
              names = "--delay",
              defaultValue = "90s",
              converter = OptionValues.Durations.class,
              description = "a duration")
          Duration delay,
      @Option(names = "--nets", defaultValue = "127.0.0.1", description = "parsed by its type")
          NetworkList nets,
      @Option(names = "--flag", description = "a flag") boolean flag,
      @Option(names = "--name", description = "no default") String name,
      @Option(names = "--token", paramLabel = "SECRET", description = "hidden") String token) {
    Inner {
      if (count < 0) {
        throw new IllegalArgumentException("--count must not be negative: " + count);
      }
    }
  }

  /** Settings made of a slice and options of its own. */
  record Outer(
      @Option(names = "--item", split = ",", description = "a list parsed by its element type")
          List<NetworkList> items,
      @Mixin Inner inner) {}

  record Bare(int notAnOption) {}

  @Test
  void everyOptionStartsAtItsDefaultOrNullOrZero() {
    Inner inner = OptionRecord.parse(Inner.class);
    assertThat(inner.count()).isEqualTo(3);
    assertThat(inner.delay()).isEqualTo(Duration.ofSeconds(90));
    assertThat(inner.nets()).isEqualTo(NetworkList.parse("127.0.0.1"));
    assertThat(inner.flag()).isFalse();
    assertThat(inner.name()).isNull();
  }

  @Test
  void optionsAreConvertedAndALaterOneWins() {
    Inner inner = OptionRecord.parse(Inner.class, "--count=5", "--delay=1h", "--flag", "--count=7");
    assertThat(inner.count()).isEqualTo(7);
    assertThat(inner.delay()).isEqualTo(Duration.ofHours(1));
    assertThat(inner.flag()).isTrue();
  }

  @Test
  void nestedSlicesShareOneCommandLine() {
    Outer outer = OptionRecord.parse(Outer.class, "--item=10.0.0.0/8,::1", "--count=1");
    assertThat(outer.inner().count()).isEqualTo(1);
    assertThat(outer.items())
        .containsExactly(NetworkList.parse("10.0.0.0/8"), NetworkList.parse("::1"));
    assertThat(OptionRecord.parse(Outer.class, "--item=").items())
        .as("a blank element is null, as from an empty variable")
        .containsExactly((NetworkList) null);
    assertThat(new OptionRecord<>(Outer.class).spec().options())
        .extracting(option -> option.longestName())
        .containsExactly("--item", "--count", "--delay", "--nets", "--flag", "--name", "--token");
  }

  @Test
  void refusalsNameTheOption() {
    assertThatThrownBy(() -> OptionRecord.parse(Inner.class, "--count=-1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--count must not be negative: -1");
    assertThatThrownBy(() -> OptionRecord.parse(Inner.class, "--nets=10.0.0.0/99"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--nets")
        .hasMessageContaining("10.0.0.0/99");
    assertThatThrownBy(() -> OptionRecord.parse(Inner.class, "--nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--nope");
    assertThatThrownBy(() -> new OptionRecord<>(Bare.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("notAnOption");
  }

  @Test
  void describeHidesSecrets() {
    Inner inner = OptionRecord.parse(Inner.class, "--token=hunter2", "--name=ann");
    assertThat(OptionRecord.describe(inner))
        .startsWith("Inner[count=3, ")
        .contains("name=ann")
        .contains("token=(hidden)")
        .doesNotContain("hunter2");
  }
}
